"""A learned player: a small network scores each candidate play, and drawing.

The candidates are the actions of the learning environments
(:func:`tilerummy.env.legal_plays`: the solver's best plays on different
rack tiles, best first) and drawing. Each is described by a few numbers
(:data:`FEATURES`): what it places, what it leaves on the rack and on the
table, how much of the rack could still be placed on the next turn without
drawing, and the state of the race (pool, opponents' racks, who has opened).
A network with one hidden layer turns them into a score; the softmax of the
scores is the policy, and the bot plays its most likely candidate. It always
goes out when it can.

Inference is NumPy only. The shipped weights (``network_weights.npz``) were
distilled from a rollout search by ``tools/train_policy.py``; see
docs/bots.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..env.encoding import legal_plays
from ..errors import TilerummyError
from ..game import Action, PlayerView
from ..melds import Table
from ..solver import Solution
from ..tiles import Tile
from ._common import own_rack, play_or_draw, without
from ._positions import best_play, cannot_open

FloatArray = npt.NDArray[np.float64]

#: What describes a candidate, in the order of the network's inputs.
FEATURES: tuple[str, ...] = (
    "draws",  # 1 for drawing (or passing), 0 for a play
    "tiles_placed",  # rack tiles placed, in tens
    "value_placed",  # their numbers' sum, in hundreds (jokers count 0)
    "jokers_placed",
    "goes_out",
    "fewer_than_best",  # how many tiles fewer than the most the rack can place, in fives
    "rank",  # position in the solver's list, over the number of plays offered
    "opens",  # the play is the seat's initial meld
    "rack_after",  # tiles left on the rack, in fourteens
    "value_after",  # their numbers' sum, in hundreds
    "jokers_after",
    "links_after",  # pairs of rack tiles left that could share a set, per tile left
    "next_playable",  # rack tiles left that the next turn could place on the table left, in tens
    "table_after",  # tiles on the table after, in fifties
    "pool",  # tiles left to draw, in fifties
    "rack_now",  # tiles on the rack before the turn, in fourteens
    "closest_rack",  # the smallest opponent's rack, in fourteens
    "opponents_opened",  # the share of opponents that have made their initial meld
)

#: How many of the solver's plays are weighed (the environment's actions with ``plays=6``), besides drawing.
PLAYS = 6

#: Where the shipped weights live, inside the package.
WEIGHTS_FILE = "network_weights.npz"


@dataclass(frozen=True)
class PolicyNetwork:
    """``score = w2 · tanh(features @ w1 + b1) + b2`` per candidate; the policy is the softmax of the scores."""

    w1: FloatArray  # (len(FEATURES), hidden)
    b1: FloatArray  # (hidden,)
    w2: FloatArray  # (hidden,)
    b2: float

    def __post_init__(self) -> None:
        features, hidden = self.w1.shape
        if features != len(FEATURES) or self.b1.shape != (hidden,) or self.w2.shape != (hidden,):
            raise ValueError(
                f"weights of shapes {self.w1.shape}, {self.b1.shape}, {self.w2.shape}: "
                f"expected ({len(FEATURES)}, H), (H,), (H,)"
            )

    @classmethod
    def load(cls, path: str | Path | None = None) -> PolicyNetwork:
        """Weights from an ``.npz`` file (arrays ``w1``, ``b1``, ``w2``, ``b2``); the shipped ones without a path."""
        if path is None:
            with resources.files(__package__).joinpath(WEIGHTS_FILE).open("rb") as shipped:
                return cls._from_arrays(np.load(shipped))
        with np.load(path) as arrays:
            return cls._from_arrays(arrays)

    @classmethod
    def _from_arrays(cls, arrays: np.lib.npyio.NpzFile) -> PolicyNetwork:
        return cls(
            np.asarray(arrays["w1"], dtype=np.float64),
            np.asarray(arrays["b1"], dtype=np.float64),
            np.asarray(arrays["w2"], dtype=np.float64),
            float(arrays["b2"]),
        )

    def save(self, path: str | Path) -> None:
        np.savez(path, w1=self.w1, b1=self.b1, w2=self.w2, b2=np.float64(self.b2))

    @property
    def parameters(self) -> int:
        return self.w1.size + self.b1.size + self.w2.size + 1

    def scores(self, features: FloatArray) -> FloatArray:
        """One score per row of ``features`` (a candidate each)."""
        return np.asarray(np.tanh(features @ self.w1 + self.b1) @ self.w2 + self.b2, dtype=np.float64)

    def probabilities(self, features: FloatArray) -> FloatArray:
        """The policy over the candidates: the softmax of their scores."""
        scores = self.scores(features)
        exp = np.exp(scores - scores.max())
        return np.asarray(exp / exp.sum(), dtype=np.float64)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A play (``table`` None: draw, or pass on an empty pool) and the rack tiles it places."""

    table: Table | None
    placed: tuple[Tile, ...]


#: Drawing (or passing, on an empty pool).
DRAW = Candidate(None, ())


