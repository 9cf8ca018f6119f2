"""An adapter to the peer solver ``rummikub-solver`` 1.0.0 (PyPI), for cross-checks.

The peer models a play as integer counts: how many of each set of a fixed list
lie on the table after the play, which must use every table tile and some rack
tiles. It knows nothing of what a joker stands for. Its model differs from the
rules here in ways this adapter detects (see :func:`unsupported`):

* **Its list of sets is incomplete with jokers.** Runs of 3 may hold jokers
  anywhere, runs of 4 or 5 only inside (``R4 J R6 R7``, never ``R4 R5 R6 J``),
  longer runs are made of runs of 3 to 5, groups of 4 hold no joker. So it
  cannot lay a joker off on ``R5 R6 R7`` or on ``R5 B5 Y5``, nor hold a table
  set like ``R5 R6 R7 J`` or ``R5 B5 Y5 J`` unless the table's tiles can be
  arranged another way.
* **Table jokers move freely** (as ``joker_replacement=free``): it does not
  know the joker rule.
* **Initial meld**: it maximises the *numbered* tiles placed (jokers are not
  counted), and on a non-empty table it goes on to rearrange the table in the
  same turn (neither this project's default nor its ``initial_meld_lay_off``).
  A threshold must be 1 to 50. ``RuleSet.solve`` first checks the rack's
  numbers can reach the threshold, but sums each *distinct* number once
  (``K10 B10 Y10`` counts 10, so it finds no meld), and with a threshold of
  13 or less it skips the threshold; :func:`peer_solve` calls the peer's own
  MILP directly instead.
* **No wrap**, and at most 2 jokers per model here (the six-player set's 4
  jokers would let it build sets of three jokers, which are not sets here).

So the peer's tile count is not always the true optimum. This adapter reports
it only when it is certified: the peer's table must be legal here (checked by
:func:`tilerummy.legality.judge_play`, over every way to read its jokers), and
its count must reach an upper bound on the optimum. The bound is the most
*numbered* rack tiles the peer's sets can hold when every joker (rack or
table) is optional, plus the rack's jokers: any legal play becomes a play of
the peer's sets by taking out some jokers (a joker at the end of a run of 4,
a joker in a group of 4, ...), which keeps every numbered tile. For an initial
meld the bound also lets each joker taken out count 13 towards the threshold.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import rummikub_solver as peer
from scipy.optimize import Bounds, LinearConstraint, milp  # type: ignore[import-untyped]

from tilerummy import COLOURS, IllegalPlay, InvalidMeld, Meld, Rules, Table, Tile
from tilerummy.legality import judge_play
from tilerummy.melds import Token, read_meld
from tilerummy.tiles import JOKER, MAX_NUMBER, Colour

PEER_VERSION = "1.0.0"

#: Our colours in the peer's (its first four colours are black, blue, orange, red).
PEER_COLOURS: dict[Colour, peer.Colour] = {
    Colour.RED: peer.Colour.RED,
    Colour.BLUE: peer.Colour.BLUE,
    Colour.YELLOW: peer.Colour.ORANGE,
    Colour.BLACK: peer.Colour.BLACK,
}

#: Jokers the peer's model is built with; positions with more are not expressible.
PEER_JOKERS = 2

#: The most readings of the peer's table tried against the rules.
MAX_READINGS = 4096


@dataclass(frozen=True)
class PeerModel:
    """One peer rule set and the tables that translate its tiles."""

    ruleset: peer.RuleSet
    to_peer: Mapping[Tile, peer.Tile]
    from_peer: Mapping[int, Tile]
    #: membership[t, s]: how many of tile index t (peer tile - 1) set s holds.
    membership: npt.NDArray[np.int64]
    #: The peer's value of each set for an initial meld (the best reading of its jokers).
    set_values: npt.NDArray[np.int64]

    @property
    def joker_index(self) -> int:
        return int(self.to_peer[JOKER]) - 1

    def counts(self, tiles: Sequence[Tile]) -> npt.NDArray[np.int64]:
        """Tile counts indexed like the peer's tiles (peer tile - 1)."""
        result = np.zeros(self.ruleset.tile_count, dtype=np.int64)
        for tile in tiles:
            result[int(self.to_peer[tile]) - 1] += 1
        return result


