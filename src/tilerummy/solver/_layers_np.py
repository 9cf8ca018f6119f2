"""The layer search of :mod:`._layers` on NumPy arrays, for crowded tables.

Same states, same choices, same answers: each state is packed into one
64-bit integer (each colour's open runs, jokers used, how many colours sent
one, two or three tiles to this number's groups, the 1s kept back), every
choice adds a fixed amount to it, and a whole step is a few array operations
instead of a loop over states. Worth it once the states number in the
thousands, which happens when the table holds both copies of most tiles.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..melds import WRAPPED_ONE
from ..tiles import MAX_NUMBER
from ._layers import _KEPT_SHIFT as _LOOP_KEPT_SHIFT
from ._layers import (
    _RUNS,
    Arrangement,
    Pick,
    Resume,
    _choices,
    _group_jokers,
    _placeable,
    _run_id,
    _StepOptions,
    lay_out_path,
    plan_steps,
    remaining_scores,
    runs_in,
)
from ._layers import _USED_SHIFT as _LOOP_USED_SHIFT

Ints = npt.NDArray[np.int64]

_RUN_BITS = 10
_RUN_MASK = (1 << _RUN_BITS) - 1
_USED_SHIFT = 4 * _RUN_BITS
_HIST_SHIFT = _USED_SHIFT + 4
_HIST_MASK = (1 << 9) - 1
_KEPT_SHIFT = _HIST_SHIFT + 9

# A step's record for the way back: the states' parents, what each did, and
# the choices those refer to; or, for a step that changed nothing, the states
# and their step.
Back = tuple[Ints, Ints, list[Pick] | None] | tuple[None, Ints, _StepOptions]


class _Moves:
    """One kind of state's choices as arrays: what each adds to the state,
    the score it gains, and the choices."""

    __slots__ = ("delta", "gain", "groups_only", "identity", "picks")

    def __init__(self, delta: list[int], gain: list[int], picks: list[Pick]) -> None:
        self.delta = delta
        self.gain = gain
        self.picks = picks
        self.identity = len(picks) == 1 and not delta[0] and not gain[0]
        others = ~(_HIST_MASK << _HIST_SHIFT)
        self.groups_only = len(picks) == 1 and not delta[0] & others


def _moves(options: _StepOptions, part: int) -> _Moves:
    """The choices of a state whose colour runs, jokers used and 1s kept are
    ``part``, shared between searches like the loop search's."""
    cache: dict[int, object] = options.arrays
    found = cache.get(part)
    if isinstance(found, _Moves):
        return found
    unweighed = options.arrays_unweighed.get(part)
    if not isinstance(unweighed, _Moves):
        unweighed = options.arrays_unweighed[part] = _unweighed_moves(options, part)
    weight = options.weight
    made = cache[part] = _Moves(unweighed.delta, [units * weight for units in unweighed.gain], unweighed.picks)
    return made


def _unweighed_moves(options: _StepOptions, part: int) -> _Moves:
    """As :func:`_moves`, with the rack copies placed in place of the score."""
    colour = options.colour
    shift = colour * _RUN_BITS
    runs_id = part >> shift & _RUN_MASK
    used = part >> _USED_SHIFT & 15
    kept_shift = _KEPT_SHIFT + 2 * colour
    kept = part >> kept_shift & 3 if options.wrapped else 0
    delta, gain, picks = [], [], []
    for choice, keep, units, jokers in _choices(options.around, runs_id, options.total_jokers - used, kept):
        if choice.after_id > _RUN_MASK:
            raise OverflowError("too many kinds of open runs for the packed states")
        step = (choice.after_id - runs_id) << shift
        step += jokers << _USED_SHIFT
        if choice.to_groups:
            step += 1 << (_HIST_SHIFT + 3 * (choice.to_groups - 1))
        if options.wrapped:
            step -= kept << kept_shift
        elif options.keeps.stop > 1:
            step += keep << kept_shift
        delta.append(step)
        gain.append(units)
        picks.append((choice, keep))
    return _Moves(delta, gain, picks)


