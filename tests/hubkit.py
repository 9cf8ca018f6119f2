"""The hub in-process, for the server's tests: members whose messages land in a list."""

from __future__ import annotations

import json
from typing import Any

from tilerummy.server.hub import Hub, Member
from tilerummy.server.protocol import parse_client_message


class Inbox:
    """Stands in for a WebSocket: keeps what the hub sends, decoded."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.messages.append(json.loads(text))


async def say(hub: Hub, member: Member, **message: Any) -> dict[str, Any]:
    """The first message the member gets in answer."""
    inbox = member.outbox
    assert isinstance(inbox, Inbox)
    before = len(inbox.messages)
    await hub.handle(member, parse_client_message(json.dumps(message)))
    return inbox.messages[before]


async def two_players_draw_to_the_end(hub: Hub, *, rules: dict[str, Any] | None = None) -> tuple[str, Member, Member]:
    """Ana and Bruno start a game and draw (then pass) until it is over; the room's code and the two members."""
    ana, bruno = Member(outbox=Inbox()), Member(outbox=Inbox())
    await say(hub, ana, type="hello", protocol=1, name="Ana")
    await say(hub, bruno, type="hello", protocol=1, name="Bruno")
    joined = await say(
        hub, ana, type="create_room", seats=[{"kind": "person"}] * 2, rules=rules or {"preset": "casual"}
    )
    await say(hub, bruno, type="join_room", code=joined["code"])
    await say(hub, ana, type="start_game")
    room = hub.rooms[joined["code"]]
    assert room.game is not None
    members = {0: ana, 1: bruno}
    for _ in range(300):
        if room.game.is_over:
            break
        answer = await say(hub, members[room.game.turn], type="draw" if room.game.pool_size else "pass")
        assert answer["type"] == "game", answer
    assert room.game.is_over
    return joined["code"], ana, bruno
