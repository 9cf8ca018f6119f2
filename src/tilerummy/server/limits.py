"""Limits on what one connection may send: sizes and rates."""

from __future__ import annotations

from dataclasses import dataclass

from .protocol import CHAT_MAX_CHARS
from .protocol import Limits as LimitsMessage


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """The limits the server enforces, told to each client in its welcome (``docs/protocol.md``)."""

    max_message_bytes: int = 16 * 1024
    messages_per_second: float = 20.0
    message_burst: int = 40
    chats_per_minute: int = 12
    #: Chat lines that may be sent at once, before ``chats_per_minute`` paces them.
    chat_burst: int = 3
    #: Messages refused for rate a connection may have in hand before it is closed; one is
    #: forgiven each second, so a client that slips over now and then is never closed, while
    #: a flood is, however it is paced.
    max_strikes: int = 50
    #: Rooms that are open or playing, at most.
    max_rooms: int = 2000
    #: Rooms open or playing that connections from one address have created, at most.
    max_rooms_per_address: int = 10
    #: WebSocket connections at once, and from one address.
    max_connections: int = 5000
    max_connections_per_address: int = 50
    #: A connection the server has heard nothing from for this long is closed (clients ping).
    idle_seconds: float = 120.0
    #: A connection has this long to say hello.
    hello_seconds: float = 30.0
    #: An open room nobody is in is closed this long after the last person left.
    empty_room_seconds: float = 60.0
    #: Messages queued for a client that reads too slowly, before it is dropped.
    max_queued_messages: int = 500

    def message(self) -> LimitsMessage:
        return LimitsMessage(
            max_message_bytes=self.max_message_bytes,
            messages_per_second=self.messages_per_second,
            message_burst=self.message_burst,
            chat_max_chars=CHAT_MAX_CHARS,
            chats_per_minute=self.chats_per_minute,
            chat_burst=self.chat_burst,
            idle_seconds=self.idle_seconds,
            max_rooms_per_address=self.max_rooms_per_address,
            max_connections_per_address=self.max_connections_per_address,
        )


class TokenBucket:
    """Allows ``rate`` events a second on average, ``burst`` at once.

    Time is passed in, so the bucket is pure and testable.

    >>> bucket = TokenBucket(rate=1, burst=2, now=0)
    >>> [bucket.allow(0), bucket.allow(0), bucket.allow(0), bucket.allow(1)]
    [True, True, False, True]
    """

    __slots__ = ("_last", "_tokens", "burst", "rate")

    def __init__(self, *, rate: float, burst: float, now: float) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError(f"rate={rate}, burst={burst}: a bucket needs a positive rate and a burst of at least 1")
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._last = now

    def has_token(self, now: float) -> bool:
        """Whether :meth:`allow` would allow one now (nothing is taken)."""
        return min(self.burst, self._tokens + max(0.0, now - self._last) * self.rate) >= 1

    def allow(self, now: float) -> bool:
        """Take one token if there is one."""
        elapsed = max(0.0, now - self._last)
        self._last = max(self._last, now)
        self._tokens = min(self.burst, self._tokens + elapsed * self.rate)
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False
