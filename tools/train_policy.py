"""Train the network bot's weights by distilling a rollout search (DAgger).

Each round plays heads-up games in the Gymnasium environment
(``tilerummy.env.single.SingleSeatEnv``) against the greedy bot, the learner's
seat drawn at random; or, with ``--opponents``, against a population: each
game's opponent drawn from the styles and frozen networks named, and with
``--self-play`` every network fitted in an earlier round too (fictitious
self-play). At every turn where the learner has a choice, the
teacher values each candidate (the network's candidates: the solver's plays
and drawing) by paired rollouts: it deals the tiles the learner cannot see
at random, consistently with the rack sizes, gives every seat its own queue
of draws, and plays each candidate then a few turns of everyone in the
same worlds: greedy turns, or, for an opponent that holds its tiles (the
hoarders and every network), turns that only open (with the most tiles)
and go out, a rough likeness of those players (a lurker that races at the
end, or a network level that races a hoarder, is still played out as
holding). The first round follows the teacher's choices; later
rounds follow the network trained so far, so the teacher relabels the
positions the network itself reaches (DAgger). After every round the
network is fitted again to all labels gathered so far: its scores regress
onto the teacher's values, centred per position.

Run (from the repository, with the package importable):

    python tools/train_policy.py --seed 1 --out src/tilerummy/bots/network_weights.npz

The same seed and options give the same weights. ``--eval-games N`` plays N
mirrored deals against each of ``--eval-against`` (greedy by default) at the
end (deals from ``--eval-seed``) and prints the win shares. A best response
to a frozen network is the same training with that network alone as the
opponent (``--opponents frozen.npz``), measured with ``--eval-against
frozen.npz``.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from tilerummy.bots import OPPONENTS, Bot
from tilerummy.bots.network import (
    FEATURES,
    PLAYS,
    Candidate,
    FloatArray,
    NetworkBot,
    PolicyNetwork,
    candidate_features,
    choose_index,
    load_weights,
)
from tilerummy.bots.worlds import unseen_tiles
from tilerummy.env.single import SingleSeatEnv
from tilerummy.errors import TilerummyError
from tilerummy.game import PlayerView
from tilerummy.rules import Rules
from tilerummy.solver import Solution, solve
from tilerummy.tiles import Tile

#: How the teacher plays a seat out: the most tiles every turn, or only opening and going out.
Style = Literal["greedy", "hold"]

#: The named opponents the teacher plays out as holding their tiles (the networks' levels wait to lay
#: a big rack too): a likeness, since some of them race once the end is near.
HOLDING = frozenset({"hoarder", "lurker", "hard", "network", "expert", "hard-v1", "network-v1", "expert-fast"})


@dataclass(frozen=True, eq=False)
class NetworkOpponent:
    """A frozen network as an opponent: the network level's raw choice (no racing), made from a seed."""

    network: PolicyNetwork

    def __call__(self, seed: int) -> Bot:
        return NetworkBot(seed, self.network)


@dataclass(frozen=True)
class Member:
    """One opponent of the population: its name, and what the environment makes it from."""

    label: str
    opponent: str | NetworkOpponent

    @property
    def style(self) -> Style:
        holds = isinstance(self.opponent, NetworkOpponent) or self.opponent in HOLDING
        return "hold" if holds else "greedy"


def member(name: str) -> Member:
    """A level or league opponent by name, or a network's ``.npz`` weights by path."""
    name = name.strip()
    if name.lower().endswith(".npz"):
        return Member(Path(name).stem, NetworkOpponent(load_weights(name)))
    if name.lower() not in OPPONENTS:
        raise TilerummyError(f"opponent {name!r}: a weights file (.npz) or one of {', '.join(OPPONENTS)}")
    return Member(name.lower(), name.lower())


def members(option: str, names: str) -> list[Member]:
    """The opponents a comma-separated option names (at least one).

    :raises TilerummyError: naming the option and the opponent it cannot read."""
    found = []
    for name in names.split(","):
        if not name.strip():
            continue
        try:
            found.append(member(name))
        except TilerummyError as error:
            raise TilerummyError(f"{option}: {error}") from None
    if not found:
        raise TilerummyError(f"{option}: name at least one opponent")
    return found


