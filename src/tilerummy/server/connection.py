"""One WebSocket connection: size and rate limits, reading, and an outgoing queue.

A connection reads one message at a time and hands it to the hub; whatever
a client sends, it gets an error message back or is closed with a named
code, and never sees a stack trace. Messages to the client wait in a
bounded queue, so a client that does not read cannot hold up a room.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import MutableMapping
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from .hub import Hub, Member
from .limits import TokenBucket
from .protocol import BadMessage, Error, parse_client_message

log = logging.getLogger("tilerummy.server")

#: WebSocket close codes (RFC 6455).
CLOSE_POLICY_VIOLATION = 1008
CLOSE_TOO_SLOW = 1013

HELLO_SECONDS = 30.0


class Connection:
    def __init__(self, websocket: WebSocket, hub: Hub) -> None:
        self.websocket = websocket
        self.hub = hub
        self.limits = hub.limits
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=self.limits.max_queued_messages)
        self._close_code: int | None = None
        self._bucket = TokenBucket(
            rate=self.limits.messages_per_second, burst=self.limits.message_burst, now=hub.clock()
        )
        self._strikes = 0
        self.member = Member(outbox=self, base_url=_base_url(websocket))

    def send(self, text: str) -> None:
        """Queue a message; a client too far behind is disconnected rather than waited for."""
        if self._close_code is not None:
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self._close(CLOSE_TOO_SLOW)

    def _close(self, code: int) -> None:
        """Stop reading and let the writer close; what is still queued is dropped when full."""
        self._close_code = code
        while True:
            try:
                self._queue.put_nowait(None)
                return
            except asyncio.QueueFull:
                self._queue.get_nowait()

    def _close_if_nameless(self) -> None:
        if self.member.name is None:
            self._refuse("hello_first", f"no hello within {HELLO_SECONDS:g} s")
            self._close(CLOSE_POLICY_VIOLATION)

    def _refuse(self, reason: str, detail: str) -> None:
        self.send(Error(reason=reason, detail=detail).model_dump_json())

    async def run(self) -> None:
        await self.websocket.accept()
        writer = asyncio.ensure_future(self._write_loop())
        # A connection that never says hello would hold its place forever.
        hello_timer = self.hub.timers.call_later(HELLO_SECONDS, self._close_if_nameless)
        try:
            while self._close_code is None:
                message = await self.websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                await self._read(message)
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("a connection failed")
        finally:
            hello_timer.cancel()
            try:
                await self.hub.leave(self.member, explicit=False, reply_to=None)
            except Exception:
                log.exception("leaving a room failed")
            self._close(self._close_code or 1000)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, timeout=5)
            writer.cancel()

    async def _read(self, message: MutableMapping[str, Any]) -> None:
        # Every frame counts against the rate, even one refused for its form.
        if not self._bucket.allow(self.hub.clock()):
            self._strikes += 1
            if self._strikes >= self.limits.max_strikes:
                self._close(CLOSE_POLICY_VIOLATION)
            else:
                self._refuse("rate_limited", f"at most {self.limits.messages_per_second:g} messages a second")
            return
        self._strikes = 0
        text = message.get("text")
        if text is None:
            self._refuse("bad_message", "send text frames holding JSON, not binary ones")
            return
        if len(text) > self.limits.max_message_bytes or len(text.encode()) > self.limits.max_message_bytes:
            self._refuse("too_large", f"a message has at most {self.limits.max_message_bytes} bytes")
            return
        try:
            parsed = parse_client_message(text)
        except BadMessage as error:
            self.send(Error(reason="bad_message", detail=str(error), reply_to=error.request_id).model_dump_json())
            return
        try:
            await self.hub.handle(self.member, parsed)
        except Exception:
            log.exception("a %s message failed", parsed.type)
            self.send(
                Error(
                    reason="server_error", detail="the server failed on this message", reply_to=parsed.id
                ).model_dump_json()
            )

    async def _write_loop(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    break
                await self.websocket.send_text(text)
        except Exception:
            # The client went away: the read loop sees it too.
            self._close_code = self._close_code or 1000
        finally:
            if self.websocket.application_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await self.websocket.close(self._close_code or 1000)


def _base_url(websocket: WebSocket) -> str:
    """The address the client used, as an http(s) URL; empty when the request names no host."""
    host = websocket.headers.get("host", "")
    if not host or any(char in host for char in "/\\ @"):
        return ""
    scheme = "https" if websocket.url.scheme == "wss" else "http"
    return f"{scheme}://{host}"
