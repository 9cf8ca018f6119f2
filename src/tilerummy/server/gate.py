"""Who may hold a WebSocket open: connections counted in all and per address, and closed
when they fall silent (one that never says hello is closed by its own timer, in :mod:`.connection`).

The gate keeps no clock of its own: :meth:`Gate.reap` is given the time, so the server
calls it every few seconds and the tests whenever they have moved their clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .limits import ServerLimits
from .public_address import is_loopback

#: WebSocket close codes (RFC 6455, and the private range 4000-4999 for the server's own).
CLOSE_NORMAL = 1000
CLOSE_POLICY_VIOLATION = 1008
CLOSE_TRY_AGAIN_LATER = 1013
CLOSE_IDLE = 4408
CLOSE_REPLACED = 4409


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a connection is refused or closed: an error reason and sentence, then a close code."""

    reason: str
    detail: str
    close_code: int


class Watched(Protocol):
    """What the gate needs of a connection."""

    address: str
    last_heard: float

    def refuse_and_close(self, refusal: Refusal) -> None: ...


def limited_per_address(address: str) -> bool:
    """Whether the limits per address apply: not to the machine itself, which is where a reverse
    proxy that does not pass on its clients' addresses would bring everyone from."""
    return bool(address) and not is_loopback(address)


class Gate:
    def __init__(self, limits: ServerLimits) -> None:
        self.limits = limits
        self._by_address: dict[str, set[Watched]] = {}
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def from_address(self, address: str) -> int:
        return len(self._by_address.get(address, ()))

    def admit(self, connection: Watched) -> Refusal | None:
        """Count the connection in, or say why it may not stay."""
        if self._count >= self.limits.max_connections:
            return Refusal(
                "too_many_connections", "the server has as many connections as it can hold", CLOSE_TRY_AGAIN_LATER
            )
        if limited_per_address(connection.address) and (
            self.from_address(connection.address) >= self.limits.max_connections_per_address
        ):
            detail = f"at most {self.limits.max_connections_per_address} connections from one address"
            return Refusal("too_many_connections", detail, CLOSE_TRY_AGAIN_LATER)
        self._by_address.setdefault(connection.address, set()).add(connection)
        self._count += 1
        return None

    def release(self, connection: Watched) -> None:
        held = self._by_address.get(connection.address)
        if held is None or connection not in held:
            return
        held.discard(connection)
        self._count -= 1
        if not held:
            del self._by_address[connection.address]

    def reap(self, now: float) -> int:
        """Close the connections that fell silent; how many."""
        idle_seconds = self.limits.idle_seconds
        closed = 0
        for held in list(self._by_address.values()):
            for connection in list(held):
                if now - connection.last_heard >= idle_seconds:
                    detail = f"nothing heard for {idle_seconds:g} s (ping to stay connected)"
                    connection.refuse_and_close(Refusal("idle", detail, CLOSE_IDLE))
                    self.release(connection)
                    closed += 1
        return closed
