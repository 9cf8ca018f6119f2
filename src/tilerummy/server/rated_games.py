"""Rated games: who sat where, the ratings each finished game leaves, the leaderboard.

A rated game's seats are written when it starts (``rated_games``); when it ends, the
players' new ratings are written in the same transaction as its result
(:attr:`.store.Change.also`), and only if no rating of that game is stored yet: a
rating changes exactly once per finished game, whatever process writes it and however
often the write is tried. Each row of ``ratings`` is one profile's rating after one
game; a profile's rating is its latest row, its games the number of its rows. Bots
have fixed, published ratings (:data:`tilerummy.ratings.BOT_RATINGS`, calibrated from arena
games as ``docs/ratings.md`` tells) that never move; a game against a level without one is
not rated.
``docs/ratings.md`` tells the method.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..ratings import BOT_RATINGS, PROVISIONAL_GAMES, Rater, Rating, places
from .store import Statement

#: The rater of every rated game (its model: docs/ratings.md).
RATER = Rater()
#: Players shown on the leaderboard at most.
LEADERBOARD_SIZE = 100


def start_work(game_id: str, seats: Sequence[dict[str, str]]) -> Callable[[Statement], None]:
    """What starting a rated game writes: who sits in each seat."""

    def work(sql: Statement) -> None:
        if not sql("SELECT 1 FROM rated_games WHERE game = ?", (game_id,)):
            sql("INSERT INTO rated_games (game, seats) VALUES (?, ?)", (game_id, json.dumps(list(seats))))

    return work


def finish_work(
    game_id: str, scores: Sequence[int], abandoned: Sequence[int], at: float
) -> Callable[[Statement], None]:
    """What ending a game writes: its players' new ratings, if it is rated and not yet rated."""

    def work(sql: Statement) -> None:
        rows = sql("SELECT seats FROM rated_games WHERE game = ?", (game_id,))
        if not rows or sql("SELECT 1 FROM ratings WHERE game = ?", (game_id,)):
            return
        seats: list[dict[str, str]] = json.loads(rows[0][0])
        before = [_seat_rating(sql, seat) for seat in seats]
        order = places(scores, abandoned=abandoned)
        after = RATER.rate(before, ranks=order)
        for seat, rating, place, score in zip(seats, after, order, scores, strict=True):
            if "profile" in seat:
                sql(
                    "INSERT INTO ratings (profile, game, mu, sigma, place, players, score, at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (seat["profile"], game_id, rating.mu, rating.sigma, place, len(seats), score, at),
                )

    return work


def figures_work(game_id: str, players: Sequence[dict[str, Any]]) -> Callable[[Statement], None]:
    """What a rated game's analysis leaves for its profiles: each one's tiles placed, the most it
    could have placed, and the go-outs it missed (the analysis's player summaries, by seat)."""

    def work(sql: Statement) -> None:
        rows = sql("SELECT seats FROM rated_games WHERE game = ?", (game_id,))
        if not rows:
            return
        for seat, summary in zip(json.loads(rows[0][0]), players, strict=False):
            profile = seat.get("profile")
            if profile is None or sql("SELECT 1 FROM game_figures WHERE profile = ? AND game = ?", (profile, game_id)):
                continue
            sql(
                "INSERT INTO game_figures (profile, game, placed, best, missed_go_outs) VALUES (?, ?, ?, ?, ?)",
                (profile, game_id, int(summary["placed"]), int(summary["best"]), int(summary["missed_go_outs"])),
            )

    return work


def _seat_rating(sql: Statement, seat: dict[str, str]) -> Rating:
    if "bot" in seat:
        return BOT_RATINGS[seat["bot"]]
    return profile_rating(sql, seat["profile"])


def profile_rating(sql: Statement, profile_id: str) -> Rating:
    """A profile's rating now: after its latest rated game, or a new player's."""
    latest = sql("SELECT mu, sigma FROM ratings WHERE profile = ? ORDER BY at DESC, game DESC LIMIT 1", (profile_id,))
    if not latest:
        return Rating()
    games = sql("SELECT COUNT(*) FROM ratings WHERE profile = ?", (profile_id,))[0][0]
    return Rating(float(latest[0][0]), float(latest[0][1]), int(games))


