"""The profile routes (``docs/protocol.md#profiles``): make one, sign in, rename, new code.

A request that needs a profile carries its device key as ``Authorization: Bearer KEY``.
Every attempt with a key or code that matches nothing, and every profile made, is counted
against the address it came from (recovery codes against the whole server as well, which
also covers a proxy that brings every client from one address), so that neither keys nor
codes can be tried in numbers (they are 256 and 100 random bits: far beyond guessing even
without the limit) and names cannot be squatted in bulk. An address over its limit is
refused before its key or code is looked at, so a guess there tells nothing.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..ratings import PROVISIONAL_GAMES
from .gate import limited_per_address
from .limits import TokenBucket
from .profile_store import ProfileStore
from .profiles import Profile, ProfileError
from .rated_games import bots, history, leaderboard, standing
from .store import Statement

T = TypeVar("T")
#: A request's body at most (a name or a code is a few dozen bytes).
MAX_BODY = 2048
#: Attempts that match nothing: per address, a burst of 10, then one every 6 seconds.
FAILURE_RATE, FAILURE_BURST = 1 / 6, 10
#: Recovery codes that match nothing, from all addresses together: a burst of 200, then 5 a second.
SERVER_FAILURE_RATE, SERVER_FAILURE_BURST = 5.0, 200
#: Profiles made from one address: 5 at once, then one every 10 minutes.
CREATE_RATE, CREATE_BURST = 1 / 600, 5
#: Addresses whose buckets are kept (the oldest forgotten first).
ADDRESSES_KEPT = 10_000


class Attempts:
    """Token buckets per address and for the whole server, on the server's clock."""

    def __init__(self, clock: Callable[[], float], *, rate: float, burst: float, server: TokenBucket | None) -> None:
        self.clock = clock
        self.rate = rate
        self.burst = burst
        self.server = server
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def allow(self, address: str) -> bool:
        """Count one attempt from ``address``: whether it is within the limits."""
        now = self.clock()
        if self.server is not None and not self.server.allow(now):
            return False
        if not limited_per_address(address):
            return True
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = TokenBucket(rate=self.rate, burst=self.burst, now=now)
            if len(self._buckets) > ADDRESSES_KEPT:
                self._buckets.popitem(last=False)
        self._buckets.move_to_end(address)
        return bucket.allow(now)

    def left(self, address: str) -> bool:
        """Whether an attempt from ``address`` would be allowed now, without counting one."""
        bucket = self._buckets.get(address)
        now = self.clock()
        server_ok = self.server is None or self.server.has_token(now)
        return server_ok and (bucket is None or not limited_per_address(address) or bucket.has_token(now))


class ProfileService:
    """What the routes need: the profiles' store, and the limits on attempts."""

    def __init__(self, profiles: ProfileStore, clock: Callable[[], float]) -> None:
        self.profiles = profiles
        self.key_failures = Attempts(clock, rate=FAILURE_RATE, burst=FAILURE_BURST, server=None)
        self.code_failures = Attempts(
            clock,
            rate=FAILURE_RATE,
            burst=FAILURE_BURST,
            server=TokenBucket(rate=SERVER_FAILURE_RATE, burst=SERVER_FAILURE_BURST, now=clock()),
        )
        self.creations = Attempts(clock, rate=CREATE_RATE, burst=CREATE_BURST, server=None)

    async def run(self, work: Callable[[], T]) -> T:
        """A store call, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(None, work)


def service_of(request: Request) -> ProfileService:
    service: ProfileService = request.app.state.profiles
    return service


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else ""


def error_answer(status: int, reason: str, detail: str, **headers: str) -> JSONResponse:
    return JSONResponse({"error": reason, "detail": detail}, status_code=status, headers=headers or None)


def _too_many() -> JSONResponse:
    return error_answer(429, "too_many_attempts", "too many attempts from here: wait a minute", **{"Retry-After": "60"})


async def json_field(request: Request, field: str) -> str | JSONResponse:
    """The one string field a JSON body must hold, or the error to answer."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        return error_answer(413, "too_large", f"a request's body is at most {MAX_BODY} bytes")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return error_answer(400, "bad_request", "the body is not JSON")
    value = data.get(field) if isinstance(data, dict) else None
    if not isinstance(value, str):
        return error_answer(400, "bad_request", f"the body is a JSON object with a string {field!r}")
    return value


async def signed_in(request: Request) -> Profile | JSONResponse:
    """The profile whose device key the request carries, or the error to answer."""
    service = service_of(request)
    address = _address(request)
    if not service.key_failures.left(address):
        return _too_many()
    scheme, _, key = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not key.strip():
        return error_answer(401, "no_key", "send the profile's key as 'Authorization: Bearer KEY'")
    profile = await service.run(lambda: service.profiles.by_key(key.strip()))
    if profile is None:
        service.key_failures.allow(address)
        return error_answer(401, "bad_key", "this key belongs to no profile (signed out, or never made here)")
    return profile


