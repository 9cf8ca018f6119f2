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
        self.closed: tuple[int, str] | None = None

    def send(self, text: str) -> None:
        if self.closed is None:
            self.messages.append(json.loads(text))

    def close(self, code: int, reason: str) -> None:
        self.closed = self.closed or (code, reason)


async def say(hub: Hub, member: Member, **message: Any) -> dict[str, Any]:
    """The first message the member gets in answer."""
    inbox = member.outbox
    assert isinstance(inbox, Inbox)
    before = len(inbox.messages)
    await hub.handle(member, parse_client_message(json.dumps(message)))
    return inbox.messages[before]


async def ask(hub: Hub, member: Member, **message: Any) -> dict[str, Any]:
    """The answer to a request (the message carrying its id as reply_to); the id is "ask" when none is given."""
    message.setdefault("id", "ask")
    inbox = member.outbox
    assert isinstance(inbox, Inbox)
    before = len(inbox.messages)
    await hub.handle(member, parse_client_message(json.dumps(message)))
    answers = [sent for sent in inbox.messages[before:] if sent.get("reply_to") == message["id"]]
    assert len(answers) == 1, f"{message['type']}: {len(answers)} answers"
    return answers[0]