@dataclass(frozen=True)
class Teacher:
    """The rollout search: ``worlds`` sampled worlds, ``horizon`` turns of every player after the move."""

    worlds: int = 10
    horizon: int = 3
    #: Tile differences at the horizon are worth tanh(scale * difference); going out is worth 1.
    scale: float = 0.15

    def values(
        self, view: PlayerView, options: Sequence[Candidate], rng: random.Random, styles: Sequence[Style] = ()
    ) -> FloatArray:
        """Each candidate's mean outcome over the same worlds, from the learner's side (-1 to 1);
        ``styles``: how each seat is played out (greedy where not given)."""
        unseen = unseen_tiles(view)
        totals = np.zeros(len(options))
        for _ in range(self.worlds):
            world = deal_world(view, unseen, rng)
            for index, option in enumerate(options):
                totals[index] += self.play_out(view, world, option, styles)
        return totals / self.worlds

    def play_out(self, view: PlayerView, world: World, option: Candidate, styles: Sequence[Style] = ()) -> float:
        assert view.seat is not None
        rules = view.rules
        racks = [Counter(rack) for rack in world.racks]
        queues = [list(queue) for queue in world.draws]
        melded = list(view.melded)
        me, players = view.seat, len(racks)
        table = view.table
        if option.table is None:
            if queues[me]:
                racks[me][queues[me].pop()] += 1
        else:
            racks[me] -= Counter(option.placed)
            table, melded[me] = option.table, True
            if not racks[me]:
                return 1.0
        turn = (me + 1) % players
        for _ in range(self.horizon * players):
            found = solve(
                list(racks[turn].elements()), table, rules=rules, initial_meld_done=melded[turn], fewest_changes=False
            )
            if found is not None and turn < len(styles) and styles[turn] == "hold":
                found = _held(found, racks[turn], melded[turn])
            if found is not None:
                racks[turn] -= Counter(found.placed)
                table, melded[turn] = found.table, True
                if not racks[turn]:
                    return 1.0 if turn == me else -1.0
            elif queues[turn]:
                racks[turn][queues[turn].pop()] += 1
            turn = (turn + 1) % players
        mine = racks[me].total()
        closest = min(rack.total() for seat, rack in enumerate(racks) if seat != me)
        return math.tanh(self.scale * (closest - mine))


def _held(found: Solution, rack: Counter[Tile], melded: bool) -> Solution | None:
    """What a player that holds its tiles makes of the best play: its initial meld, or going out; else nothing."""
    return found if not melded or len(found.placed) == rack.total() else None


@dataclass(frozen=True)
class World:
    racks: list[Counter[Tile]]
    draws: list[list[Tile]]  # each seat's own draws, taken from the end


def deal_world(view: PlayerView, unseen: list[Tile], rng: random.Random) -> World:
    """The unseen tiles dealt at random to the other racks (by their sizes), the rest
    split into per-seat draw queues, so that a candidate that changes who draws
    does not change what anyone else draws."""
    assert view.seat is not None and view.rack is not None
    hidden = list(unseen)
    rng.shuffle(hidden)
    racks: list[Counter[Tile]] = []
    for seat, size in enumerate(view.rack_sizes):
        if seat == view.seat:
            racks.append(Counter(piece.tile for piece in view.rack))
        else:
            racks.append(Counter(hidden[:size]))
            hidden = hidden[size:]
    players = len(racks)
    return World(racks, [hidden[seat::players] for seat in range(players)])


@dataclass
class Labels:
    """Per position: the candidates' features and the teacher's values."""

    features: list[FloatArray]
    values: list[FloatArray]


def candidates_now(environment: SingleSeatEnv) -> list[Candidate]:
    plays = environment.offered_plays
    return [*(Candidate(play.table, play.placed) for play in plays), Candidate(None, ())]


#: One game to play and label: its deal, the round, the network so far, the teacher, the rules, the opponent.
Job = tuple[int, int, PolicyNetwork | None, Teacher, str, Member]