def candidates_of(view: PlayerView, plays: int = PLAYS) -> list[Candidate]:
    """The candidates the network weighs: the environment's plays, then drawing."""
    assert view.seat is not None
    if not view.melded[view.seat] and cannot_open(own_rack(view), view.rules):
        return [DRAW]  # what the environment would offer: no play, no search
    found: Sequence[Solution] = legal_plays(view, plays)
    return [*(Candidate(play.table, play.placed) for play in found), DRAW]


def candidate_features(view: PlayerView, options: Sequence[Candidate]) -> FloatArray:
    """One row of :data:`FEATURES` per candidate."""
    assert view.seat is not None
    rack = own_rack(view)
    melded = view.melded[view.seat]
    others = [seat for seat in range(len(view.players)) if seat != view.seat]
    most = max(len(option.placed) for option in options)
    offered = max(len(options) - 1, 1)
    closest = min(view.rack_sizes[seat] for seat in others)
    opened = sum(view.melded[seat] for seat in others) / len(others)
    rows = np.zeros((len(options), len(FEATURES)), dtype=np.float64)
    for index, option in enumerate(options):
        left = without(rack, option.placed)
        table = view.table if option.table is None else option.table
        playing = option.table is not None
        rows[index] = (
            0.0 if playing else 1.0,
            len(option.placed) / 10,
            sum(tile.number for tile in option.placed) / 100,
            sum(tile.is_joker for tile in option.placed),
            1.0 if playing and not left else 0.0,
            (most - len(option.placed)) / 5,
            (index if playing else offered) / offered,
            1.0 if playing and not melded else 0.0,
            len(left) / 14,
            sum(tile.number for tile in left) / 100,
            sum(tile.is_joker for tile in left),
            _links(left),
            _next_playable(left, table, view, melded=melded or playing) / 10,
            sum(table.tiles().values()) / 50,
            view.pool_size / 50,
            len(rack) / 14,
            closest / 14,
            opened,
        )
    return rows


def _links(rack: Sequence[Tile]) -> float:
    """Pairs of tiles that could share a set (same number, other colours; or
    the same colour two apart at most), per tile; jokers link with anything."""
    if not rack:
        return 0.0
    plain = [tile for tile in rack if not tile.is_joker]
    jokers = len(rack) - len(plain)
    distinct = sorted(set(plain), key=lambda tile: (tile.number, str(tile)))
    pairs = 0
    for position, first in enumerate(distinct):
        for second in distinct[position + 1 :]:
            if first.number == second.number or (first.colour is second.colour and second.number - first.number <= 2):
                pairs += 1
    pairs += jokers * len(plain)
    return pairs / len(rack)


def _next_playable(rack: Sequence[Tile], table: Table, view: PlayerView, *, melded: bool) -> int:
    """How many of ``rack`` one play could place on ``table`` (an opening, if the seat has not opened)."""
    if not rack:
        return 0
    found = best_play(rack, table, view.rules, melded=melded)
    return 0 if found is None else len(found.placed)


def choose_index(network: PolicyNetwork, view: PlayerView, options: Sequence[Candidate]) -> int:
    """The candidate the network plays: one that goes out if any, else the
    highest score; before the seat's initial meld, the best-scored opening
    whenever there is one (a rack that waits to open only grows)."""
    assert view.seat is not None
    rack_size = len(own_rack(view))
    for index, option in enumerate(options):
        if option.table is not None and len(option.placed) == rack_size:
            return index
    if len(options) == 1:
        return 0
    scores = network.scores(candidate_features(view, options))
    if not view.melded[view.seat]:
        scores = np.where([option.table is None for option in options], -np.inf, scores)
    return int(np.argmax(scores))


class NetworkBot:
    """Plays the candidate the shipped network (or the one given) scores highest."""

    name = "network"

    def __init__(self, seed: int = 0, network: PolicyNetwork | None = None) -> None:
        del seed  # the network's choice is deterministic
        self.network = network if network is not None else shipped_network()

    def choose(self, view: PlayerView) -> Action:
        options = candidates_of(view)
        return play_or_draw(view, options[choose_index(self.network, view, options)].table)


_SHIPPED: list[PolicyNetwork] = []


def shipped_network() -> PolicyNetwork:
    """The weights shipped in the package, read once per process: every bot shares them."""
    if not _SHIPPED:
        _SHIPPED.append(PolicyNetwork.load())
    return _SHIPPED[0]


@lru_cache(maxsize=8)
def _weights_at(path: str) -> PolicyNetwork:
    return PolicyNetwork.load(path)


def load_weights(path: str | Path) -> PolicyNetwork:
    """The network in an ``.npz`` file (read once per process and path).

    :raises TilerummyError: naming the file, when it cannot be read or holds no such network.
    """
    try:
        return _weights_at(str(Path(path).resolve()))
    except (OSError, KeyError, ValueError) as error:
        raise TilerummyError(f"weights {path}: not a network's weights file ({error})") from None
