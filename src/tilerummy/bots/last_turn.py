"""The seat's last turn of a round heads-up, the pool dry and the other's last turn still to come.

Under ``one_more_round`` a dry pool leaves each seat one more turn. When the
seat's comes first, the other seat moves once more and the round ends, with
the lowest rack winning unless someone goes out. Heads-up, the pool is empty,
so the tiles the seat cannot see are exactly the other's rack: what the other
can do with any table is known.

Laying every point it can is then wrong as often as right: with forty tiles
each, the seat's tiles on the table are usually what the other needs to lay
its whole rack. Holding everything is wrong too, when the seat's rack is worth
more than the other's. So the seat weighs passing, its plays of the most
points and of the most tiles, and the sets of its rack alone laid one at a
time while the other still could not go out onto them. For each it works out
the other's reply: going out if it can (a loss, paying what the seat holds);
else the play that removes the most points, which a player holding its tiles
makes on its last turn as well as one that lays them. It plays what wins
against that reply, then what wins if the other merely passes (as a pure
hoarder does), then what leaves it the fewest points.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..game import PlayerView
from ..melds import Meld, Table
from ..rules import PoolExhausted
from ..scoring import rack_value, score_round
from ..solver import Objective, solve
from ..tiles import Tile
from ._common import own_rack
from .network import DRAW, Candidate
from .partition import could_go_out
from .tempo import final_turn
from .worlds import unseen_tiles

#: Racks and tables of this many tiles or more go straight to the solver (see :meth:`_Ending.goes_out`).
QUICK_TEST_TILES = 56


def waits_to_go_out(view: PlayerView, seat: int) -> bool:
    """Whether the seat opened and has laid no tile since: it keeps its rack for one play that goes out."""
    return view.melded[seat] and sum(1 for action in view.history if action.seat == seat and action.kind == "play") == 1


def applies(view: PlayerView) -> bool:
    """Whether this is the seat's last turn heads-up, on a dry pool, with the other's last turn to come."""
    assert view.seat is not None
    return (
        len(view.rack_sizes) == 2
        and view.pool_size == 0
        and view.rules.pool_exhausted is PoolExhausted.ONE_MORE_ROUND
        and view.melded[view.seat]
        and not final_turn(view)
    )


@dataclass(frozen=True, slots=True)
class _Weighed:
    """A candidate and how it ends the round: whether it wins against the
    other's expected reply and against a pass, and the points it leaves."""

    candidate: Candidate
    wins: bool
    wins_if_passed: bool
    left_value: int

    @property
    def key(self) -> tuple[bool, bool, int]:
        return self.wins, self.wins_if_passed, -self.left_value


def last_turn_play(view: PlayerView, clock: Callable[[], float], deadline: float) -> Candidate:
    """The candidate to play (``DRAW`` to pass), weighed as the module says,
    as many as time allows before ``deadline`` on ``clock`` (passing and the
    play of the most points always)."""
    assert view.seat is not None and applies(view)
    seat = view.seat
    other = 1 - seat
    rack = own_rack(view)
    theirs = unseen_tiles(view)
    ending = _Ending(view, seat, other, theirs)
    weighed = [ending.weigh(DRAW, rack)]
    for objective in ("value", "tiles"):
        found = _play(rack, view.table, view, objective)
        if found is not None:
            weighed.append(ending.weigh(found, rack))
        if clock() >= deadline:
            return max(weighed, key=lambda item: item.key).candidate
    # The rack's own sets, the most points first, each laid beside the table
    # while the other still cannot go out onto the table so grown.
    alone = solve(rack, Table(()), rules=view.rules, initial_meld_done=True, objective="value", fewest_changes=False)
    melds = [] if alone is None else sorted(alone.table.melds, key=lambda meld: -meld.value)
    laid: list[Meld] = []
    placed: list[Tile] = []
    for meld in melds:
        if clock() >= deadline:
            break
        table = Table((*view.table.melds, *laid, meld))
        if ending.goes_out(table):
            continue
        laid.append(meld)
        placed.extend(meld.tiles)
        weighed.append(ending.weigh(Candidate(table, tuple(placed)), rack, goes_out=False))
    return max(weighed, key=lambda item: item.key).candidate


def _play(rack: Sequence[Tile], table: Table, view: PlayerView, objective: Objective) -> Candidate | None:
    found = solve(rack, table, rules=view.rules, initial_meld_done=True, objective=objective, fewest_changes=False)
    return None if found is None else Candidate(found.table, found.placed)


class _Ending:
    """The other's reply to a table, and who then wins the round."""

    def __init__(self, view: PlayerView, seat: int, other: int, theirs: list[Tile]) -> None:
        self.view = view
        self.seat = seat
        self.other = other
        self.theirs = theirs
        first = view.history[0].seat if view.history else seat
        assert first is not None
        self.order = [first, 1 - first]

    def goes_out(self, table: Table) -> bool:
        """Whether the other can lay its whole rack on ``table``."""
        melded = self.view.melded[self.other]
        tiles = len(self.theirs) + (sum(table.tiles().values()) if melded else 0)
        # The quick test says no sooner than the solver on small racks, and slows down on big ones.
        if tiles < QUICK_TEST_TILES and not could_go_out(self.theirs, table, self.view.rules, melded=melded):
            return False
        found = solve(self.theirs, table, rules=self.view.rules, initial_meld_done=melded, fewest_changes=False)
        return found is not None and len(found.placed) == len(self.theirs)

    def weigh(self, candidate: Candidate, rack: Sequence[Tile], *, goes_out: bool | None = None) -> _Weighed:
        """How ``candidate`` ends the round (``goes_out``: whether the other can go out onto it, if known)."""
        left = list((Counter(rack) - Counter(candidate.placed)).elements())
        value = rack_value(left, self.view.rules)
        if not left:
            return _Weighed(candidate, True, True, 0)
        table = self.view.table if candidate.table is None else candidate.table
        if self.goes_out(table) if goes_out is None else goes_out:
            return _Weighed(candidate, False, False, value)
        wins_if_passed = self._wins(left, self.theirs, opened=self.view.melded[self.other])
        melded = self.view.melded[self.other]
        shed = solve(
            self.theirs, table, rules=self.view.rules, initial_meld_done=melded, objective="value", fewest_changes=False
        )
        if shed is None:
            return _Weighed(candidate, wins_if_passed, wins_if_passed, value)
        kept = list((Counter(self.theirs) - Counter(shed.placed)).elements())
        return _Weighed(candidate, self._wins(left, kept, opened=True), wins_if_passed, value)

    def _wins(self, mine: list[Tile], theirs: list[Tile], *, opened: bool) -> bool:
        """Whether the seat wins the round with these racks left (``opened``: the other has melded by then)."""
        racks: list[list[Tile]] = [[], []]
        racks[self.seat], racks[self.other] = mine, theirs
        unmelded = {} if opened else {self.other: False}
        return score_round(racks, self.view.rules, unmelded=unmelded, turn_order=self.order).winner == self.seat
