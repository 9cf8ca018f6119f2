"""When holding tiles stops paying: race an opponent who holds as many.

The learned policy (:mod:`.network`, :mod:`.hard`) holds its tiles while the
others empty their racks, then lays them all onto the table they built. That
wins only while someone else builds the table. Against a player who holds
its tiles too (a hoarder, or the policy itself), nobody builds it: both draw
until the pool is dry, and the lowest rack wins by the luck of the deal.

So once every opponent holds :data:`HOARD_RACK` tiles or more (they have drawn
far more than they laid), a :class:`Tempo` player stops holding: each turn
the policy would draw, it makes the play that places the most tiles instead;
once the pool holds :data:`LOW_POOL` tiles or fewer, the play that removes the
most points, since a dry pool is won by the lowest rack. Against opponents who empty
their racks it holds its tiles, as the policy learned to. A patient
:class:`Tempo` (:data:`PATIENT_RACK`, :data:`PATIENCE`) waits until every
opponent holds more and has drawn turn after turn: against a quicker racer
it keeps holding while the racer builds the table, and goes out onto it.
A wary :class:`Tempo` (``spare_waiting``, the league's ``wary``) stops racing
an opponent who let its race go by (:func:`ignores_race`): one that opened,
has laid nothing since and drew while the wary player laid tiles waits to go
out onto them, as a hoarder does, and is left a dry pool to lose instead.

On the round's last turn (:func:`final_turn`: it drew the pool's last tile
and everyone else has had their one more turn) a lay down cannot help
anyone else, so it lays the most points it can, whoever the others are.
"""

from __future__ import annotations

from typing import Protocol

from ..game import Action, PlayerView
from ..rules import PoolExhausted
from ..scoring import rack_value
from ._common import own_rack, play_or_draw
from ._positions import best_play
from .last_turn import waits_to_go_out
from .network import Candidate
from .worlds import unseen_tiles

#: Opponents holding this many tiles or more are holding theirs too.
HOARD_RACK = 18

#: A patient player (the network level) waits longer before it races: until every opponent holds
#: this many tiles or more and drew on each of its last :data:`PATIENCE` turns.
PATIENT_RACK = 24
PATIENCE = 3

#: With this many tiles or fewer left to draw, a race sheds points rather than tiles.
LOW_POOL = 12


class Planner(Protocol):
    """What :class:`Tempo` wraps: a bot that says what it would play (its table None: draw)."""

    name: str

    def plan(self, view: PlayerView) -> Candidate: ...


def hoarding(view: PlayerView, rack: int = HOARD_RACK, patience: int = 0) -> bool:
    """Whether every opponent holds ``rack`` tiles or more, and drew (or passed)
    on each of its last ``patience`` turns."""
    assert view.seat is not None
    others = [seat for seat in range(len(view.rack_sizes)) if seat != view.seat]
    if any(view.rack_sizes[seat] < rack for seat in others):
        return False
    if patience <= 0:
        return True
    for seat in others:
        turns = [action for action in view.history if action.seat == seat][-patience:]
        if len(turns) < patience or any(action.kind not in ("draw", "pass") for action in turns):
            return False
    return True


def ignores_race(view: PlayerView, seat: int) -> bool:
    """Whether the opponent waits to go out (it opened and laid nothing since,
    :func:`.last_turn.waits_to_go_out`) though the viewing seat laid tiles after
    its last play: it let that play go by, holding for one that lays its whole rack."""
    if not waits_to_go_out(view, seat):
        return False
    last = max(index for index, action in enumerate(view.history) if action.seat == seat and action.kind == "play")
    return any(action.seat == view.seat and action.kind == "play" for action in view.history[last + 1 :])


def projected_deficit(view: PlayerView) -> float:
    """How many points the seat's rack is worth above the lowest rack an
    opponent is expected to hold (its size times the mean value of the tiles
    the seat cannot see): above 0, a dry pool would go to someone else."""
    assert view.seat is not None
    unseen = unseen_tiles(view)
    mean = rack_value(unseen, view.rules) / len(unseen) if unseen else 0.0
    others = [size for seat, size in enumerate(view.rack_sizes) if seat != view.seat]
    return rack_value(own_rack(view), view.rules) - min(others) * mean


def last_word(view: PlayerView) -> bool:
    """Whether the seat would have the round's last turn (:func:`final_turn`) if
    everyone drew from now on: it would draw the pool's last tile. Laying tiles
    instead of drawing once hands that turn to another seat."""
    assert view.seat is not None
    if view.rules.pool_exhausted is not PoolExhausted.ONE_MORE_ROUND or not view.pool_size:
        return False
    return (view.pool_size - 1) % len(view.rack_sizes) == 0


def takes_last_word(view: PlayerView) -> bool:
    """Whether laying tiles now instead of drawing would give the seat the
    last word (:func:`last_word`): with everyone drawing from then on, it
    would draw the pool's last tile."""
    if view.rules.pool_exhausted is not PoolExhausted.ONE_MORE_ROUND or not view.pool_size:
        return False
    return view.pool_size % len(view.rack_sizes) == 0


def final_turn(view: PlayerView) -> bool:
    """Whether this is the round's last turn, every other player's done: the
    seat drew the pool's last tile, and under ``one_more_round`` the others
    have had their one more turn since. Whatever it lays now, nobody can use."""
    assert view.seat is not None
    if view.pool_size or view.rules.pool_exhausted is not PoolExhausted.ONE_MORE_ROUND:
        return False
    mine = [index for index, action in enumerate(view.history) if action.seat == view.seat]
    if not mine or view.history[mine[-1]].kind != "draw":
        return False
    # Its draw took the last tile if nobody drew since.
    return all(action.kind != "draw" for action in view.history[mine[-1] + 1 :])


def racing_play(view: PlayerView) -> Candidate | None:
    """The play a racer makes: the most tiles, or, with the pool nearly dry, the most points."""
    assert view.seat is not None
    # Remembered: the play of the most tiles is the one the wrapped player just weighed.
    found = best_play(
        own_rack(view),
        view.table,
        view.rules,
        melded=view.melded[view.seat],
        objective="value" if view.pool_size <= LOW_POOL else "tiles",
    )
    return None if found is None else Candidate(found.table, found.placed)


class Tempo:
    """The wrapped player's choice, except that it races opponents who hold their tiles.

    ``rack`` and ``patience`` say when an opponent holds its tiles (:func:`hoarding`);
    ``spare_waiting`` stops the race against an opponent who let it go by (:func:`ignores_race`).
    """

    def __init__(
        self, inner: Planner, *, rack: int = HOARD_RACK, patience: int = 0, spare_waiting: bool = False
    ) -> None:
        self.inner = inner
        self.name = inner.name
        self.rack = rack
        self.patience = patience
        self.spare_waiting = spare_waiting

    def choose(self, view: PlayerView) -> Action:
        return play_or_draw(view, self.plan(view).table)

    def plan(self, view: PlayerView) -> Candidate:
        if final_turn(view):
            raced = racing_play(view)
            if raced is not None:
                return raced
        chosen = self.inner.plan(view)
        if chosen.table is not None or not hoarding(view, self.rack, self.patience):
            return chosen
        assert view.seat is not None
        if self.spare_waiting and any(
            ignores_race(view, seat) for seat in range(len(view.rack_sizes)) if seat != view.seat
        ):
            return chosen
        raced = racing_play(view)
        return chosen if raced is None else raced
