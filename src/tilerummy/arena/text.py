"""The arena's report as text for a terminal."""

from __future__ import annotations

from .pairs import PairStats
from .report import ArenaReport
from .sprt import SprtResult


def report_lines(report: ArenaReport) -> list[str]:
    seats = f"{report.players} players"
    lines = [
        f"{report.games} games ({seats}, mirrored deals) in {report.seconds:.1f} s: "
        f"{report.games_per_second:.2f} games per second",
        "",
        f"{'bot':<8} {'wins':>8} {'win share (95% CI)':>24} {'par':>5} {'mean score':>11} {'tiles left':>11}"
        f" {'rating (95% CI)':>22} {'move ms (median/p95)':>21}",
    ]
    for bot in report.bots:
        share = f"{bot.win_share:.3f} [{bot.ci95[0]:.3f}, {bot.ci95[1]:.3f}]"
        rating = f"{bot.rating:.0f} [{bot.rating_ci95[0]:.0f}, {bot.rating_ci95[1]:.0f}]"
        times = f"{bot.move_seconds_median * 1000:.1f} / {bot.move_seconds_p95 * 1000:.1f}"
        lines.append(
            f"{bot.name:<8} {bot.wins:>8g} {share:>24} {bot.par:>5.2f} {bot.mean_score:>+11.1f}"
            f" {bot.mean_tiles_left:>11.2f} {rating:>22} {times:>21}"
        )
    if len(report.bots) > 1:
        lines += ["", "Head to head (share of meetings won: a higher score in the same game):"]
        names = [bot.name for bot in report.bots]
        lines.append(" " * 9 + "".join(f"{name:>9}" for name in names))
        for first in names:
            cells = []
            for second in names:
                points, meetings = report.head_to_head.get((first, second), (0.0, 0))
                cells.append(f"{points / meetings:>9.3f}" if meetings else f"{'-':>9}")
            lines.append(f"{first:<9}" + "".join(cells))
    if report.pairs is not None and report.pairs.deals:
        lines += ["", *pair_lines(report.pairs)]
    if report.sprt is not None:
        lines += ["", sprt_line(report.sprt, report.pairs.bot if report.pairs else "the first bot")]
    return lines


def pair_lines(pairs: PairStats) -> list[str]:
    """The first bot's deals scored together: how they fell, the split fraction, what the mirroring saved."""
    counts = pairs.distribution()
    if pairs.games_per_deal == 2:
        fell = f"won both {counts[2]}, split {counts[1]}, lost both {counts[0]}"
    else:
        fell = ", ".join(f"won {wins} of {pairs.games_per_deal}: {count}" for wins, count in enumerate(counts))
    low, high = pairs.ci95
    lines = [
        f"Deals scored together ({pairs.bot}, {pairs.deals} deals): {fell}",
        f"  win share {pairs.mean:.3f} [{low:.3f}, {high:.3f}] (95%, from the deal scores)",
    ]
    ratio = pairs.variance_ratio
    spread = f"variance {ratio:.2f} times that of unpaired games" if ratio is not None else "no variance yet"
    formula = f" (2(1 - s) = {2 * (1 - pairs.split):.2f} at an even share)" if pairs.games_per_deal == 2 else ""
    lines.append(f"  split fraction s = {pairs.split:.3f} (the same seat won every rotation); {spread}{formula}")
    needed = pairs.games_for(0.03)
    if needed is not None:
        lines.append(f"  a ±3-point interval needs about {needed} games at this spread")
    return lines


def sprt_line(sprt: SprtResult, bot: str) -> str:
    hypotheses = sprt.hypotheses
    lower, upper = sprt.bounds
    test = (
        f"SPRT on {bot}'s win share, p0 = {hypotheses.p0:g} against p1 = {hypotheses.p1:g}"
        f" (alpha {hypotheses.alpha:g}, beta {hypotheses.beta:g})"
    )
    figures = f"LLR {sprt.llr:.2f}, bounds [{lower:.2f}, {upper:.2f}]"
    if sprt.verdict is None:
        return f"{test}: no verdict within {sprt.games} games ({sprt.deals} deals); {figures}"
    chosen, other = (hypotheses.p1, hypotheses.p0) if sprt.verdict == "H1" else (hypotheses.p0, hypotheses.p1)
    return f"{test}: {sprt.verdict} accepted ({chosen:g} rather than {other:g}) after {sprt.deals} deals ({sprt.games} games); {figures}"
