"""Bots at the table: a bot seat's turns, a stand-in's for a player away too long, and hints.

A bot thinks in the bot pool (:mod:`.botpool`), outside the room's lock, so
the room's clock and the others' messages go on meanwhile; its answer counts
only if the game is where it was when the bot started thinking.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from ..errors import Reason
from ..game import Play
from .botpool import BotPool
from .clock import Clock, Timers, sleep
from .members import Member, room_of, seat_of
from .protocol import Hint, HintRequest
from .rated_games import figures_work
from .room_core import Act
from .rooms import Room, RoomError
from .store import Store

_T = TypeVar("_T")
#: Seconds a finished rated game's analysis may take in a worker.
FIGURES_BUDGET = 60.0

#: Thinking time a bot gets, at most; never more than its turn has left.
BOT_BUDGET_SECONDS = 3.0
#: A bot's answer must arrive this long before the deadline to count.
BOT_MARGIN_SECONDS = 0.25


class Acting(Protocol):
    async def act(self, room: Room, command: Act, *, member: Member | None = None) -> bool: ...


class BotDesk(Protocol):
    """What bots at the table need: the bot pool, the time, the room's actions, and the store
    (a finished rated game's analysis is kept as its players' figures)."""

    bots: BotPool
    clock: Clock
    timers: Timers
    bot_budget: float
    store: Store

    async def read(self, work: Callable[[], _T]) -> _T: ...

    @property
    def turns(self) -> Acting: ...


class BotTurns:
    def __init__(self, hub: BotDesk) -> None:
        self.hub = hub
        self._hinting: set[Member] = set()

    async def figure(self, game_id: str) -> None:
        """Analyse a finished rated game in the bot pool and keep each profile's figures from it:
        tiles placed against the most that could have been, and go-outs missed (``docs/ratings.md``)."""
        stored = await self.hub.read(lambda: self.hub.store.game(game_id))
        if stored is None or stored.result is None:
            return
        analysis = await self.hub.bots.analyse(stored.record(), FIGURES_BUDGET)
        if analysis is not None:
            work = figures_work(game_id, analysis["players"])
            await self.hub.read(lambda: self.hub.store.transact(work))

    async def play(self, room: Room, moves: int, level: str, *, stand_in: bool) -> None:
        """Play the turn after move ``moves`` for its seat, unless the game moved on meanwhile."""
        game = room.game
        assert game is not None
        await sleep(self.hub.timers, room.options.bot_delay)
        async with room.lock:
            # Read under the lock: an action may be under way in the store's thread.
            if room.game is not game or len(game.actions) != moves:
                return
            seat = game.turn
            view = game.view(seat)
            deadline = game.deadline
        budget = self.hub.bot_budget
        if deadline is not None:
            budget = min(budget, deadline - self.hub.clock() - BOT_MARGIN_SECONDS)
        seed = ((game.deal.seed or 0) + moves) % 2**63
        chosen = await self.hub.bots.choose(level, seed, view, budget)
        async with room.lock:
            if room.game is not game or len(game.actions) != moves:
                return
            at = self.hub.clock()
            if stand_in and not room.seats[seat].stand_in(at, room.options.grace_seconds):
                return
            fallback = Act(seat, "draw" if game.pool_size else "pass", at, stand_in=stand_in)
            action = fallback
            if isinstance(chosen, Play) and chosen.seat == seat:
                action = Act(seat, "play", at, chosen.table, stand_in=stand_in)
            turns = self.hub.turns
            if not await turns.act(room, action) and action is not fallback and len(game.actions) == moves:
                await turns.act(room, fallback)

    async def on_hint(self, member: Member, message: HintRequest) -> None:
        """The solver's best play for the member's own turn, in a room that gives hints."""
        # One hint at a time per connection: hints share the bots' workers.
        if member in self._hinting:
            raise RoomError("rate_limited", "a hint is already being worked out")
        room = room_of(member)
        async with room.lock:
            if not room.options.hints:
                raise RoomError("hints_off", "this room does not give hints")
            seat = seat_of(member, room)
            game = room.game
            assert game is not None
            if game.turn != seat:
                raise RoomError(Reason.NOT_YOUR_TURN.value, "hints are given on your own turn")
            view = game.view(seat)
        # The solver thinks outside the room's lock, so the room's clock and others' messages go on.
        self._hinting.add(member)
        try:
            solution = await self.hub.bots.suggest(view, self.hub.bot_budget)
        finally:
            self._hinting.discard(member)
        if solution is None:
            member.send(Hint(sets=None, placed=[], reply_to=message.id))
        else:
            member.send(
                Hint(
                    sets=[str(meld).split() for meld in solution.table],
                    placed=[str(tile) for tile in solution.placed],
                    reply_to=message.id,
                )
            )
