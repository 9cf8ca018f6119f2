"""The arena's results as a picture: win shares with their intervals, and ratings."""

from __future__ import annotations

from pathlib import Path

from ..errors import TilerummyError
from .report import ArenaReport


def draw_report(report: ArenaReport, path: str | Path, *, title: str = "") -> None:
    """Write a PNG or SVG (by the file's suffix) of each bot's win share against par, and rating.

    :raises TilerummyError: when matplotlib is missing or the suffix is neither.
    """
    suffix = Path(path).suffix.lower()
    if suffix not in (".png", ".svg"):
        raise TilerummyError(f"{path}: name a .png or .svg file")
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: never open a window
        import matplotlib.pyplot as plt
    except ImportError:
        raise TilerummyError("plots need matplotlib: pip install 'tilerummy[plot]'") from None
    names = [bot.name for bot in report.bots]
    figure, (shares, ratings) = plt.subplots(1, 2, figsize=(10, 1.2 + 0.6 * len(names)), layout="constrained")
    positions = list(range(len(names)))
    for position, bot in zip(positions, report.bots, strict=True):
        shares.barh(position, bot.win_share, color="#3b7dd8")
        shares.errorbar(
            bot.win_share,
            position,
            xerr=[[bot.win_share - bot.ci95[0]], [bot.ci95[1] - bot.win_share]],
            color="black",
            capsize=4,
        )
        shares.plot([bot.par, bot.par], [position - 0.4, position + 0.4], color="#d83b3b", linestyle="--")
        ratings.errorbar(
            bot.rating,
            position,
            xerr=[[bot.rating - bot.rating_ci95[0]], [bot.rating_ci95[1] - bot.rating]],
            fmt="o",
            color="#3b7dd8",
            capsize=4,
        )
    for axes in (shares, ratings):
        axes.set_yticks(positions, names)
        axes.invert_yaxis()
    shares.set_xlim(0, 1)
    shares.set_xlabel("win share, 95% Wilson interval (dashed: par)")
    ratings.set_xlabel("rating, 95% interval")
    figure.suptitle(f"{title}\n{report.games} games, {report.games_per_second:.2f} games/s" if title else "")
    figure.savefig(path)
    plt.close(figure)
