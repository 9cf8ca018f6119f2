"""The daily puzzle's routes (``docs/protocol.md#puzzles``): the position, an answer judged, the solution.

The puzzle of a day is the same for everyone (:func:`tilerummy.puzzles.daily`). A profile's first
try at a puzzle is rated, lichess style: a solved puzzle is a win for the player and a loss for
the puzzle, a wrong answer or a look at the solution the reverse (``docs/ratings.md``). Puzzle
ratings are a pool of their own, apart from the games'. A try and both new ratings are written
in one transaction, and only if the profile has no try at that puzzle yet.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import re
import secrets
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..puzzles import Puzzle, daily, generate, judge_answer
from ..ratings import PUZZLE_RATINGS, Rater, Rating, puzzle_rating
from ..tiles import format_tiles
from .profile_routes import error_answer, json_field, service_of, signed_in
from .profiles import Profile
from .store import Statement

RATER = Rater()
PREFIX = "daily-"


@functools.lru_cache(maxsize=64)
def _made(name: str) -> Puzzle:
    """The puzzle a name stands for: ``daily-YYYY-MM-DD``, or ``pL-SEED`` (level L, from SEED)."""
    if name.startswith(PREFIX):
        return daily(datetime.date.fromisoformat(name.removeprefix(PREFIX)))
    level, _, seed = name.removeprefix("p").partition("-")
    return generate(int(seed), level=int(level))


async def _puzzle(request: Request, name: str | None = None) -> tuple[str, Puzzle] | JSONResponse:
    """The puzzle the path or the query names (today's by default), or the error to answer; it is
    worked out off the event loop (a new one can take a large part of a second)."""
    service = service_of(request)
    today = datetime.datetime.fromtimestamp(service.profiles.clock(), datetime.UTC).date()
    name = name or request.path_params.get("puzzle") or PREFIX + request.query_params.get("date", today.isoformat())
    name = str(name)
    if name.startswith(PREFIX):
        try:
            date = datetime.date.fromisoformat(name.removeprefix(PREFIX))
        except ValueError:
            return error_answer(404, "no_such_puzzle", "a day's puzzle is named daily-YYYY-MM-DD")
        if date > today:
            return error_answer(404, "no_such_puzzle", "no puzzle has this name yet")
        name = f"{PREFIX}{date.isoformat()}"
    elif not re.fullmatch(r"p[1-4]-[0-9]{1,18}", name):
        return error_answer(404, "no_such_puzzle", "a puzzle is named daily-YYYY-MM-DD or pLEVEL-SEED")
    chosen = name
    return chosen, await service.run(lambda: _made(chosen))


def _rating(sql: Statement, table: str, key: str, key_value: str, default: Rating) -> Rating:
    rows = sql(f"SELECT mu, sigma FROM {table} WHERE {key} = ? ORDER BY at DESC LIMIT 1", (key_value,))
    return Rating(float(rows[0][0]), float(rows[0][1])) if rows else default


def _record_try(profile: Profile, name: str, puzzle: Puzzle, solved: bool, at: float) -> Any:
    """The work of a profile's try: its first at the puzzle rates both; later ones change nothing."""

    def work(sql: Statement) -> dict[str, Any] | None:
        if sql("SELECT 1 FROM puzzle_tries WHERE profile = ? AND puzzle = ?", (profile.id, name)):
            return None
        player = _rating(sql, "puzzle_tries", "profile", profile.id, Rating())
        before = _rating(sql, "puzzle_tries", "puzzle", name, puzzle_rating(puzzle.level))
        player, after = RATER.rate_puzzle(player, before, solved=solved)
        sql(
            "INSERT INTO puzzle_tries (profile, puzzle, solved, mu, sigma, puzzle_mu, puzzle_sigma, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (profile.id, name, int(solved), player.mu, player.sigma, after.mu, after.sigma, at),
        )
        return {"puzzle_rating": player.shown, "puzzle_rated": after.shown}

    return work


def _position(name: str, puzzle: Puzzle, rating: int) -> dict[str, Any]:
    return {
        "id": name,
        "date": name.removeprefix(PREFIX) if name.startswith(PREFIX) else None,
        "level": puzzle.level,
        "rating": rating,
        "rack": [str(tile) for tile in puzzle.rack],
        "table": [[str(tile) for tile in meld] for meld in puzzle.table.melds],
        "initial_meld_done": puzzle.initial_meld_done,
        "best": puzzle.best,
    }


async def daily_puzzle(request: Request) -> Response:
    found = await _puzzle(request)
    if isinstance(found, JSONResponse):
        return found
    name, puzzle = found
    service = service_of(request)
    rating = await service.run(
        lambda: service.profiles.store.transact(
            lambda sql: _puzzle_mu(sql, name, puzzle),
        )
    )
    return JSONResponse(_position(name, puzzle, rating))


def _puzzle_mu(sql: Statement, name: str, puzzle: Puzzle) -> int:
    rows = sql("SELECT puzzle_mu FROM puzzle_tries WHERE puzzle = ? ORDER BY at DESC LIMIT 1", (name,))
    return round(float(rows[0][0])) if rows else puzzle_rating(puzzle.level).shown


async def answer(request: Request) -> Response:
    """Judge a table (the whole table after the play); with a key, the profile's first try is rated."""
    found = await _puzzle(request)
    if isinstance(found, JSONResponse):
        return found
    name, puzzle = found
    table = await json_field(request, "table")
    if isinstance(table, JSONResponse):
        return table
    verdict = judge_answer(puzzle, table)
    reply: dict[str, Any] = {
        "solved": verdict.solved,
        "legal": verdict.legal,
        "placed": len(verdict.placed),
        "best": puzzle.best,
        "detail": verdict.message,
    }
    if verdict.legal and request.headers.get("authorization"):
        rated = await _rated_try(request, name, puzzle, solved=verdict.solved)
        if isinstance(rated, JSONResponse):
            return rated
        reply.update(rated)
    return JSONResponse(reply)


async def solution(request: Request) -> Response:
    """The answer; for a profile that has not solved the puzzle yet, a look at it is a failed try."""
    found = await _puzzle(request)
    if isinstance(found, JSONResponse):
        return found
    name, puzzle = found
    reply: dict[str, Any] = {
        "answer_placed": format_tiles(puzzle.answer),
        "answer_table": [[str(tile) for tile in meld] for meld in puzzle.answer_table.melds],
        "changed_sets": puzzle.changed_sets,
    }
    if request.headers.get("authorization"):
        rated = await _rated_try(request, name, puzzle, solved=False)
        if isinstance(rated, JSONResponse):
            return rated
        reply.update(rated)
    return JSONResponse(reply)


async def _rated_try(request: Request, name: str, puzzle: Puzzle, *, solved: bool) -> dict[str, Any] | JSONResponse:
    profile = await signed_in(request)
    if isinstance(profile, JSONResponse):
        return profile
    service = service_of(request)
    at = service.profiles.clock()
    done = await service.run(lambda: service.profiles.store.transact(_record_try(profile, name, puzzle, solved, at)))
    return {"rated": done is not None, **(done or {})}


async def next_puzzle(request: Request) -> Response:
    """A further puzzle near the player's puzzle rating (a guest's: the first level, or ``?level=``),
    a new one after each try."""
    level = 1
    seed_text = secrets.token_hex(8)
    if request.headers.get("authorization"):
        profile = await signed_in(request)
        if isinstance(profile, JSONResponse):
            return profile
        service = service_of(request)
        mine, tries = await service.run(lambda: service.profiles.store.transact(lambda sql: _standing(sql, profile.id)))
        level = min(PUZZLE_RATINGS, key=lambda candidate: abs(PUZZLE_RATINGS[candidate] - mine))
        seed_text = f"{profile.id} {tries}"
    elif request.query_params.get("level", "1") in {"1", "2", "3", "4"}:
        level = int(request.query_params.get("level", "1"))
    seed = int.from_bytes(hashlib.sha256(seed_text.encode()).digest()[:7], "big")
    found = await _puzzle(request, f"p{level}-{seed}")
    if isinstance(found, JSONResponse):
        return found
    name, puzzle = found
    return JSONResponse(_position(name, puzzle, puzzle_rating(puzzle.level).shown))


def _standing(sql: Statement, profile_id: str) -> tuple[float, int]:
    """A profile's puzzle rating now, and its tries so far."""
    rating = _rating(sql, "puzzle_tries", "profile", profile_id, Rating())
    return rating.mu, int(sql("SELECT COUNT(*) FROM puzzle_tries WHERE profile = ?", (profile_id,))[0][0])


PUZZLE_ROUTES = [
    Route("/api/puzzles/daily", daily_puzzle),
    Route("/api/puzzles/next", next_puzzle),
    Route("/api/puzzles/{puzzle}", daily_puzzle),
    Route("/api/puzzles/{puzzle}/answer", answer, methods=["POST"]),
    Route("/api/puzzles/{puzzle}/solution", solution),
]
