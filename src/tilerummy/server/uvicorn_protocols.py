"""uvicorn's protocols, hardened: HTTP/1.1 with a deadline on a request's headers, and
WebSockets that close on a frame that is not UTF-8 without logging a traceback.

uvicorn closes a keep-alive connection that sends nothing, but one that sends
part of a request and stops (the "slowloris" attack) would be held open as
long as the client likes. Here a connection waiting for a request's headers
is closed once they have not all arrived within a few seconds.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

log = logging.getLogger("tilerummy.server")

#: RFC 6455: a text frame that is not UTF-8.
CLOSE_INVALID_DATA = 1007


def timely_http_protocol(header_seconds: float) -> type[H11Protocol]:
    """The protocol class to give uvicorn (``http=``)."""

    class TimelyH11Protocol(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            # Still idle after data came: the request's headers are not all there yet.
            if self.conn.their_state is h11.IDLE:
                self._arm()
            else:
                self._disarm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(header_seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self, *_: Any) -> None:
            self._header_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

    return TimelyH11Protocol


class QuietWebSocketsProtocol(WebSocketsSansIOProtocol):
    """A text frame that is not UTF-8 is the client's error: the connection is closed with
    1007, as uvicorn does, but noted in one line rather than as a server failure."""

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            try:
                b"".join(self.frames).decode()
            except UnicodeDecodeError:
                self.frames = []
                log.info("a text frame that is not UTF-8: the connection is closed")
                self.conn.send_close(CLOSE_INVALID_DATA)
                self.handle_parser_exception()
                return
        super().send_receive_event_to_app()
