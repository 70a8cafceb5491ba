"""Connections are a budget: idle or slow clients cannot starve the table display.

A venue's network has guests on it. A client that opens connections and sends nothing holds
a file descriptor each; at a Pi's 1024 descriptors the server can accept nothing more (Python's
accept loop then logs ``socket.accept() out of system resource`` again and again) and the
display's ``GET /`` goes unanswered. aiohttp has no limit of its own, so every connection
passes through :class:`ConnectionGuard` first:

- one client address holds at most ``per_address`` connections: over it, that address's own
  oldest connection is closed (the oldest that has sent nothing, else the oldest still
  sending its first request head, else simply its oldest: a slow body, a stalled upload);
  one guest can never take what the display's machine needs;
- at most ``max_connections`` are held in all. A new one over the limit makes room by closing
  the oldest connection that has not sent a byte yet, else the oldest still sending its
  first request head, else the oldest of the address holding the most. A real client sends
  its request at once, so it is never the one closed while idle sockets are;
- a connection must have sent its first request head within ``header_timeout_s`` (a client
  that sends nothing, or a header a byte a minute, is closed);
- a kept-alive connection idle for ``keepalive_s`` is closed (aiohttp's keep-alive timeout).

Request bodies are capped by the application (``client_max_size``). Behind a reverse proxy
every client has the proxy's address: raise ``per_address`` there (0 turns it off).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

logger = logging.getLogger(__name__)

_HEAD_END = b"\r\n\r\n"


@dataclass(frozen=True, slots=True)
class ServerLimits:
    max_connections: int = 256
    per_address: int = 64  # a kiosk display, an overlay and a console need a dozen
    header_timeout_s: float = 10.0
    keepalive_s: float = 15.0
    # Connections the kernel completes while the loop is busy. asyncio accepts up to this many
    # at once before any reaches the guard, so it also bounds descriptors held beyond the limit.
    backlog: int = 128


class ConnectionGuard:
    """Wraps the HTTP server's protocol factory; counts, times and evicts connections."""

    def __init__(self, factory: Callable[[], asyncio.Protocol], limits: ServerLimits) -> None:
        self._factory = factory
        self._limits = limits
        self._held: dict[GuardedConnection, None] = {}  # in the order they came: oldest first
        self.evicted = 0  # connections closed to make room
        self.timed_out = 0  # connections closed for not sending their request head in time

    @property
    def held(self) -> int:
        return len(self._held)

    def protocol(self) -> GuardedConnection:
        return GuardedConnection(self, self._factory())

    # --- called by the connections ---------------------------------------------------

    def admit(self, connection: GuardedConnection) -> None:
        """Hold ``connection``, closing an older one where a budget is spent (never the newcomer:
        a real client sends its request at once, so it is never the idle one)."""
        self._held[connection] = None
        limits = self._limits
        if limits.per_address:
            mine = [c for c in self._held if c.address == connection.address and c is not connection]
            if len(mine) >= limits.per_address:
                self._close(_first_idle(mine) or mine[0], f"{connection.address} holds {limits.per_address}")
        if len(self._held) > limits.max_connections:
            others = [c for c in self._held if c is not connection]
            victim = _first_idle(others) or _oldest_of_the_biggest(others)
            self._close(victim, f"the limit ({limits.max_connections}) is reached")

    def _close(self, victim: GuardedConnection, why: str) -> None:
        self.forget(victim)  # at once: its transport only reports the loss on the next loop pass
        self.evicted += 1
        logger.warning("connection closed to make room: %s", why)
        victim.close()

    def forget(self, connection: GuardedConnection) -> None:
        self._held.pop(connection, None)

    def timed_out_head(self) -> None:
        self.timed_out += 1
        logger.warning("a connection sent no request head within %.0f s: closed", self._limits.header_timeout_s)

    @property
    def header_timeout_s(self) -> float:
        return self._limits.header_timeout_s


def _oldest_of_the_biggest(held: list[GuardedConnection]) -> GuardedConnection:
    """The oldest connection of the address that holds the most."""
    counts = Counter(c.address for c in held)
    biggest = max(counts, key=lambda address: counts[address])
    return next(c for c in held if c.address == biggest)


def _first_idle(connections: list[GuardedConnection]) -> GuardedConnection | None:
    """The oldest that has sent nothing, else the oldest still sending its first request head."""
    silent = next((c for c in connections if c.silent), None)
    return silent if silent is not None else next((c for c in connections if not c.headed), None)


class GuardedConnection(asyncio.Protocol):
    """One connection: forwards everything to aiohttp's protocol, watching what arrives."""

    def __init__(self, guard: ConnectionGuard, inner: asyncio.Protocol) -> None:
        self._guard = guard
        self._inner = inner
        self._transport: asyncio.Transport | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._tail = b""
        self.address = ""  # the client's IP address
        self.silent = True  # not a byte received yet
        self.headed = False  # the first request's head has arrived

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else str(peer)
        self._inner.connection_made(transport)
        self._guard.admit(self)
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(self._guard.header_timeout_s, self._head_overdue)

    def data_received(self, data: bytes) -> None:
        self.silent = False
        if not self.headed:
            seen = self._tail + data
            if _HEAD_END in seen:
                self.headed = True
                self._cancel_timer()
            self._tail = seen[-(len(_HEAD_END) - 1) :]
        self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timer()
        self._guard.forget(self)
        self._inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self._inner.pause_writing()

    def resume_writing(self) -> None:
        self._inner.resume_writing()

    def close(self) -> None:
        if self._transport is not None:
            self._transport.abort()  # nothing to flush to a client that sent nothing

    def _head_overdue(self) -> None:
        self._timer = None
        if not self.headed:
            self._guard.timed_out_head()
            self.close()

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
