"""The layer search of :mod:`._layers` on NumPy arrays, for crowded tables.

Same states, same choices, same answers: each state is packed into one
64-bit integer (each colour's open runs, jokers used, the tiles sent to this
number's groups, the 1s kept back), and a whole step is a few array
operations instead of a loop over states. Worth it once the states number
in the thousands, which happens when the table holds both copies of most
tiles.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..melds import WRAPPED_ONE
from ..tiles import MAX_NUMBER
from ._layers import (
    Arrangement,
    _Choice,
    _group_split,
    _id,
    _ints_of,
    _placeable,
    _run_id,
    _runs_of,
    _StepOptions,
    lay_out_path,
    remaining_scores,
)

Ints = npt.NDArray[np.int64]

_RUN_BITS = 10
_RUN_MASK = (1 << _RUN_BITS) - 1
_USED_SHIFT = 4 * _RUN_BITS
_GROUP_SHIFT = _USED_SHIFT + 4
_KEPT_SHIFT = _GROUP_SHIFT + 10


class _Names:
    """Small local numbers for the values a search meets, in both directions."""

    def __init__(self) -> None:
        self.local: dict[int, int] = {}
        self.global_ids: list[int] = []

    def of(self, global_id: int) -> int:
        found = self.local.get(global_id)
        if found is None:
            found = self.local[global_id] = len(self.global_ids)
            self.global_ids.append(global_id)
        return found


def best_arrangement_arrays(
    must: Sequence[int],
    optional: Sequence[int],
    weights: Sequence[int],
    *,
    must_jokers: int,
    optional_jokers: int,
    joker_weight: int,
    wrap: bool,
    floor: int = -1,
) -> Arrangement | None:
    """As :func:`._layers.best_arrangement`."""
    total_jokers = must_jokers + optional_jokers
    optional = _placeable(must, optional, total_jokers, wrap)
    top = WRAPPED_ONE if wrap else MAX_NUMBER
    runs = _Names()
    kept_names = _Names()
    biggest = max(must[face] + optional[face] for face in range(len(must) - 1))
    group_tuples = [
        tuple(sorted(values))
        for size in range(5)
        for values in itertools.combinations_with_replacement(range(biggest + 1), size)
    ]
    group_index = {values: index for index, values in enumerate(group_tuples)}
    group_next = np.full((len(group_tuples), biggest + 1), 0, dtype=np.int64)
    for index, values in enumerate(group_tuples):
        if len(values) < 4:
            for count in range(biggest + 1):
                group_next[index, count] = group_index[tuple(sorted((*values, count)))]
    feasible = np.zeros((len(group_tuples), total_jokers + 1), dtype=bool)
    for index, values in enumerate(group_tuples):
        if len(values) == 4:
            for jokers in range(total_jokers + 1):
                feasible[index, jokers] = _group_split((values[0], values[1], values[2], values[3]), jokers) is not None
    empty_runs = runs.of(_run_id(()))
    start_kept = kept_names.of(_id((0, 0, 0, 0) if wrap else ()))
    start = (
        empty_runs
        | empty_runs << _RUN_BITS
        | empty_runs << 2 * _RUN_BITS
        | empty_runs << 3 * _RUN_BITS
        | group_index[()] << _GROUP_SHIFT
        | start_kept << _KEPT_SHIFT
    )
    keys: Ints = np.array([start], dtype=np.int64)
    scores: Ints = np.zeros(1, dtype=np.int64)
    history: list[tuple[Ints, Ints, list[tuple[_Choice, int]] | None]] = []
    still = remaining_scores(optional, weights, optional_jokers * joker_weight, top)
    for number in range(1, top + 1):
        for colour in range(4):
            options = _StepOptions(number, colour, must, optional, weights, wrap, top, total_jokers)
            hope = still[(number - 1) * 4 + colour] - floor
            keys, scores, back = _colour_step(
                keys, scores, colour, options, total_jokers, hope, runs, kept_names, group_next
            )
            history.append(back)
            if not len(keys):
                return None
        keys, scores, back = _group_step(keys, scores, total_jokers, feasible, group_index[()])
        history.append(back)
        if not len(keys):
            return None
    closed = np.array(
        [all(run[:2] == (3, True) for run in _runs_of(global_id)) for global_id in runs.global_ids], dtype=bool
    )
    used = (keys >> _USED_SHIFT) & 15
    ok = used >= must_jokers
    for colour in range(4):
        ok &= closed[(keys >> (colour * _RUN_BITS)) & _RUN_MASK]
    final = np.where(ok, scores + (used - must_jokers) * joker_weight, floor)
    best = int(np.argmax(final))
    if final[best] <= floor:
        return None
    path: list[tuple[_Choice, int] | int] = []
    position = best
    for parents, picks, flat in reversed(history):
        pick = int(picks[position])
        path.append(flat[pick] if flat is not None else pick)
        position = int(parents[position])
    path.reverse()
    return Arrangement(lay_out_path(path), int(final[best]))


def _colour_step(
    keys: Ints,
    scores: Ints,
    colour: int,
    options: _StepOptions,
    total_jokers: int,
    hope: int,
    runs: _Names,
    kept_names: _Names,
    group_next: Ints,
) -> tuple[Ints, Ints, tuple[Ints, Ints, list[tuple[_Choice, int]] | None]]:
    alive = np.nonzero(scores + hope > 0)[0]
    keys, scores = keys[alive], scores[alive]
    shift = colour * _RUN_BITS
    mine = (keys >> shift) & _RUN_MASK
    used = (keys >> _USED_SHIFT) & 15
    kept = (keys >> _KEPT_SHIFT) & 511
    combos = mine * 16 + used
    if options.wrapped:
        combos = combos + (kept << 14)
    unique, inverse = np.unique(combos, return_inverse=True)
    flat: list[tuple[_Choice, int]] = []
    after, jokers_used, gained, to_groups, keeps, counts = [], [], [], [], [], []
    for combo in unique.tolist():
        local_runs, jokers_before = (combo % (16 * (_RUN_MASK + 1))) // 16, combo % 16
        kept_here = _ints_of(kept_names.global_ids[combo >> 14])[colour] if options.wrapped else 0
        found = options.get(runs.global_ids[local_runs], total_jokers - jokers_before, kept_here)
        counts.append(len(found))
        for choice, keep, gain, jokers in found:
            flat.append((choice, keep))
            after.append(runs.of(choice.after_id))
            jokers_used.append(jokers)
            gained.append(gain)
            to_groups.append(choice.to_groups)
            keeps.append(keep)
    if len(runs.global_ids) > _RUN_MASK:
        raise OverflowError("too many kinds of open runs for the packed states")
    if (
        all(count == 1 for count in counts)
        and all(
            after[index] == local % (16 * (_RUN_MASK + 1)) // 16 and not jokers_used[index]
            for index, local in enumerate(unique.tolist())
        )
        and not (options.wrap and options.number == 1)
    ):
        # Every state has one choice, which keeps its runs: only the groups
        # change, the same way for states alike, so no two states meet.
        pick = inverse.astype(np.int64)
        groups = (keys >> _GROUP_SHIFT) & 1023
        moved = group_next[groups, np.array(to_groups, dtype=np.int64)[pick]]
        new_keys = keys + ((moved - groups) << _GROUP_SHIFT)
        new_scores = scores + np.array(gained, dtype=np.int64)[pick]
        return new_keys, new_scores, (alive, pick, flat)
    per_state = np.array(counts, dtype=np.int64)[inverse]
    offsets = (np.cumsum(counts) - np.array(counts, dtype=np.int64))[inverse]
    total = int(per_state.sum())
    if total == 0:
        empty: Ints = np.zeros(0, dtype=np.int64)
        return empty, empty, (empty, empty, flat)
    state = np.repeat(np.arange(len(keys), dtype=np.int64), per_state)
    starts = np.repeat(np.cumsum(per_state) - per_state, per_state)
    pick = np.repeat(offsets, per_state) + (np.arange(total, dtype=np.int64) - starts)
    after_array = np.array(after, dtype=np.int64)
    new_keys = keys[state] - (mine[state] << shift) + (after_array[pick] << shift)
    new_keys += np.array(jokers_used, dtype=np.int64)[pick] << _USED_SHIFT
    groups = (new_keys >> _GROUP_SHIFT) & 1023
    moved = group_next[groups, np.array(to_groups, dtype=np.int64)[pick]]
    new_keys += (moved - groups) << _GROUP_SHIFT
    if options.wrap and options.number == 1:
        old_kept = (new_keys >> _KEPT_SHIFT) & 511
        keep_array = np.array(keeps, dtype=np.int64)[pick]
        pairs = np.unique(old_kept * 64 + keep_array)
        table = {}
        for pair in pairs.tolist():
            values = list(_ints_of(kept_names.global_ids[pair // 64]))
            values[colour] = pair % 64
            table[pair] = kept_names.of(_id(tuple(values)))
        mapped = np.array([table[pair] for pair in (old_kept * 64 + keep_array).tolist()], dtype=np.int64)
        new_keys += (mapped - old_kept) << _KEPT_SHIFT
    new_scores = scores[state] + np.array(gained, dtype=np.int64)[pick]
    chosen = _best_per_key(new_keys, new_scores)
    return new_keys[chosen], new_scores[chosen], (alive[state[chosen]], pick[chosen], flat)


def _group_step(
    keys: Ints, scores: Ints, total_jokers: int, feasible: npt.NDArray[np.bool_], no_groups: int
) -> tuple[Ints, Ints, tuple[Ints, Ints, None]]:
    groups = (keys >> _GROUP_SHIFT) & 1023
    used = (keys >> _USED_SHIFT) & 15
    cleared = keys - (groups << _GROUP_SHIFT) + (no_groups << _GROUP_SHIFT)
    parts_keys, parts_scores, parts_parent, parts_jokers = [], [], [], []
    for jokers in range(total_jokers + 1):
        ok = np.nonzero(feasible[groups, jokers] & (used + jokers <= total_jokers))[0]
        parts_keys.append(cleared[ok] + (jokers << _USED_SHIFT))
        parts_scores.append(scores[ok])
        parts_parent.append(ok)
        parts_jokers.append(np.full(len(ok), jokers, dtype=np.int64))
    new_keys = np.concatenate(parts_keys)
    new_scores = np.concatenate(parts_scores)
    chosen = _best_per_key(new_keys, new_scores)
    return (
        new_keys[chosen],
        new_scores[chosen],
        (np.concatenate(parts_parent)[chosen], np.concatenate(parts_jokers)[chosen], None),
    )


def _best_per_key(keys: Ints, scores: Ints) -> Ints:
    """For each distinct key, the position of its highest score."""
    if not len(keys):
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort((-scores, keys))
    ordered = keys[order]
    first = np.ones(len(order), dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    return order[first]
