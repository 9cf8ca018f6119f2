"""The exact end game: once the bot's own rack is small, the chance that
matters most is its own next draw, and that chance can be counted exactly.

Every tile the bot cannot see (the others' racks and the pool) is, from where
it sits, as likely as any other to be the next it draws, so a drawn tile of
each kind comes with the number of its unseen copies (jokers included) over
all the unseen tiles. For each candidate play the bot counts, kind by kind,
the draws after which its whole rack can be laid:

- drawing now: the rack with the drawn tile, on the table as it is, at its
  next turn;
- a play that leaves a rack which the table it leaves already takes: sure,
  at its next turn;
- any other play: the rack it leaves with the tile drawn at its next turn,
  on the table it leaves, at the turn after.

The assumption is that the others only add to the table: what could be laid
on the table the bot leaves can still be laid when its turn comes back.
Each candidate is credited with one draw, no more: drawing's chances on
later turns are not counted, which leans towards playing when the chances
are close.

Meanwhile an opponent may go out first. The chance of that in one round is
guessed from a few worlds dealt as the search deals them (:mod:`.worlds`):
the share of them in which an opponent holding few tiles could lay all of
them on the table as it is now. A chance that comes one round later counts for that much
less: the candidate worth the most is played, the fewest tiles left and the
earlier candidate (the network's choice first) breaking ties. When no
candidate has any chance the count has nothing to say, and the bot searches
as it otherwise would.
"""

from __future__ import annotations

import operator
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..game import PlayerView
from ..melds import Table
from ..rules import Rules
from ..solver import solve
from ..tiles import Tile
from ._common import own_rack
from .network import Candidate
from .worlds import EVIDENCE_STRENGTH, deal_world, evidence

#: Opponents holding more tiles than this are taken not to go out in one turn.
THREAT_RACK = 6


class OutOfTime(Exception):
    """The budget ran out before the count was finished."""


class RackFits:
    """Whether a whole rack can be laid on a table, each answer remembered for the move."""

    def __init__(self, rules: Rules, clock: Callable[[], float], deadline: float) -> None:
        self._rules = rules
        self._clock = clock
        self._deadline = deadline
        self._known: dict[tuple[tuple[Tile, ...], Table, bool], bool] = {}
        #: How many times the solver was asked (for benchmarks and tests).
        self.solves = 0

    def __call__(self, rack: Sequence[Tile], table: Table, *, melded: bool) -> bool:
        key = (tuple(sorted(rack, key=_ORDER)), table, melded)
        known = self._known.get(key)
        if known is not None:
            return known
        if self._clock() >= self._deadline:
            raise OutOfTime
        self.solves += 1
        found = solve(list(key[0]), table, rules=self._rules, initial_meld_done=melded, fewest_changes=False)
        fits = found is not None and len(found.placed) == len(rack)
        self._known[key] = fits
        return fits


def draw_chance(
    rack: Sequence[Tile],
    table: Table,
    unseen: Counter[Tile],
    fits: RackFits,
    *,
    melded: bool,
    at_least: Fraction = Fraction(0),
) -> Fraction | None:
    """The exact chance that ``rack`` with one tile drawn from ``unseen`` can all be laid on
    ``table``; None as soon as it cannot reach ``at_least`` (a count that cannot matter stops)."""
    total = sum(unseen.values())
    if not total:
        return None if at_least > 0 else Fraction(0)
    hits = 0
    still = total
    for tile in sorted(unseen, key=_ORDER):
        still -= unseen[tile]
        if fits([*rack, tile], table, melded=melded):
            hits += unseen[tile]
        if Fraction(hits + still, total) < at_least:
            return None
    return Fraction(hits, total)


@dataclass(frozen=True, slots=True)
class Outlook:
    """A candidate's chance of going out, and in how many rounds that chance comes."""

    chance: Fraction
    rounds: int
    left: int  # tiles it leaves on the rack

    def worth(self, threat: Fraction) -> Fraction:
        """The chance, less the rounds in which an opponent may go out first."""
        return self.chance * (1 - threat) ** self.rounds


def threat(
    view: PlayerView,
    unseen: list[Tile],
    rng: random.Random,
    fits: RackFits,
    worlds: int,
    strength: float = EVIDENCE_STRENGTH,
) -> Fraction:
    """The share of ``worlds`` guessed worlds in which some opponent holding
    at most :data:`THREAT_RACK` tiles could lay all of them on the table now."""
    assert view.seat is not None
    near = [seat for seat, size in enumerate(view.rack_sizes) if seat != view.seat and size <= THREAT_RACK]
    if not near or worlds < 1:
        return Fraction(0)
    clues = evidence(view)
    out = 0
    for _ in range(worlds):
        world = deal_world(view, unseen, clues, rng, strength=strength)
        out += any(fits(list(world.racks[seat].elements()), view.table, melded=view.melded[seat]) for seat in near)
    return Fraction(out, worlds)


def best_ending(
    view: PlayerView,
    options: Sequence[Candidate],
    unseen: Sequence[Tile],
    fits: RackFits,
    threat_now: Fraction,
) -> tuple[int, list[Outlook | None]] | None:
    """The index of the candidate worth the most, and each candidate's outlook
    (None where its count stopped, unable to catch up); None when no candidate
    has any chance. :raises OutOfTime: when ``fits`` runs out of time."""
    assert view.seat is not None
    rack = Counter(own_rack(view))
    kinds = Counter(unseen)
    melded = view.melded[view.seat]
    # The best so far: its worth, its tiles left and its index, compared in that order.
    best: tuple[Fraction, int, int] | None = None
    outlooks: list[Outlook | None] = []
    for index, option in enumerate(options):
        left = list((rack - Counter(option.placed)).elements())
        playing = option.table is not None
        table = option.table if option.table is not None else view.table
        outlook: Outlook | None
        if not left:
            outlook = Outlook(Fraction(1), 0, 0)
        elif playing and fits(left, table, melded=True):
            outlook = Outlook(Fraction(1), 1, len(left))
        elif view.pool_size:
            rounds = 2 if playing else 1
            # What it must reach, before the rounds' discount, to catch up with the best so far.
            discount = (1 - threat_now) ** rounds
            needed = best[0] / discount if best is not None and discount else Fraction(0)
            chance = draw_chance(left, table, kinds, fits, melded=melded or playing, at_least=needed)
            outlook = None if chance is None else Outlook(chance, rounds, len(left))
        else:
            outlook = Outlook(Fraction(0), 1, len(left))
        outlooks.append(outlook)
        if outlook is not None:
            worth = outlook.worth(threat_now)
            if best is None or (worth, -outlook.left) > (best[0], -best[1]):
                best = (worth, outlook.left, index)
    if best is None or best[0] == 0:
        return None
    return best[2], outlooks


_ORDER = operator.attrgetter("sort_key")