def _refused(error: ProfileError) -> JSONResponse:
    return error_answer(409 if error.reason == "name_taken" else 400, error.reason, error.detail)


async def create_profile(request: Request) -> Response:
    service = service_of(request)
    name = await json_field(request, "name")
    if isinstance(name, JSONResponse):
        return name
    if not service.creations.left(_address(request)):
        return error_answer(429, "too_many_profiles", "too many profiles made from here: try again later")
    try:
        made = await service.run(lambda: service.profiles.create(name))
    except ProfileError as error:
        return _refused(error)
    service.creations.allow(_address(request))
    return JSONResponse(
        {"profile": made.profile.to_dict(), "key": made.key, "recovery_code": made.recovery_code}, status_code=201
    )


async def me(request: Request) -> Response:
    profile = await signed_in(request)
    if isinstance(profile, JSONResponse):
        return profile
    return JSONResponse({"profile": profile.to_dict()})


async def rename(request: Request) -> Response:
    profile = await signed_in(request)
    if isinstance(profile, JSONResponse):
        return profile
    name = await json_field(request, "name")
    if isinstance(name, JSONResponse):
        return name
    service = service_of(request)
    try:
        renamed = await service.run(lambda: service.profiles.rename(profile.id, name))
    except ProfileError as error:
        return _refused(error)
    return JSONResponse({"profile": renamed.to_dict()})


async def new_recovery_code(request: Request) -> Response:
    profile = await signed_in(request)
    if isinstance(profile, JSONResponse):
        return profile
    service = service_of(request)
    code = await service.run(lambda: service.profiles.new_recovery_code(profile.id))
    return JSONResponse({"recovery_code": code})


async def sign_out(request: Request) -> Response:
    profile = await signed_in(request)
    if isinstance(profile, JSONResponse):
        return profile
    service = service_of(request)
    key = request.headers["authorization"].partition(" ")[2].strip()
    await service.run(lambda: service.profiles.forget_key(key))
    return JSONResponse({"signed_out": True})


async def sign_in(request: Request) -> Response:
    service = service_of(request)
    address = _address(request)
    code = await json_field(request, "recovery_code")
    if isinstance(code, JSONResponse):
        return code
    if not service.code_failures.left(address):
        return _too_many()
    found = await service.run(lambda: service.profiles.recover(code))
    if found is None:
        service.code_failures.allow(address)
        return error_answer(401, "bad_code", "no profile has this recovery code")
    profile, key = found
    return JSONResponse({"profile": profile.to_dict(), "key": key})


async def public_profile(request: Request) -> Response:
    """A profile's page: its rating, its record and every rated game with its replay."""
    service = service_of(request)
    name = str(request.path_params["name"])
    profile = await service.run(lambda: service.profiles.by_name(name))
    if profile is None:
        return error_answer(404, "no_such_profile", "no profile has this name")
    found = profile

    def read(sql: Statement) -> dict[str, Any]:
        return {"standing": standing(sql, found.id).to_dict(), "games": history(sql, found.id)}

    ratings = await service.run(lambda: service.profiles.store.transact(read))
    return JSONResponse({"profile": profile.to_dict(), **ratings})


async def leaderboard_route(request: Request) -> Response:
    """The players with a settled rating, best first; the bots' ratings; and, with a key, yours."""
    service = service_of(request)
    you = None
    if request.headers.get("authorization"):
        profile = await signed_in(request)
        if isinstance(profile, JSONResponse):
            return profile
        you = profile

    def read(sql: Statement) -> dict[str, Any]:
        answer: dict[str, Any] = {"players": leaderboard(sql), "bots": bots(), "provisional_games": PROVISIONAL_GAMES}
        if you is not None:
            answer["you"] = {"profile": you.to_dict(), **standing(sql, you.id).to_dict()}
        return answer

    return JSONResponse(await service.run(lambda: service.profiles.store.transact(read)))


PROFILE_ROUTES = [
    Route("/api/profiles", create_profile, methods=["POST"]),
    Route("/api/leaderboard", leaderboard_route),
    Route("/api/profiles/{name}", public_profile),
    Route("/api/sign-in", sign_in, methods=["POST"]),
    Route("/api/me", me),
    Route("/api/me/name", rename, methods=["POST"]),
    Route("/api/me/recovery-code", new_recovery_code, methods=["POST"]),
    Route("/api/me/sign-out", sign_out, methods=["POST"]),
]