def play_and_label(job: Job) -> tuple[Labels, float]:
    """One game against ``opponent`` from deal ``seed``: the labels of the learner's
    choices, and its result (+1 won, -1 lost)."""
    seed, round_index, network, teacher, rules, opponent = job
    environment = SingleSeatEnv((opponent.opponent,), rules=rules, seat=None, plays=PLAYS)
    rng = random.Random(seed * 7919 + round_index)
    labels = Labels([], [])
    environment.reset(seed=seed)
    styles: list[Style] = ["greedy", "greedy"]
    styles[1 - environment.seat] = opponent.style
    reward, terminated = 0.0, False
    while not terminated:
        view = environment.game.view(environment.seat)
        options = candidates_now(environment)
        rack_size = len(view.rack or ())
        if len(options) == 1 or any(len(option.placed) == rack_size for option in options):
            index = choose_index(network, view, options) if network is not None else 0
        else:
            values = teacher.values(view, options, rng, styles)
            labels.features.append(candidate_features(view, options))
            labels.values.append(values)
            index = int(np.argmax(values)) if network is None else choose_index(network, view, options)
        action = index if options[index].table is not None else environment.plays
        _, reward_now, terminated, _, _ = environment.step(action)
        reward = float(reward_now)
    return labels, reward


def fit(labels: Labels, hidden: int, seed: int, steps: int = 3000, decay: float = 1e-4) -> PolicyNetwork:
    """Fit scores to the teacher's values, centred per position (full-batch Adam on the squared error)."""
    rng = np.random.default_rng(seed)
    x = np.concatenate(labels.features)
    y = np.concatenate([values - values.mean() for values in labels.values])
    w1 = rng.normal(0.0, 1.0 / math.sqrt(len(FEATURES)), (len(FEATURES), hidden))
    b1 = np.zeros(hidden)
    w2 = rng.normal(0.0, 1.0 / math.sqrt(hidden), hidden) * 0.1
    params = [w1, b1, w2]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    rate, beta1, beta2 = 0.01, 0.9, 0.999
    for step in range(1, steps + 1):
        h = np.tanh(x @ w1 + b1)
        error = h @ w2 - y
        grad_out = 2 * error / len(y)
        grad_w2 = h.T @ grad_out + decay * w2
        grad_h = np.outer(grad_out, w2) * (1 - h**2)
        grads = [x.T @ grad_h + decay * w1, grad_h.sum(axis=0), grad_w2]
        for param, grad, moment, square in zip(params, grads, moments, squares, strict=True):
            moment *= beta1
            moment += (1 - beta1) * grad
            square *= beta2
            square += (1 - beta2) * grad**2
            param -= rate * (moment / (1 - beta1**step)) / (np.sqrt(square / (1 - beta2**step)) + 1e-8)
    # Per position the mean is removed, so the output bias plays no part.
    return PolicyNetwork(w1, b1, w2, 0.0)


def agreement(network: PolicyNetwork, labels: Labels) -> tuple[float, float]:
    """How often the network picks the teacher's best, and how often the teacher's best is the solver's best play."""
    same = greedy = 0
    for features, values in zip(labels.features, labels.values, strict=True):
        best = int(np.argmax(values))
        same += int(np.argmax(network.scores(features))) == best
        greedy += best == 0
    count = max(len(labels.values), 1)
    return same / count, greedy / count


def evaluate(job: tuple[int, PolicyNetwork, str, Member]) -> tuple[int, int]:
    """Wins of the network over the two games of one deal, once from each seat, against
    ``opponent``, and how many of the two ended with someone going out."""
    deal, network, rules, opponent = job
    wins = ended = 0
    for seat in (0, 1):
        environment = SingleSeatEnv((opponent.opponent,), rules=rules, seat=seat, plays=PLAYS)
        environment.reset(seed=deal)
        terminated, reward = False, 0.0
        while not terminated:
            view = environment.game.view(seat)
            options = candidates_now(environment)
            index = choose_index(network, view, options)
            action = index if options[index].table is not None else environment.plays
            _, reward_now, terminated, _, _ = environment.step(action)
            reward = float(reward_now)
        wins += reward > 0
        result = environment.game.result
        ended += result is not None and result.went_out
    return wins, ended


