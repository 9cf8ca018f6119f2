"""One seat's view as fixed-size arrays, and the actions it may take.

The actions are the first ``plays`` candidate plays of :func:`legal_plays`
(the solver's best plays on different rack tiles, best first) and, last,
drawing a tile (or passing once the pool is empty). The observation is a
flat vector of small non-negative integers; see :data:`OBSERVATION_LAYOUT`
and docs/env.md. Nothing here reads more than a :class:`PlayerView` holds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from ..game import Action, Draw, Pass, Play, PlayerView
from ..solver import Solution, candidates
from ..tiles import JOKER, NUMBERED_TILES, Tile

#: Every face, in the order the count blocks use: R1..R13, B1..B13, Y1..Y13, K1..K13, then the joker.
FACES: tuple[Tile, ...] = (*NUMBERED_TILES, JOKER)
FACE_INDEX: dict[Tile, int] = {tile: index for index, tile in enumerate(FACES)}

#: Seats the observation has room for (the six-player set's most), the own seat first.
MAX_SEATS = 6

#: Candidate plays offered each turn unless told otherwise.
DEFAULT_PLAYS = 8

#: The blocks of the observation vector, in order: name and length (``plays`` rows of faces last).
OBSERVATION_LAYOUT: tuple[tuple[str, int], ...] = (
    ("rack", len(FACES)),
    ("table", len(FACES)),
    ("rack_sizes", MAX_SEATS),
    ("melded", MAX_SEATS),
    ("pool_size", 1),
    ("players", 1),
)
_HEAD = sum(length for _, length in OBSERVATION_LAYOUT)

#: The largest value any entry can hold: the six-player set's 160 tiles.
OBSERVATION_HIGH = 160

IntArray = npt.NDArray[np.int16]
MaskArray = npt.NDArray[np.int8]


def observation_size(plays: int = DEFAULT_PLAYS) -> int:
    """How long the observation vector is with room for ``plays`` candidate plays."""
    return _HEAD + plays * len(FACES)


def face_counts(tiles: Iterable[Tile]) -> IntArray:
    """How many of each face, in :data:`FACES` order."""
    counts = np.zeros(len(FACES), dtype=np.int16)
    for tile, count in Counter(tiles).items():
        counts[FACE_INDEX[tile]] = count
    return counts


def seat_order(view: PlayerView) -> list[int]:
    """The seats from the viewer's own, in the order they play after it."""
    assert view.seat is not None
    players = len(view.players)
    return [(view.seat + offset) % players for offset in range(players)]


def legal_plays(view: PlayerView, plays: int = DEFAULT_PLAYS) -> list[Solution]:
    """Up to ``plays`` of the seat's legal plays, as :func:`~tilerummy.solver.candidates`
    orders them: the most rack tiles first, then the most rack value, each
    placing a different multiset of rack tiles. Empty when nothing can be
    placed, or when the round is over or it is not the seat's turn."""
    if view.seat is None or view.rack is None:
        raise ValueError("a spectator's view has no rack and no plays")
    if view.is_over or view.turn != view.seat or not view.rack:
        return []
    return candidates(
        [piece.tile for piece in view.rack],
        view.table,
        rules=view.rules,
        initial_meld_done=view.melded[view.seat],
        k=plays,
        fewest_changes=False,
    )


def encode_observation(view: PlayerView, found: Sequence[Solution], plays: int = DEFAULT_PLAYS) -> IntArray:
    """The seat's view and the tiles each offered play places, as one vector (see :data:`OBSERVATION_LAYOUT`)."""
    if view.seat is None or view.rack is None:
        raise ValueError("a spectator's view has no rack to encode")
    order = seat_order(view)
    vector = np.zeros(observation_size(plays), dtype=np.int16)
    faces = len(FACES)
    vector[0:faces] = face_counts(piece.tile for piece in view.rack)
    vector[faces : 2 * faces] = face_counts(view.table.tiles().elements())
    start = 2 * faces
    for slot, seat in enumerate(order):
        vector[start + slot] = view.rack_sizes[seat]
        vector[start + MAX_SEATS + slot] = view.melded[seat]
    vector[start + 2 * MAX_SEATS] = view.pool_size
    vector[start + 2 * MAX_SEATS + 1] = len(view.players)
    for index, play in enumerate(found[:plays]):
        row = _HEAD + index * faces
        vector[row : row + faces] = face_counts(play.placed)
    return vector


def action_mask(found: Sequence[Solution], plays: int = DEFAULT_PLAYS, *, acting: bool = True) -> MaskArray:
    """1 for each action the seat may take: the offered plays, and the last
    action (draw or pass), always open to the seat whose turn it is."""
    mask = np.zeros(plays + 1, dtype=np.int8)
    if acting:
        mask[: min(len(found), plays)] = 1
        mask[plays] = 1
    return mask


def to_action(view: PlayerView, found: Sequence[Solution], index: int, plays: int = DEFAULT_PLAYS) -> Action:
    """The game action for action ``index``: play ``found[index]``; ``plays`` draws (passes on an empty pool).

    :raises ValueError: for an index that is not an open action.
    """
    assert view.seat is not None
    if index == plays:
        return Draw(view.seat) if view.pool_size else Pass(view.seat)
    if 0 <= index < min(len(found), plays):
        return Play(view.seat, found[index].table)
    offered = min(len(found), plays)
    open_ones = f"0 to {offered - 1} or {plays}" if offered else f"only {plays}"
    raise ValueError(f"action {index} is not open: {offered} plays are offered (choose {open_ones})")