def _mask(options: _StepOptions) -> int:
    mask = _RUN_MASK << options.colour * _RUN_BITS | 15 << _USED_SHIFT
    if options.wrapped:
        mask |= 3 << (_KEPT_SHIFT + 2 * options.colour)
    return mask


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
    resume: Resume | None = None,
) -> Arrangement | None:
    """As :func:`._layers.best_arrangement`; ``resume`` goes on from where
    the loop search stopped.

    :raises OverflowError: if the open runs met have too many kinds to pack.
    """
    total_jokers = must_jokers + optional_jokers
    optional = _placeable(must, optional, total_jokers, wrap)
    top = WRAPPED_ONE if wrap else MAX_NUMBER
    if resume is None:
        empty = _run_id(())
        if empty > _RUN_MASK:
            raise OverflowError("too many kinds of open runs for the packed states")
        start = empty | empty << _RUN_BITS | empty << 2 * _RUN_BITS | empty << 3 * _RUN_BITS
        keys: Ints = np.array([start], dtype=np.int64)
        scores: Ints = np.zeros(1, dtype=np.int64)
        first_number = 1
    else:
        first_number = resume.number
        keys = np.array([_from_loop(key) for key in resume.keys], dtype=np.int64)
        scores = np.array(resume.scores, dtype=np.int64)
    history: list[Back] = []
    feasible = np.zeros((_HIST_MASK + 1, total_jokers + 1), dtype=bool)
    for hist in range(_HIST_MASK + 1):
        for jokers in _group_jokers(hist, total_jokers):
            feasible[hist, jokers] = True
    still = remaining_scores(optional, weights, optional_jokers * joker_weight, top)
    plan = plan_steps(must, optional, weights, wrap, total_jokers)
    for number in range(first_number, top + 1):
        for colour in range(4):
            options = plan[(number - 1) * 4 + colour]
            hope = still[(number - 1) * 4 + colour] - floor
            keys, scores, back = _colour_step(keys, scores, options, hope)
            history.append(back)
            if not len(keys):
                return None
        keys, scores, back = _group_step(keys, scores, total_jokers, feasible)
        history.append(back)
        if not len(keys):
            return None
    closed = np.array([all(run[:2] == (3, True) for run in runs) for runs in _RUNS[: _RUN_MASK + 1]], dtype=bool)
    used = (keys >> _USED_SHIFT) & 15
    ok = used >= must_jokers
    for colour in range(4):
        ok &= closed[(keys >> (colour * _RUN_BITS)) & _RUN_MASK]
    final = np.where(ok, scores + (used - must_jokers) * joker_weight, floor)
    best = int(np.argmax(final))
    if final[best] <= floor:
        return None
    path: list[Pick | int] = []
    position = best
    for parents, picks, flat in reversed(history):
        if parents is None:
            # A step that changed nothing: the state made its only choice.
            assert isinstance(flat, _StepOptions)
            path.append(_moves(flat, int(picks[position]) & _mask(flat)).picks[0])
            continue
        pick = int(picks[position])
        path.append(flat[pick] if isinstance(flat, list) else pick)
        position = int(parents[position])
    path.reverse()
    if resume is not None:
        path = resume.path_to(resume.keys[position]) + path
    return Arrangement(lay_out_path(path), int(final[best]))


def _from_loop(key: int) -> int:
    """A state of the loop search, between two numbers, packed for arrays."""
    packed = 0
    for colour in range(4):
        runs = runs_in(key, colour)
        if runs > _RUN_MASK:
            raise OverflowError("too many kinds of open runs for the packed states")
        packed |= runs << colour * _RUN_BITS
        packed |= (key >> _LOOP_KEPT_SHIFT + 2 * colour & 3) << _KEPT_SHIFT + 2 * colour
    return packed | (key >> _LOOP_USED_SHIFT & 15) << _USED_SHIFT


