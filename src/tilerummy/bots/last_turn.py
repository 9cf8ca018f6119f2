"""The seat's last turn of a round on a dry pool, with others' last turns still to come.

Under ``one_more_round`` a dry pool leaves each seat one more turn, and then
the lowest rack wins unless someone went out. On the seat's last turn, the
seats still to move each have one turn left too. Laying every point it can
is then wrong as often as right: a table grown by its tiles is often what a
later seat needs to lay its whole rack. Holding everything is wrong too,
when the seat's rack is worth more than what the others will keep.

So the seat weighs passing, its plays of the most points and of the most
tiles, and its next best plays of the most points; heads-up, also the sets
of its rack alone laid one at a time while the other still could not go
out onto them. For each it works out the later seats' replies, in turn: a
seat that can lay its whole rack goes out (a loss, paying what the seat
holds); any other lays its most points, which a player holding its tiles
makes on its last turn as well as one that lays them. It plays what wins
against those replies most often, then what wins most often if the others
merely pass (as a pure hoarder does), then what leaves it the fewest points.

Heads-up, the pool being empty, the tiles the seat cannot see are exactly
the other's rack, so the replies are known. With more players the unseen
tiles are dealt to the later seats in a few guessed worlds (:mod:`.worlds`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..game import PlayerView
from ..melds import Meld, Table
from ..rules import PoolExhausted
from ..scoring import rack_value, score_round
from ..solver import Objective, candidates, solve
from ..tiles import Tile
from ._common import own_rack
from .network import DRAW, Candidate
from .partition import QUICK_TILES, could_go_out
from .worlds import EVIDENCE_STRENGTH, deal_world, evidence, unseen_tiles

#: The guessed worlds the later seats' racks are dealt in, with three players or more.
WORLDS = 6

#: The plays of the most points weighed (the best one included).
VALUE_PLAYS = 3


def waits_to_go_out(view: PlayerView, seat: int) -> bool:
    """Whether the seat opened and has laid no tile since: it keeps its rack for one play that goes out."""
    return view.melded[seat] and sum(1 for action in view.history if action.seat == seat and action.kind == "play") == 1


def turns_left(view: PlayerView) -> int | None:
    """With the pool dry before this move, the turns after it until the round
    ends (each seat's one more turn since the last draw); None while the pool holds tiles."""
    if view.pool_size or view.rules.pool_exhausted is not PoolExhausted.ONE_MORE_ROUND:
        return None
    since = 0
    for action in reversed(view.history):
        if action.kind == "draw":
            break
        since += 1
    return max(0, len(view.rack_sizes) - since - 1)


def lowest_seat(racks: Sequence[Counter[Tile]], melded: Sequence[bool], view: PlayerView) -> int:
    """The seat that wins a round ended on a dry pool, as the round is scored (:func:`.scoring.score_round`)."""
    players = len(racks)
    first = view.history[0].seat if view.history else view.seat
    assert first is not None
    order = [(first + step) % players for step in range(players)]
    unmelded = {seat: False for seat in range(players) if not melded[seat]}
    tiles = [list(rack.elements()) for rack in racks]
    return score_round(tiles, view.rules, unmelded=unmelded, turn_order=order).winner


def goes_out(view: PlayerView, seat: int, rack: Counter[Tile], table: Table) -> bool:
    """Whether the seat could lay the whole of ``rack`` on ``table`` (by the solver, exact)."""
    tiles = list(rack.elements())
    melded = view.melded[seat]
    size = len(tiles) + (sum(table.tiles().values()) if melded else 0)
    # The quick test says no sooner than the solver on small racks, and slows down on big ones.
    if size < QUICK_TILES and not could_go_out(tiles, table, view.rules, melded=melded):
        return False
    found = solve(tiles, table, rules=view.rules, initial_meld_done=melded, fewest_changes=False)
    return found is not None and len(found.placed) == len(tiles)


def own_sets(view: PlayerView, rack: Sequence[Tile]) -> list[Meld]:
    """The sets of the rack's own play of the most points (the table left
    out), the most points first: each can be laid beside the table alone."""
    alone = solve(
        list(rack), Table(()), rules=view.rules, initial_meld_done=True, objective="value", fewest_changes=False
    )
    return [] if alone is None else sorted(alone.table.melds, key=lambda meld: -meld.value)


def applies(view: PlayerView) -> bool:
    """Whether this is the seat's last turn on a dry pool, with others' last turns to come."""
    assert view.seat is not None
    # On the round's final turn (:func:`.tempo.final_turn`) no turns are left after it.
    return view.melded[view.seat] and bool(turns_left(view))


@dataclass(slots=True)
class _Weighed:
    """A candidate and, over the worlds weighed so far, how often it wins
    against the later seats' replies and if they pass, and the points it leaves."""

    candidate: Candidate
    left: Counter[Tile]
    left_value: int
    wins: int = 0
    wins_if_passed: int = 0

    @property
    def key(self) -> tuple[int, int, int]:
        return self.wins, self.wins_if_passed, -self.left_value


def last_turn_play(
    view: PlayerView, clock: Callable[[], float], deadline: float, rng: random.Random | None = None
) -> Candidate:
    """The candidate to play (``DRAW`` to pass), weighed as the module says,
    in as many worlds as time allows before ``deadline`` on ``clock`` (one at
    least; heads-up, the one there is). ``rng`` deals the worlds."""
    assert view.seat is not None and applies(view)
    rack = own_rack(view)
    unseen = unseen_tiles(view)
    heads_up = len(view.rack_sizes) == 2
    options = [DRAW]
    plays: tuple[tuple[Objective, int], ...] = (("value", VALUE_PLAYS), ("tiles", 1))
    for objective, count in plays:
        found = candidates(
            rack,
            view.table,
            rules=view.rules,
            initial_meld_done=True,
            k=count,
            objective=objective,
            fewest_changes=False,
        )
        options.extend(Candidate(play.table, play.placed) for play in found)
    weighed = _unique(options, rack, view)
    if heads_up:
        racks = [Counter[Tile]() for _ in range(2)]
        racks[1 - view.seat] = Counter(unseen)
        ending = _Ending(view, racks)
        for item in weighed:
            ending.weigh(item)
        weighed.extend(_laid_alone(view, rack, ending, clock, deadline))
        return max(weighed, key=lambda item: item.key).candidate
    rng = rng or random.Random(0)
    clues = evidence(view)
    for number in range(WORLDS):
        if number and clock() >= deadline:
            break
        ending = _Ending(view, deal_world(view, unseen, clues, rng, strength=EVIDENCE_STRENGTH).racks)
        for item in weighed:
            ending.weigh(item)
    return max(weighed, key=lambda item: item.key).candidate


def _unique(options: list[Candidate], rack: list[Tile], view: PlayerView) -> list[_Weighed]:
    found: dict[tuple[Tile, ...], _Weighed] = {}
    for option in options:
        left = Counter(rack) - Counter(option.placed)
        found.setdefault(tuple(sorted(option.placed)), _Weighed(option, left, rack_value(left.elements(), view.rules)))
    return list(found.values())


def _laid_alone(
    view: PlayerView, rack: list[Tile], ending: _Ending, clock: Callable[[], float], deadline: float
) -> list[_Weighed]:
    """Heads-up: the rack's own sets, the most points first, each laid beside
    the table while the other still cannot go out onto the table so grown."""
    melds = own_sets(view, rack)
    laid: list[Meld] = []
    placed: list[Tile] = []
    found = []
    for meld in melds:
        if clock() >= deadline:
            break
        table = Table((*view.table.melds, *laid, meld))
        if ending.anyone_goes_out(table):
            continue
        laid.append(meld)
        placed.extend(meld.tiles)
        item = _unique([Candidate(table, tuple(placed))], rack, view)[0]
        ending.weigh(item, safe=True)
        found.append(item)
    return found


class _Ending:
    """The later seats' replies to a table in one world (their racks), and who then wins the round."""

    def __init__(self, view: PlayerView, racks: Sequence[Counter[Tile]]) -> None:
        assert view.seat is not None
        self.view = view
        self.racks = racks
        players = len(view.rack_sizes)
        after = turns_left(view) or 0
        self.later = [(view.seat + step) % players for step in range(1, after + 1)]

    def anyone_goes_out(self, table: Table) -> bool:
        """Whether a later seat could go out onto ``table`` as it is."""
        return any(goes_out(self.view, seat, self.racks[seat], table) for seat in self.later)

    def weigh(self, item: _Weighed, *, safe: bool = False) -> None:
        """Add this world's outcome of the candidate: against the replies, and
        if the others pass (``safe``: no later seat can go out onto its table as it is)."""
        view = self.view
        assert view.seat is not None
        if not item.left:
            item.wins += 1
            item.wins_if_passed += 1
            return
        table = view.table if item.candidate.table is None else item.candidate.table
        racks = [Counter(rack) for rack in self.racks]
        racks[view.seat] = item.left
        melded = list(view.melded)
        if not safe and self.anyone_goes_out(table):
            return
        item.wins_if_passed += lowest_seat(racks, melded, view) == view.seat
        changed = False  # whether a later seat laid tiles: the table is no longer the one tested
        for seat in self.later:
            if changed and goes_out(view, seat, racks[seat], table):
                return
            tiles = list(racks[seat].elements())
            shed = solve(
                tiles, table, rules=view.rules, initial_meld_done=melded[seat], objective="value", fewest_changes=False
            )
            if shed is not None:
                racks[seat] -= Counter(shed.placed)
                table = shed.table
                melded[seat] = changed = True
        item.wins += lowest_seat(racks, melded, view) == view.seat
