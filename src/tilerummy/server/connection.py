"""One WebSocket connection: admission, size and rate limits, reading, and an outgoing queue.

A connection reads one message at a time and hands it to the hub; whatever
a client sends, it gets an error message back or is closed with a named
code, and never sees a stack trace. An error that refuses a message carries
its ``id`` whenever the message has one, even when the message is not read
in full (too large, over the rate). Messages to the client wait in a bounded
queue, so a client that does not read cannot hold up a room.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import MutableMapping
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from .gate import CLOSE_NORMAL, CLOSE_POLICY_VIOLATION, CLOSE_TRY_AGAIN_LATER, Gate, Refusal
from .hub import Hub, Member
from .limits import TokenBucket
from .placement import Router
from .protocol import Error, RequestId, request_id_of
from .public_address import PublicAddress

log = logging.getLogger("tilerummy.server")

#: Seconds the writer is given to send what is queued once the connection is closing.
FLUSH_SECONDS = 5.0

ORIGIN_REFUSED = Refusal(
    "origin_refused", "pages from this address may not open the server's WebSocket", CLOSE_POLICY_VIOLATION
)


class Connection:
    def __init__(
        self, websocket: WebSocket, hub: Hub, gate: Gate, public: PublicAddress, router: Router | None = None
    ) -> None:
        self.websocket = websocket
        self.hub = hub
        #: Where messages go: the hub, or in a cluster whichever process owns the room.
        self.router: Router = router or hub
        self.gate = gate
        self.public = public
        self.limits = hub.limits
        now = hub.clock()
        self.address = websocket.client.host if websocket.client is not None else "unknown"
        self.last_heard = now
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=self.limits.max_queued_messages)
        self._close_code: int | None = None
        self._close_reason = ""
        self._bucket = TokenBucket(rate=self.limits.messages_per_second, burst=self.limits.message_burst, now=now)
        # Refusals for rate in hand: one comes back each second; none left closes the connection.
        self._strikes = TokenBucket(rate=1.0, burst=self.limits.max_strikes, now=now)
        base_url = public.base_url(websocket.headers.get("host", ""), secure=websocket.url.scheme == "wss")
        self.member = Member(outbox=self, base_url=base_url, address=self.address)

    @property
    def greeted(self) -> bool:
        return self.member.name is not None

    def send(self, text: str) -> None:
        """Queue a message; a client too far behind is disconnected rather than waited for."""
        if self._close_code is not None:
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close(CLOSE_TRY_AGAIN_LATER, "too slow to read")

    def close(self, code: int, reason: str = "") -> None:
        """Stop reading and let the writer close; what is still queued is dropped when full."""
        if self._close_code is not None:
            return
        self._close_code, self._close_reason = code, reason
        while True:
            try:
                self._queue.put_nowait(None)
                return
            except asyncio.QueueFull:
                self._queue.get_nowait()

    def _close_if_nameless(self) -> None:
        if not self.greeted:
            detail = f"no hello within {self.limits.hello_seconds:g} s"
            self.refuse_and_close(Refusal("hello_first", detail, CLOSE_POLICY_VIOLATION))

    def refuse_and_close(self, refusal: Refusal, reply_to: RequestId | None = None) -> None:
        self._refuse(refusal.reason, refusal.detail, reply_to)
        self.close(refusal.close_code, refusal.reason)

    def _refuse(self, reason: str, detail: str, reply_to: RequestId | None) -> None:
        self.send(Error(reason=reason, detail=detail, reply_to=reply_to).model_dump_json())

    async def run(self) -> None:
        await self.websocket.accept()
        writer = asyncio.ensure_future(self._write_loop())
        refused = None if self.public.origin_allowed(self.websocket.headers.get("origin")) else ORIGIN_REFUSED
        refused = refused or self.gate.admit(self)
        if refused is not None:
            self.refuse_and_close(refused)
            await self._finish(writer)
            return
        # A connection that never says hello would hold its place forever.
        hello_timer = self.hub.timers.call_later(self.limits.hello_seconds, self._close_if_nameless)
        try:
            while self._close_code is None:
                message = await self.websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                await self._read(message)
        except WebSocketDisconnect:
            pass
        except Exception as error:
            # A frame the WebSocket layer refused (invalid UTF-8, say) ends the connection,
            # which is the client's doing, not the server's failure.
            log.info("a connection ended: %s", error.__class__.__name__)
        finally:
            hello_timer.cancel()
            self.gate.release(self)
            try:
                await self.router.leave(self.member, explicit=False, reply_to=None)
            except Exception:
                log.exception("leaving a room failed")
            self.close(CLOSE_NORMAL)
            await self._finish(writer)

    async def _finish(self, writer: asyncio.Future[None]) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, timeout=FLUSH_SECONDS)
        writer.cancel()

    async def _read(self, message: MutableMapping[str, Any]) -> None:
        now = self.hub.clock()
        self.last_heard = now
        text = message.get("text")
        # Every frame counts against the rate, even one refused for its form.
        if not self._bucket.allow(now):
            reply_to = request_id_of(text) if text is not None else None
            if not self._strikes.allow(now):
                detail = f"too many messages over {self.limits.messages_per_second:g} a second"
                self.refuse_and_close(Refusal("rate_limited", detail, CLOSE_POLICY_VIOLATION), reply_to)
            else:
                self._refuse("rate_limited", f"at most {self.limits.messages_per_second:g} messages a second", reply_to)
            return
        if text is None:
            self._refuse("bad_message", "send text frames holding JSON, not binary ones", None)
            return
        if len(text) > self.limits.max_message_bytes or len(text.encode()) > self.limits.max_message_bytes:
            self._refuse(
                "too_large", f"a message has at most {self.limits.max_message_bytes} bytes", request_id_of(text)
            )
            return
        await self.router.receive(self.member, text)

    async def _write_loop(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    break
                await self.websocket.send_text(text)
        except Exception:
            # The client went away: the read loop sees it too.
            self._close_code = self._close_code or CLOSE_NORMAL
        finally:
            if self.websocket.application_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await self.websocket.close(self._close_code or CLOSE_NORMAL, self._close_reason)
