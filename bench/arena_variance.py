"""How much mirrored deals and per-seat draws narrow the arena's intervals.

Run: .venv/bin/python bench/arena_variance.py --bots hard,greedy [--games N] [--seed S]
     [--workers W] [--sprt p0=0.5,p1=0.55] [--resamples R]

Plays the same deals twice, with a shared pool and with per-seat draws
(``pool_draws=per_seat``), and prints for each: the first bot's win share,
the split fraction s (deals the same seat won in every rotation), the
measured variance of a deal's score relative to unpaired games and, heads-up,
2(1 - s), and the games a 95% interval of ±3 points needs at that spread.
With ``--sprt``, it also runs the sequential test ``--resamples`` times at
each hypothesis' share, on deal scores drawn from the measured distribution
moved to that share (the likeliest distribution with that mean, as the test
itself uses), and prints the games it took on average and how often it
chose wrongly (H1 at p0, about alpha; H0 at p1, about beta).
"""

from __future__ import annotations

import argparse
import random
import statistics

from tilerummy.arena import run_arena
from tilerummy.arena.pairs import PairStats
from tilerummy.arena.sprt import REGULARISATION, Sprt, SprtHypotheses, likeliest_with_mean
from tilerummy.rules import PoolDraws, Rules

#: The most deals one resampled test may take, as a multiple of the deals measured.
LONGEST_TEST = 20


def resampled_tests(
    pairs: PairStats, hypotheses: SprtHypotheses, share: float, runs: int, seed: int
) -> tuple[float, dict[str | None, float]]:
    """Average games to a verdict at this share, and how often each verdict came."""
    levels = [k / pairs.games_per_deal for k in range(pairs.games_per_deal + 1)]
    counts = pairs.distribution()
    frequencies = [max(count, REGULARISATION) / sum(counts) for count in counts]
    weights = likeliest_with_mean(frequencies, levels, share)
    rng = random.Random(seed)
    lengths, verdicts = [], []
    for _ in range(runs):
        test = Sprt(hypotheses, games_per_deal=pairs.games_per_deal)
        for score in rng.choices(levels, weights, k=LONGEST_TEST * pairs.deals):
            test.add(score)
            if test.verdict is not None:
                break
        lengths.append(test.deals * pairs.games_per_deal)
        verdicts.append(test.verdict)
    return statistics.fmean(lengths), {verdict: verdicts.count(verdict) / runs for verdict in ("H0", "H1", None)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="hard,greedy", help="levels, one per seat (default hard,greedy)")
    parser.add_argument("--games", type=int, default=400, help="games with each kind of draws (default 400)")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed (default 0)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--sprt", help="hypotheses for resampled tests, e.g. p0=0.5,p1=0.55")
    parser.add_argument("--resamples", type=int, default=1000, help="resampled tests (default 1000)")
    args = parser.parse_args()
    bots = args.bots.split(",")
    hypotheses = SprtHypotheses.parse(args.sprt) if args.sprt else None
    print(f"{' vs '.join(bots)}, {args.games} games per row, deals from seed {args.seed}")
    header = f"{'draws':<9} {'win share (95% CI)':>24} {'s':>6} {'2(1-s)':>7} {'var ratio':>9} {'games ±3pp':>10}"
    if hypotheses:
        header += f" {'SPRT games at p0, wrong':>24} {'at p1, wrong':>14}"
    print(header)
    for draws in PoolDraws:
        report = run_arena(bots, args.games, seed=args.seed, rules=Rules(pool_draws=draws), workers=args.workers)
        pairs = report.pairs
        assert pairs is not None
        low, high = pairs.ci95
        ratio = pairs.variance_ratio
        line = (
            f"{draws.value:<9} {f'{pairs.mean:.3f} [{low:.3f}, {high:.3f}]':>24} {pairs.split:>6.3f}"
            f" {2 * (1 - pairs.split) if len(bots) == 2 else float('nan'):>7.3f}"
            f" {ratio if ratio is not None else float('nan'):>9.3f} {pairs.games_for(0.03) or 0:>10}"
        )
        if hypotheses:
            at_p0, verdicts_p0 = resampled_tests(pairs, hypotheses, hypotheses.p0, args.resamples, args.seed)
            at_p1, verdicts_p1 = resampled_tests(pairs, hypotheses, hypotheses.p1, args.resamples, args.seed)
            line += f" {at_p0:>17.0f}, {verdicts_p0['H1']:.3f} {at_p1:>6.0f}, {verdicts_p1['H0']:.3f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