def opponent_of(deal: int, population: Sequence[Member]) -> Member:
    """The opponent of a training game: drawn uniformly from the population, by the deal."""
    return population[random.Random(deal * 104_729 + 3).randrange(len(population))]


def wilson(wins: int, games: int) -> tuple[float, float]:
    if not games:
        return 0.0, 1.0
    share, z = wins / games, 1.96
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=1, help="seeds the deals, the worlds and the network's start")
    parser.add_argument("--out", type=Path, required=True, help="where to write the weights (.npz)")
    parser.add_argument("--rounds", type=int, default=4, help="DAgger rounds (the first follows the teacher)")
    parser.add_argument("--games", type=int, default=40, help="games per round")
    parser.add_argument("--worlds", type=int, default=Teacher.worlds, help="teacher: sampled worlds per position")
    parser.add_argument("--horizon", type=int, default=Teacher.horizon, help="teacher: turns of every player")
    parser.add_argument("--hidden", type=int, default=16, help="hidden units")
    parser.add_argument("--rules", default="standard", help="rules preset of the training games")
    parser.add_argument(
        "--opponents",
        default="greedy",
        help="the population, comma-separated: levels, league opponents, networks' .npz weights (default: greedy)",
    )
    parser.add_argument(
        "--self-play", action="store_true", help="add the network fitted after each round to the population"
    )
    parser.add_argument("--workers", type=int, default=2, help="processes that play games")
    parser.add_argument(
        "--eval-games", type=int, default=0, help="mirrored deals against each of --eval-against at the end"
    )
    parser.add_argument(
        "--eval-against", default="greedy", help="the opponents of the evaluation, as --opponents (default: greedy)"
    )
    parser.add_argument("--eval-seed", type=int, default=500_000, help="first deal of the evaluation")
    options = parser.parse_args(argv)
    try:
        Rules.preset(options.rules)
        population = members("--opponents", options.opponents)
        judges = members("--eval-against", options.eval_against)
    except TilerummyError as error:
        parser.error(str(error))
    teacher = Teacher(worlds=options.worlds, horizon=options.horizon)
    labels = Labels([], [])
    network: PolicyNetwork | None = None
    started = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(options.workers) as pool:
        for round_index in range(options.rounds):
            first = options.seed * 1_000_000 + round_index * options.games
            jobs: list[Job] = [
                (first + game, round_index, network, teacher, options.rules, opponent_of(first + game, population))
                for game in range(options.games)
            ]
            results = pool.map(play_and_label, jobs, chunksize=1)
            wins = 0
            for found, result in results:
                labels.features.extend(found.features)
                labels.values.extend(found.values)
                wins += result > 0
            network = fit(labels, options.hidden, options.seed + round_index)
            if options.self_play:
                population.append(Member(f"round-{round_index + 1}", NetworkOpponent(network)))
            same, greedy = agreement(network, labels)
            print(
                f"round {round_index + 1}: {len(results)} games, learner won {wins}; "
                f"{len(labels.values)} positions labelled; network agrees with the teacher on {same:.3f}, "
                f"teacher's best is the solver's best on {greedy:.3f}; {time.perf_counter() - started:.0f} s",
                flush=True,
            )
        assert network is not None
        network.save(options.out)
        print(f"wrote {options.out} ({network.parameters} parameters)")
        deals = range(options.eval_seed, options.eval_seed + options.eval_games)
        for judge in judges if options.eval_games else ():
            outcomes = pool.map(evaluate, [(deal, network, options.rules, judge) for deal in deals], chunksize=1)
            wins, ended = sum(won for won, _ in outcomes), sum(out for _, out in outcomes)
            games = 2 * options.eval_games
            low, high = wilson(wins, games)
            print(
                f"against {judge.label}: {wins}/{games} = {wins / games:.3f} [{low:.3f}, {high:.3f}], "
                f"{ended / games:.0%} went out (deals from {options.eval_seed})",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
