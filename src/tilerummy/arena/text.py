"""The arena's report as text for a terminal."""

from __future__ import annotations

from .report import ArenaReport


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
    return lines