def _colour_step(keys: Ints, scores: Ints, options: _StepOptions, hope: int) -> tuple[Ints, Ints, Back]:
    alive = np.flatnonzero(scores + hope > 0)
    if len(alive) < len(keys):
        keys, scores = keys[alive], scores[alive]
        pruned = True
    else:
        pruned = False
    parts = keys & _mask(options)
    unique, inverse = np.unique(parts, return_inverse=True)
    tables = [_moves(options, part) for part in unique.tolist()]
    if not pruned and all(table.identity for table in tables):
        # Every state's only choice leaves it as it is (a colour with no tile
        # and no open run here): the step is the previous one.
        return keys, scores, (None, keys, options)
    if all(table.groups_only for table in tables):
        # One choice each, changing only the groups of this number, the same
        # way for states alike: no two states meet.
        delta = np.array([table.delta[0] for table in tables], dtype=np.int64)
        gain = np.array([table.gain[0] for table in tables], dtype=np.int64)
        picks = [table.picks[0] for table in tables]
        ok = _fitting(options, keys + delta[inverse])
        return (
            keys[ok] + delta[inverse[ok]],
            scores[ok] + gain[inverse[ok]],
            (alive[ok], inverse[ok].astype(np.int64), picks),
        )
    counts = np.array([len(table.picks) for table in tables], dtype=np.int64)
    per_state = counts[inverse]
    total = int(per_state.sum())
    if total == 0:
        empty: Ints = np.zeros(0, dtype=np.int64)
        return empty, empty, (empty, empty, [])
    all_delta = np.array([delta for table in tables for delta in table.delta], dtype=np.int64)
    all_gain = np.array([gain for table in tables for gain in table.gain], dtype=np.int64)
    flat = [pick for table in tables for pick in table.picks]
    offsets = np.cumsum(counts) - counts
    state = np.repeat(np.arange(len(keys), dtype=np.int64), per_state)
    starts = np.repeat(np.cumsum(per_state) - per_state, per_state)
    pick = np.repeat(offsets[inverse], per_state) + (np.arange(total, dtype=np.int64) - starts)
    new_keys = keys[state] + all_delta[pick]
    ok = _fitting(options, new_keys)
    new_keys, state, pick = new_keys[ok], state[ok], pick[ok]
    new_scores = scores[state] + all_gain[pick]
    chosen = _best_per_key(new_keys, new_scores)
    return new_keys[chosen], new_scores[chosen], (alive[state[chosen]], pick[chosen], flat)


def _fitting(options: _StepOptions, keys: Ints) -> npt.NDArray[np.bool_]:
    """Which states' tiles sent to this number's groups can still make
    groups with the later colours' tiles and the jokers left."""
    combo = ((keys >> _HIST_SHIFT) & _HIST_MASK) << 4 | (options.total_jokers - ((keys >> _USED_SHIFT) & 15))
    table = np.zeros((_HIST_MASK + 1) << 4, dtype=bool)
    for present in np.flatnonzero(np.bincount(combo, minlength=len(table))).tolist():
        table[present] = options.fits(present >> 4, present & 15)
    result: npt.NDArray[np.bool_] = table[combo]
    return result


def _group_step(
    keys: Ints, scores: Ints, total_jokers: int, feasible: npt.NDArray[np.bool_]
) -> tuple[Ints, Ints, Back]:
    hist = (keys >> _HIST_SHIFT) & _HIST_MASK
    used = (keys >> _USED_SHIFT) & 15
    cleared = keys & ~(_HIST_MASK << _HIST_SHIFT)
    parts_keys, parts_scores, parts_parent, parts_jokers = [], [], [], []
    for jokers in range(total_jokers + 1):
        ok = np.flatnonzero(feasible[hist, jokers] & (used + jokers <= total_jokers))
        if not len(ok):
            continue
        parts_keys.append(cleared[ok] + (jokers << _USED_SHIFT))
        parts_scores.append(scores[ok])
        parts_parent.append(ok)
        parts_jokers.append(np.full(len(ok), jokers, dtype=np.int64))
    if not parts_keys:
        empty: Ints = np.zeros(0, dtype=np.int64)
        return empty, empty, (empty, empty, None)
    if len(parts_keys) == 1:
        return parts_keys[0], parts_scores[0], (parts_parent[0], parts_jokers[0], None)
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
    order = np.argsort(keys)
    ordered = keys[order]
    ordered_scores = scores[order]
    first = np.ones(len(order), dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    starts = np.flatnonzero(first)
    best = np.maximum.reduceat(ordered_scores, starts)
    group = np.cumsum(first) - 1
    top = np.flatnonzero(ordered_scores == best[group])
    # The first of each group's highest scores.
    keep = np.ones(len(top), dtype=bool)
    keep[1:] = group[top[1:]] != group[top[:-1]]
    result: Ints = order[top[keep]]
    return result