@functools.cache
def peer_model(repeats: int = 2, min_initial_value: int = 30) -> PeerModel:
    """The peer's model of a 13-number, 4-colour set with ``repeats`` copies and 2 jokers."""
    if peer.__version__ != PEER_VERSION:
        raise RuntimeError(f"this adapter was written against rummikub-solver {PEER_VERSION}, not {peer.__version__}")
    ruleset = peer.RuleSet(repeats=repeats, jokers=PEER_JOKERS, min_initial_value=min_initial_value)
    to_peer: dict[Tile, peer.Tile] = {}
    for tile in ruleset.tiles:
        if isinstance(tile, peer.Number):
            colour = next(ours for ours, theirs in PEER_COLOURS.items() if theirs is tile.colour)
            to_peer[Tile(colour, tile.value)] = tile
        else:
            assert isinstance(tile, peer.Joker)
            to_peer[JOKER] = tile
    assert len(to_peer) == 13 * len(COLOURS) + 1, "unexpected peer tile list"
    from_peer = {int(theirs): ours for ours, theirs in to_peer.items()}
    membership = np.zeros((ruleset.tile_count, len(ruleset.sets)), dtype=np.int64)
    for index, tiles in enumerate(ruleset.sets):
        for tile in tiles:
            membership[int(tile) - 1, index] += 1
    values = np.array(ruleset.set_values, dtype=np.int64)
    return PeerModel(ruleset, to_peer, from_peer, membership, values)


def model_for(rules: Rules, *, initial_meld_done: bool) -> PeerModel:
    threshold = 30 if initial_meld_done else rules.meld_threshold
    return peer_model(rules.tile_set.copies, threshold)


def _wrap_may_matter(tiles: Counter[Tile], rules: Rules) -> bool:
    """Whether a run ending ... 13-1 could use these tiles in a way no plain run can.

    Such a run holds a real 1 and a real tile of its colour numbered
    13 - (jokers) or more (the places above it up to 13 being jokers); a
    wrapped 1 that is a joker reads the same as the run one lower.
    """
    if not rules.wrap:
        return False
    jokers = tiles[JOKER]
    for colour in COLOURS:
        if tiles[Tile(colour, 1)] and any(tiles[Tile(colour, n)] for n in range(max(2, MAX_NUMBER - jokers), 14)):
            return True
    return False


def unsupported(rack: Sequence[Tile], table: Table, rules: Rules, *, initial_meld_done: bool) -> str | None:
    """Why the peer's model cannot express this position, or None if it can."""
    tiles = table.tiles() + Counter(rack)
    if tiles[JOKER] > PEER_JOKERS:
        return f"{tiles[JOKER]} jokers in play (the peer's sets hold at most {PEER_JOKERS} here)"
    over = [tile for tile, count in tiles.items() if not tile.is_joker and count > rules.tile_set.copies]
    if over:
        return f"{over[0]} appears more often than the tile set holds"
    if _wrap_may_matter(tiles, rules):
        return "wrap may matter (the peer has no 13-1 runs)"
    if not initial_meld_done:
        if not 1 <= rules.meld_threshold <= 50:
            return f"initial meld threshold {rules.meld_threshold} (the peer takes 1 to 50)"
        if rules.initial_meld_lay_off and table.melds:
            return "initial_meld_lay_off (the peer rearranges the table in the same turn)"
        return None
    model = model_for(rules, initial_meld_done=True)
    if table.melds and _best_numbered(model, [], table, jokers_optional=False) is None:
        return "the table cannot be written with the peer's sets"
    return None