@dataclass(frozen=True, slots=True)
class Standing:
    """A profile's rating and record, as its page and the leaderboard show them."""

    rating: Rating
    wins: int
    mean_score: float | None
    place: int | None  # on the leaderboard, 1 first; None while provisional
    placed: int = 0  # over the analysed rated games: rack tiles placed,
    best: int = 0  # the most that could have been placed,
    missed_go_outs: int = 0  # and the turns that could have gone out and did not
    analysed: int = 0

    def to_dict(self) -> dict[str, Any]:
        games = self.rating.games
        return {
            "rating": self.rating.shown,
            "sigma": round(self.rating.sigma, 1),
            "provisional": self.rating.provisional,
            "games": games,
            "wins": self.wins,
            "win_share": round(self.wins / games, 3) if games else None,
            "mean_score": None if self.mean_score is None else round(self.mean_score, 1),
            "place": self.place,
            "analysed_games": self.analysed,
            # Nothing could ever be placed: nothing was missed.
            "placed_share": round(self.placed / self.best, 3) if self.best else (1.0 if self.analysed else None),
            "missed_go_outs": self.missed_go_outs,
        }


def standing(sql: Statement, profile_id: str) -> Standing:
    rating = profile_rating(sql, profile_id)
    totals = sql(
        "SELECT COALESCE(SUM(CASE WHEN place = 0 THEN 1 ELSE 0 END), 0), AVG(score) FROM ratings WHERE profile = ?",
        (profile_id,),
    )[0]
    place = None
    if not rating.provisional:
        ahead = [row for row in _latest(sql) if row[4] >= PROVISIONAL_GAMES and float(row[2]) > rating.mu]
        place = len(ahead) + 1
    figures = sql(
        "SELECT COUNT(*), COALESCE(SUM(placed), 0), COALESCE(SUM(best), 0), COALESCE(SUM(missed_go_outs), 0)"
        " FROM game_figures WHERE profile = ?",
        (profile_id,),
    )[0]
    return Standing(
        rating,
        int(totals[0]),
        None if totals[1] is None else float(totals[1]),
        place,
        placed=int(figures[1]),
        best=int(figures[2]),
        missed_go_outs=int(figures[3]),
        analysed=int(figures[0]),
    )


def _latest(sql: Statement) -> list[tuple[Any, ...]]:
    """Per rated profile: id, name, its latest mu and sigma, its games and its wins."""
    return sql(
        "SELECT r.profile, p.name, r.mu, r.sigma, c.games, c.wins FROM ratings r"
        " JOIN (SELECT profile, MAX(at) AS at, COUNT(*) AS games,"
        " SUM(CASE WHEN place = 0 THEN 1 ELSE 0 END) AS wins FROM ratings GROUP BY profile) c"
        " ON c.profile = r.profile AND c.at = r.at"
        " JOIN profiles p ON p.id = r.profile",
        (),
    )


def leaderboard(sql: Statement, *, size: int = LEADERBOARD_SIZE) -> list[dict[str, Any]]:
    """The players past their provisional games, highest rating first."""
    rows = sorted(
        (row for row in _latest(sql) if int(row[4]) >= PROVISIONAL_GAMES), key=lambda row: (-float(row[2]), row[1])
    )
    return [
        {
            "place": number,
            "profile": {"id": row[0], "name": row[1]},
            "rating": round(float(row[2])),
            "sigma": round(float(row[3]), 1),
            "games": int(row[4]),
            "wins": int(row[5]),
            "win_share": round(int(row[5]) / int(row[4]), 3),
        }
        for number, row in enumerate(rows[:size], start=1)
    ]


def history(sql: Statement, profile_id: str) -> list[dict[str, Any]]:
    """The profile's rated games, oldest first: its rating after each, its place and score."""
    rows = sql(
        "SELECT r.game, r.mu, r.sigma, r.place, r.players, r.score, r.at, f.placed, f.best, f.missed_go_outs"
        " FROM ratings r LEFT JOIN game_figures f ON f.profile = r.profile AND f.game = r.game"
        " WHERE r.profile = ? ORDER BY r.at, r.game",
        (profile_id,),
    )
    return [
        {
            "game": row[0],
            "rating": round(float(row[1])),
            "sigma": round(float(row[2]), 1),
            "place": int(row[3]),
            "players": int(row[4]),
            "score": int(row[5]),
            "at": float(row[6]),
            "placed": None if row[7] is None else int(row[7]),
            "best": None if row[8] is None else int(row[8]),
            "missed_go_outs": None if row[9] is None else int(row[9]),
            "record": f"/api/games/{row[0]}/record",
            "analysis": f"/api/games/{row[0]}/analysis",
            "replay": f"/replay/{row[0]}",
        }
        for row in rows
    ]


def bots() -> list[dict[str, Any]]:
    """The bots' published ratings, strongest first."""
    return [
        {"level": level, "rating": rating.shown, "sigma": round(rating.sigma, 1)}
        for level, rating in sorted(BOT_RATINGS.items(), key=lambda item: -item[1].mu)
    ]
