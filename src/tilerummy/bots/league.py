"""Opponents of one style each, to measure the levels against (the league).

Beating one baseline says little: a player that only holds its tiles beats
greedy most of the time. So the arena's round-robin (``tilerummy arena
--round-robin``) plays the levels against players of several styles:

- ``hoarder`` makes its initial meld as soon as it can, with the one of
  the solver's few best openings that lays the fewest tiles (a rack that never opened pays 100 or 200
  points when the pool runs dry), then draws every turn and lays tiles only
  when it can go out: its whole rack in one play.
- ``lurker`` hoards too, but once the pool is low (:data:`LOW_POOL` tiles or
  fewer) or an opponent is close to going out (:data:`CLOSE_RACK` tiles or
  fewer), it plays the most tiles it can every turn (on a rack of more than
  :data:`SOLVED_RACK` tiles, its own sets and the tiles that extend the
  table's, without rearranging it).
- ``racer`` goes out as fast as it can: it never draws while it can play,
  and of the solver's few best plays it makes the one that leaves the most
  tiles for its next turn to place, looking one turn ahead.
- ``shedder`` keeps the points it holds as low as it can: every turn the
  play that removes the most rack value (ties: the most tiles).
- ``greedy`` (a level of its own): the most tiles every turn.
- ``random`` (:class:`.simple.RandomBot`): a random part of the sets and
  single tiles it finds, or a draw anyway one time in five; a floor to test against.
- ``hard-v1`` and ``network-v1``: the learned policy as first shipped,
  with its weights frozen in the package (``league_network_v1.npz``), so
  that training the shipped network again leaves them as they were.
- ``expert-fast``: the expert at an eighth of its budget.

These are opponents for measuring, not levels offered to a person; the
levels are :data:`tilerummy.bots.LEVELS`.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from ..game import Action, PlayerView
from ..melds import Table
from ..solver import Solution, candidates, solve
from ..tiles import Tile
from ._common import own_rack, play_or_draw, without
from .network import PolicyNetwork
from .partition import could_go_out
from .simple import SimpleBot

#: A ``lurker`` lays down once the pool holds this many tiles or fewer.
LOW_POOL = 10

#: A ``lurker`` lays down once an opponent holds this many tiles or fewer.
CLOSE_RACK = 4

#: Above this many tiles a ``lurker`` lays its rack's own sets and what extends the
#: table's (as :class:`~tilerummy.bots.simple.SimpleBot` does) rather than ask the
#: solver, which takes seconds a move on racks of forty tiles.
SOLVED_RACK = 24

#: How many of the solver's best plays a ``racer`` looks one turn past.
RACER_PLAYS = 4

#: The frozen first version of the learned policy, inside the package.
FROZEN_V1 = "league_network_v1.npz"


def _best(view: PlayerView, rack: list[Tile], *, objective: str = "tiles") -> Solution | None:
    assert view.seat is not None
    return solve(
        rack,
        view.table,
        rules=view.rules,
        initial_meld_done=view.melded[view.seat],
        objective="value" if objective == "value" else "tiles",
        fewest_changes=False,
    )


def _hold(view: PlayerView, rack: list[Tile]) -> Table | None:
    """A hoarder's play: going out if it can; before its initial meld, of the
    solver's few best openings the one that lays the fewest tiles (an unopened rack pays 100 or 200 points
    when the pool runs dry); else nothing."""
    assert view.seat is not None
    if view.melded[view.seat]:
        return _going_out(view, rack)
    openings = candidates(
        rack, view.table, rules=view.rules, initial_meld_done=False, k=RACER_PLAYS, fewest_changes=False
    )
    if not openings:
        return None
    if len(openings[0].placed) == len(rack):
        return openings[0].table
    return min(openings, key=lambda opening: len(opening.placed)).table


def _going_out(view: PlayerView, rack: list[Tile]) -> Table | None:
    """The table that lays the whole rack, if there is one."""
    assert view.seat is not None
    if not could_go_out(rack, view.table, view.rules, melded=view.melded[view.seat]):
        return None
    found = _best(view, rack)
    return found.table if found is not None and len(found.placed) == len(rack) else None


class HoarderBot:
    """Opens as soon as it can, then draws until its whole rack can be laid in one play."""

    name = "hoarder"

    def __init__(self, seed: int = 0) -> None:
        del seed  # no choice is left to chance

    def choose(self, view: PlayerView) -> Action:
        return play_or_draw(view, _hold(view, own_rack(view)))


class LurkerBot:
    """Hoards like :class:`HoarderBot` until the pool is low or an opponent is close, then plays greedily."""

    name = "lurker"

    def __init__(self, seed: int = 0) -> None:
        del seed  # no choice is left to chance

    def choose(self, view: PlayerView) -> Action:
        assert view.seat is not None
        rack = own_rack(view)
        closest = min(size for seat, size in enumerate(view.rack_sizes) if seat != view.seat)
        if view.pool_size > LOW_POOL and closest > CLOSE_RACK:
            return play_or_draw(view, _hold(view, rack))
        if len(rack) > SOLVED_RACK:
            return play_or_draw(view, _going_out(view, rack) or SimpleBot().plan(view))
        found = _best(view, rack)
        return play_or_draw(view, None if found is None else found.table)


class RacerBot:
    """Never draws while it can play; of its best plays, the one that leaves the next turn the most to place."""

    name = "racer"

    def __init__(self, seed: int = 0) -> None:
        del seed  # no choice is left to chance

    def choose(self, view: PlayerView) -> Action:
        assert view.seat is not None
        rack = own_rack(view)
        melded = view.melded[view.seat]
        plays = candidates(
            rack, view.table, rules=view.rules, initial_meld_done=melded, k=RACER_PLAYS, fewest_changes=False
        )
        if not plays:
            return play_or_draw(view, None)
        if len(plays[0].placed) == len(rack):
            return play_or_draw(view, plays[0].table)

        def reach(play: Solution) -> tuple[int, int]:
            left = without(rack, play.placed)
            after = solve(left, play.table, rules=view.rules, initial_meld_done=True, fewest_changes=False)
            return len(play.placed) + (0 if after is None else len(after.placed)), len(play.placed)

        return play_or_draw(view, max(plays, key=reach).table)


class ShedderBot:
    """Every turn, the play that removes the most points from its rack."""

    name = "shedder"

    def __init__(self, seed: int = 0) -> None:
        del seed  # no choice is left to chance

    def choose(self, view: PlayerView) -> Action:
        found = _best(view, own_rack(view), objective="value")
        return play_or_draw(view, None if found is None else found.table)


@cache
def frozen_network(version: str = FROZEN_V1) -> PolicyNetwork:
    """A frozen version of the learned policy, shipped in the package (read once per process)."""
    with resources.as_file(resources.files(__package__).joinpath(version)) as path:
        return PolicyNetwork.load(path)