def peer_state(model: PeerModel, rack: Sequence[Tile], table: Table, *, initial_meld_done: bool) -> peer.GameState:
    """The peer's game state; an initial meld is solved on the rack alone (the table is left as it is)."""
    state = model.ruleset.new_game()
    if initial_meld_done:
        state.add_table(*(model.to_peer[tile] for tile in table.tiles().elements()))
    state.add_rack(*(model.to_peer[tile] for tile in rack))
    state.initial = not initial_meld_done
    return state


@dataclass(frozen=True)
class PeerPlay:
    """The peer's proposal in our tiles: the rack tiles it places and the sets it
    forms (all table sets once melded; only the new sets for an initial meld)."""

    placed: tuple[Tile, ...]
    sets: tuple[tuple[Tile, ...], ...]


def peer_solve(model: PeerModel, state: peer.GameState) -> PeerPlay:
    """The peer's own search (what a benchmark times).

    Once melded: ``RuleSet.solve`` in tile-count mode. For an initial meld the
    peer's own MILP in its initial mode is called directly, because
    ``RuleSet.solve`` first rejects racks whose *distinct* numbers sum below the
    threshold (it counts ``K10 B10 Y10`` as 10), a bug in 1.0.0.
    """
    if state.initial:
        raw = model.ruleset._solver(peer.SolverMode.INITIAL, state)
        placed, sets = raw.tiles, [model.ruleset.sets[index] for index in raw.set_indices]
    else:
        proposal = model.ruleset.solve(state, peer.SolverMode.TILE_COUNT)
        placed, sets = (proposal.tiles, list(proposal.sets)) if proposal is not None else ((), [])
    return PeerPlay(
        tuple(model.from_peer[int(tile)] for tile in placed),
        tuple(tuple(model.from_peer[int(tile)] for tile in tiles) for tiles in sets),
    )


def _best_numbered(
    model: PeerModel,
    rack: Sequence[Tile],
    table: Table,
    *,
    jokers_optional: bool,
    threshold: int | None = None,
) -> int | None:
    """Most numbered rack tiles the peer's sets can hold with every table tile
    (table jokers only if not ``jokers_optional``), or None if infeasible.

    With ``threshold`` (an initial meld: the table is left out), the sets'
    values plus 13 for each rack joker left out must reach it.
    """
    table_counts = model.counts(list(table.tiles().elements()))
    rack_counts = model.counts(list(rack))
    joker = model.joker_index
    if jokers_optional:
        rack_counts[joker] += table_counts[joker]
        table_counts[joker] = 0
    sets, tiles = model.membership.shape[1], model.ruleset.tile_count
    weights = np.ones(tiles)
    weights[joker] = 0
    objective = np.concatenate([np.zeros(sets), -weights])
    # membership @ x - y == table
    constraints = [LinearConstraint(np.hstack([model.membership, -np.eye(tiles)]), table_counts, table_counts)]
    if threshold is not None:
        row = np.concatenate([model.set_values.astype(float), np.zeros(tiles)])
        row[sets + joker] = -MAX_NUMBER
        constraints.append(LinearConstraint(row, threshold - MAX_NUMBER * rack_counts[joker], np.inf))
    lower = np.zeros(sets + tiles)
    upper = np.concatenate([np.full(sets, model.ruleset.repeats), rack_counts]).astype(float)
    result: Any = milp(
        objective, constraints=constraints, bounds=Bounds(lower, upper), integrality=np.ones(sets + tiles)
    )
    if result.status != 0:
        return None
    return round(-float(result.fun))


