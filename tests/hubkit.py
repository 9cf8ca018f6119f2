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
