"""The protocol fuzzed: random sequences of valid and invalid messages from several clients to
the hub in-process, with connections that drop and come back and a clock that jumps. After
every step: every request got exactly one answer carrying its id, nobody saw a rack but their
own, every game replays from its stored record to the game the server holds, and the hub's
books (who is in which room and seat) agree.

Short by default; run it longer with, e.g.::

    FUZZ_EXAMPLES=500 FUZZ_STEPS=80 pytest tests/test_protocol_fuzz.py
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from tilerummy.fairness import SALT_BYTES
from tilerummy.records import GameRecord
from tilerummy.server import seating
from tilerummy.server.botpool import BotPool
from tilerummy.server.hub import Hub, Member
from tilerummy.server.limits import ServerLimits
from tilerummy.server.protocol import view_fields
from tilerummy.server.rooms import ROOM_CODE_ALPHABET
from tilerummy.server.store import open_store

from .effort import examples
from .hubkit import Inbox, ManualClock

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", str(examples(15))))
STEPS = int(os.environ.get("FUZZ_STEPS", "25"))
CLIENTS = 3
#: Long enough that no stand-in bot ever plays (the clock never moves so far): the fuzz has
#: no bots, so it stays deterministic.
GRACE = 3600
NAMES = st.sampled_from(["Ana", "Bruno", "Carla", "", " ", "x" * 30, "Ana\u0007"])
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
TYPES = [
    "hello",
    "create_room",
    "join_room",
    "quick_match",
    "leave_room",
    "start_game",
    "rematch",
    "play",
    "draw",
    "pass",
    "live_table",
    "chat",
    "mute",
    "hint",
    "resync",
    "ping",
]


class Client:
    """One person: their connection now (a member of the hub) and what they were told."""

    def __init__(self) -> None:
        self.member = Member(outbox=Inbox())
        self.read = 0
        #: The seat the person was last told they hold.
        self.seat: int | None = None
        self.tokens: dict[str, str] = {}

    @property
    def inbox(self) -> Inbox:
        assert isinstance(self.member.outbox, Inbox)
        return self.member.outbox


class HubProtocol(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.directory = tempfile.TemporaryDirectory()
        self.clock = ManualClock(1_000_000.0)
        self.started = self.clock.now
        self.hub = Hub(
            open_store(str(Path(self.directory.name) / "db.sqlite3")),
            BotPool(0),
            limits=ServerLimits(max_rooms=6),
            clock=self.clock,
            timers=self.clock,
        )
        self.clock.watch(self.hub)
        self.clients = [Client() for _ in range(CLIENTS)]
        self.next_id = 0
        self.codes: list[str] = []
        # Seeds, room codes and tokens from a seeded generator, so a failing run replays.
        randomness = random.Random(0)
        seeded = {
            "new_seed": lambda: randomness.randrange(2**63),
            "new_salt": lambda: f"{randomness.getrandbits(8 * SALT_BYTES):0{2 * SALT_BYTES}x}",
            "new_room_code": lambda taken: "".join(randomness.choice(ROOM_CODE_ALPHABET) for _ in range(6)),
            "new_token": lambda: f"token-{randomness.getrandbits(64):x}",
        }
        self.saved = {name: getattr(seating, name) for name in seeded}
        for name, value in seeded.items():
            setattr(seating, name, value)

    def teardown(self) -> None:
        for name, value in self.saved.items():
            setattr(seating, name, value)
        self.loop.run_until_complete(self.hub.close())
        self.hub.store.close()
        self.loop.close()
        self.directory.cleanup()

    @initialize(players=st.sampled_from([0, 2, 3]), turn_seconds=st.sampled_from([None, 60]))
    def start(self, players: int, turn_seconds: int | None) -> None:
        """Everyone says hello; often a game is under way before the fuzz begins."""
        self.loop.run_until_complete(self.hub.start())
        for index, name in enumerate(["Ana", "Bruno", "Carla"]):
            self.send(index, {"type": "hello", "protocol": 1, "name": name})
        if players:
            options = {"grace_seconds": GRACE, "bot_delay": 0}
            rules = {"options": {"turn_seconds": turn_seconds}}
            seats = [{"kind": "person"}] * players
            self.send(0, {"type": "create_room", "seats": seats, "options": options, "rules": rules})
            for index in range(1, players):
                self.send(index, {"type": "join_room", "code": self.codes[-1]})
            self.send(0, {"type": "start_game"})

    # --- Sending ---------------------------------------------------------------

    def send(self, index: int, message: dict[str, Any] | str) -> None:
        """Send one message (an object gets a fresh id) and check it got exactly one answer."""
        client = self.clients[index]
        request_id: int | None = None
        if isinstance(message, dict):
            self.next_id += 1
            request_id = message["id"] = self.next_id
            text = json.dumps(message)
        else:
            text = message
        before = len(client.inbox.messages)
        self.loop.run_until_complete(self.hub.receive(client.member, text))
        if client.inbox.closed is not None:
            return
        answers = [sent for sent in client.inbox.messages[before:] if sent.get("reply_to") == request_id]
        if request_id is not None:
            assert len(answers) == 1, f"{text}: {len(answers)} answers"
        for sent in client.inbox.messages[before:]:
            if sent["type"] == "joined" and sent["token"] is not None:
                client.tokens[sent["code"]] = sent["token"]
                if sent["code"] not in self.codes:
                    self.codes.append(sent["code"])

    def rack(self, index: int) -> list[str]:
        member = self.clients[index].member
        room = member.room
        if room is None or room.game is None or member.seat is None:
            return []
        view = view_fields(room.game.view(member.seat))
        return list(view["rack"] or [])

    # --- Valid messages ----------------------------------------------------------

    @rule(index=st.integers(0, CLIENTS - 1), name=NAMES)
    def hello(self, index: int, name: str) -> None:
        self.send(index, {"type": "hello", "protocol": 1, "name": name})

    @rule(
        index=st.integers(0, CLIENTS - 1),
        people=st.integers(1, 3),
        auto_start=st.booleans(),
        public=st.booleans(),
        turn_seconds=st.sampled_from([None, 1, 60]),
    )
    def create_room(self, index: int, people: int, auto_start: bool, public: bool, turn_seconds: int | None) -> None:
        seats = [{"kind": "person"}] * (people + 1)
        options = {"grace_seconds": GRACE, "bot_delay": 0, "auto_start": auto_start, "public": public}
        rules = {"options": {"turn_seconds": turn_seconds}}
        self.send(index, {"type": "create_room", "seats": seats, "options": options, "rules": rules})

    @rule(index=st.integers(0, CLIENTS - 1), pick=st.integers(0, 10), role=st.sampled_from(["player", "spectator"]))
    def join_room(self, index: int, pick: int, role: str) -> None:
        code = self.codes[pick % len(self.codes)] if self.codes else "NOROOM"
        self.send(index, {"type": "join_room", "code": code.lower() if pick % 3 == 0 else code, "role": role})

    @rule(index=st.integers(0, CLIENTS - 1), owner=st.integers(0, CLIENTS - 1), pick=st.integers(0, 10))
    def join_with_token(self, index: int, owner: int, pick: int) -> None:
        tokens = sorted(self.clients[owner].tokens.items())
        code, token = tokens[pick % len(tokens)] if tokens else ("NOROOM", "forged")
        self.send(index, {"type": "join_room", "code": code, "token": token})

    @rule(
        index=st.integers(0, CLIENTS - 1),
        kind=st.sampled_from(["quick_match", "leave_room", "start_game", "rematch", "draw", "pass", "resync", "ping"]),
    )
    def simple(self, index: int, kind: str) -> None:
        self.send(index, {"type": kind})

    @rule(who=st.integers(-1, CLIENTS - 1), data=st.data(), live=st.booleans(), honest=st.booleans())
    def lay_out(self, who: int, data: st.DataObject, live: bool, honest: bool) -> None:
        """Tiles of the rack (and, unless honest, some that are not) in sets, from anyone or
        (``who`` -1) from whoever's turn it is: mostly refused, sometimes shown or played."""
        index = self.on_turn() if who < 0 else who
        pieces = self.rack(index) + ([] if honest else ["R1", "K13", "J"])
        chosen = data.draw(st.lists(st.sampled_from(pieces), max_size=8, unique_by=id)) if pieces else []
        cut = data.draw(st.integers(1, 4))
        sets = [chosen[start : start + cut] for start in range(0, len(chosen), cut)]
        room = self.clients[index].member.room
        table = [] if room is None or room.game is None else view_fields(room.game.view(None))["table"]
        self.send(index, {"type": "live_table" if live else "play", "sets": [list(row) for row in table] + sets})

    def on_turn(self) -> int:
        """A client whose turn it is, if any (else the first)."""
        for index, client in enumerate(self.clients):
            room = client.member.room
            if room is not None and room.game is not None and room.game.turn == client.member.seat:
                return index
        return 0

    @rule(index=st.integers(0, CLIENTS - 1), text=st.text(max_size=20), name=NAMES, muted=st.booleans())
    def talk(self, index: int, text: str, name: str, muted: bool) -> None:
        self.send(index, {"type": "chat", "text": text})
        self.send(index, {"type": "mute", "name": name, "muted": muted})

    # --- Invalid messages --------------------------------------------------------

    @rule(
        index=st.integers(0, CLIENTS - 1),
        kind=st.sampled_from(TYPES),
        extra=st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=3),
        text=st.none() | st.text(max_size=40) | st.sampled_from(["[]", "{}", '{"id": 3}', "null", '{"type": 1}']),
    )
    def malformed(self, index: int, kind: str, extra: dict[str, Any], text: str | None) -> None:
        """Fields of the wrong kind, or a text that is no message at all."""
        self.send(index, {**extra, "type": kind} if text is None else text)

    # --- The world ---------------------------------------------------------------

    @rule(index=st.integers(0, CLIENTS - 1))
    def reconnect(self, index: int) -> None:
        """The connection drops; the person comes back on a new one (and must say hello again)."""
        client = self.clients[index]
        self.loop.run_until_complete(self.hub.leave(client.member, explicit=False, reply_to=None))
        client.member, client.read, client.seat = Member(outbox=Inbox()), 0, None

    @precondition(lambda self: self.clock.now + 61 < self.started + GRACE)
    @rule(seconds=st.sampled_from([0.5, 30, 61]))
    def time_passes(self, seconds: float) -> None:
        """The clock moves: deadlines fall due (timeouts), rooms nobody is in are closed."""
        self.loop.run_until_complete(self.clock.advance(seconds))
        self.loop.run_until_complete(self.hub.sweep())

    # --- What must always hold ------------------------------------------------------

    @invariant()
    def nobody_sees_a_rack_but_their_own(self) -> None:
        for client in self.clients:
            for message in client.inbox.messages[client.read :]:
                if message["type"] == "joined":
                    client.seat = message["seat"]
                elif message["type"] == "left" or message.get("reason") == "replaced":
                    client.seat = None
                game = message.get("game")
                if isinstance(game, dict):
                    assert game["seat"] == client.seat, message
                    assert (game["rack"] is None) == (game["seat"] is None)
            client.read = len(client.inbox.messages)
            member = client.member
            room = member.room
            if room is None or room.game is None or client.inbox.closed is not None:
                continue
            shown = [message["game"] for message in client.inbox.messages if isinstance(message.get("game"), dict)]
            latest = [
                game for game in shown if game["game_id"] == room.game_id and game["moves"] == len(room.game.actions)
            ]
            if latest:
                assert latest[-1]["rack"] == view_fields(room.game.view(member.seat))["rack"]

    @invariant()
    def every_game_replays_from_its_record(self) -> None:
        # An action is applied, then stored by the writer's thread, then announced: compare once stored.
        self.loop.run_until_complete(self.hub.writer.drained())
        for room in self.hub.rooms.values():
            if room.game is None or room.game_id is None:
                continue
            stored = self.hub.store.game(room.game_id)
            assert stored is not None
            replay = GameRecord.from_dict(stored.record()).replay()
            assert replay.ok, replay.error
            assert replay.game.actions == room.game.actions
            assert view_fields(replay.game.view(None)) == view_fields(room.game.view(None))

    @invariant()
    def the_books_agree(self) -> None:
        for code, room in self.hub.rooms.items():
            members = self.hub.runtime[code].members
            assert all(member.room is room for member in members)
            for seat in room.seats:
                assert seat.connections == sum(1 for member in members if member.seat == seat.index)
                assert seat.connections <= 1
            hosts = [member for member in members if member.host]
            assert len({member.seat for member in hosts}) <= 1
        for client in self.clients:
            joined = client.member.room
            if joined is not None:
                assert joined.code in self.hub.rooms and client.member in self.hub.runtime[joined.code].members


HubProtocol.TestCase.settings = settings(
    max_examples=EXAMPLES,
    stateful_step_count=STEPS,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_the_hub_answers_any_sequence_of_messages = HubProtocol.TestCase