def upper_bound(rack: Sequence[Tile], table: Table, rules: Rules, *, initial_meld_done: bool) -> int:
    """An upper bound on the most rack tiles any legal play places (see the module's notes)."""
    model = model_for(rules, initial_meld_done=initial_meld_done)
    jokers = sum(1 for tile in rack if tile.is_joker)
    if initial_meld_done:
        numbered = _best_numbered(model, rack, table, jokers_optional=True)
    else:
        numbered = _best_numbered(model, rack, Table(), jokers_optional=True, threshold=rules.meld_threshold)
        if numbered is None:
            return 0  # not even the relaxed meld reaches the threshold
    if numbered is None:  # the table cannot be arranged at all: no legal play
        return 0
    return min(len(rack), numbered + jokers)


def readings(tiles: Sequence[Tile], *, wrap: bool) -> list[Meld]:
    """Every distinct set these tiles form, over every order they can be written in."""
    found: set[Meld] = set()
    for order in set(itertools.permutations(tiles)):
        with contextlib.suppress(InvalidMeld):
            found.add(Meld.from_tiles(order, wrap=wrap))
    numbered = [tile for tile in tiles if not tile.is_joker]
    if numbered and len({tile.number for tile in numbered}) == 1:
        present = {tile.colour for tile in numbered}
        missing = [Tile(colour, numbered[0].number) for colour in COLOURS if colour not in present]
        hinted = [Token(tile) for tile in numbered] + [Token(JOKER, hint) for hint in missing]
        with contextlib.suppress(InvalidMeld):
            found.add(read_meld(hinted[: len(tiles)], wrap=wrap))
    return sorted(found, key=str)


def legal_reading(
    sets: Sequence[Sequence[Tile]],
    before: Table,
    rack: Sequence[Tile],
    rules: Rules,
    *,
    initial_meld_done: bool,
) -> Table | None:
    """A way to read these sets (what each joker stands for) that makes a legal play, or None."""
    options = [readings(tiles, wrap=rules.wrap) for tiles in sets]
    if any(not choices for choices in options):
        return None
    kept = () if initial_meld_done else before.melds

    def tables() -> Iterator[Table]:
        for count, melds in enumerate(itertools.product(*options)):
            if count >= MAX_READINGS:
                return
            yield Table((*kept, *melds))

    for after in tables():
        try:
            judge_play(before, after, rack, rules, melded=initial_meld_done)
        except IllegalPlay:
            continue
        return after
    return None


@dataclass(frozen=True)
class PeerAnswer:
    """What the peer proposes, and whether its tile count is certified optimal here."""

    placed: tuple[Tile, ...]
    #: Its table read legally under our rules, or None when no reading is legal.
    table: Table | None
    #: A proven bound on the most tiles any legal play places.
    bound: int

    @property
    def exact(self) -> bool:
        legal = self.table is not None or not self.placed
        return legal and len(self.placed) == self.bound


def peer_answer(rack: Sequence[Tile], table: Table, rules: Rules, *, initial_meld_done: bool) -> PeerAnswer | None:
    """The peer's play and its certificate, or None when its model cannot express the position."""
    if unsupported(rack, table, rules, initial_meld_done=initial_meld_done) is not None:
        return None
    model = model_for(rules, initial_meld_done=initial_meld_done)
    play = peer_solve(model, peer_state(model, rack, table, initial_meld_done=initial_meld_done))
    bound = upper_bound(rack, table, rules, initial_meld_done=initial_meld_done)
    if not play.placed:
        return PeerAnswer((), None, bound)
    after = legal_reading(play.sets, table, rack, rules, initial_meld_done=initial_meld_done)
    return PeerAnswer(play.placed, after, bound)


def peer_max_tiles(rack: list[Tile], table: Table, rules: Rules, *, initial_meld_done: bool) -> int | None:
    """How many rack tiles the peer places (0: no play), when that is certified
    to be the optimum under these rules; None when its model cannot express
    the position or its answer may differ from the optimum."""
    answer = peer_answer(rack, table, rules, initial_meld_done=initial_meld_done)
    if answer is None or not answer.exact:
        return None
    return len(answer.placed)
