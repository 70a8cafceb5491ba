"""Connections are a budget: idle or slow clients cannot starve the table display.

A venue's network has guests on it. A client that opens connections and sends nothing holds
a file descriptor each; at a Pi's 1024 descriptors the server can accept nothing more (Python's
accept loop then logs ``socket.accept() out of system resource`` again and again) and the
display's ``GET /`` goes unanswered. aiohttp has no limit of its own, so every connection
passes through :class:`ConnectionGuard` first:

- at most ``max_connections`` are held. A new one over the limit makes room by closing the
  oldest connection that has not sent a byte yet, else the oldest still sending its first
  request head; if every held connection is busy, the newcomer is closed instead. A real
  client sends its request at once, so it is never the one closed while idle sockets are;
- a connection must have sent its first request head within ``header_timeout_s`` (a client
  that sends nothing, or a header a byte a minute, is closed);
- a kept-alive connection idle for ``keepalive_s`` is closed (aiohttp's keep-alive timeout).

Request bodies are capped by the application (``client_max_size``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass

logger = logging.getLogger(__name__)

_HEAD_END = b"\r\n\r\n"


@dataclass(frozen=True, slots=True)
class ServerLimits:
    max_connections: int = 256
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
        self.evicted = 0  # idle connections closed to make room
        self.refused = 0  # newcomers closed because every held connection was busy
        self.timed_out = 0  # connections closed for not sending their request head in time

    @property
    def held(self) -> int:
        return len(self._held)

    def protocol(self) -> GuardedConnection:
        return GuardedConnection(self, self._factory())

    # --- called by the connections ---------------------------------------------------

    def admit(self, connection: GuardedConnection) -> bool:
        self._held[connection] = None
        if len(self._held) <= self._limits.max_connections:
            return True
        victim = self._victim(connection)
        if victim is None:
            self.refused += 1
            logger.warning("connection limit (%d) reached: a new connection closed", self._limits.max_connections)
            self.forget(connection)
            return False
        self.evicted += 1
        logger.warning("connection limit (%d) reached: closing an idle connection", self._limits.max_connections)
        self.forget(victim)  # at once: its transport only reports the loss on the next loop pass
        victim.close()
        return True

    def forget(self, connection: GuardedConnection) -> None:
        self._held.pop(connection, None)

    def timed_out_head(self) -> None:
        self.timed_out += 1
        logger.warning("a connection sent no request head within %.0f s: closed", self._limits.header_timeout_s)

    @property
    def header_timeout_s(self) -> float:
        return self._limits.header_timeout_s

    def _victim(self, newcomer: GuardedConnection) -> GuardedConnection | None:
        silent = next((c for c in self._held if c.silent and c is not newcomer), None)
        if silent is not None:
            return silent
        return next((c for c in self._held if not c.headed and c is not newcomer), None)


class GuardedConnection(asyncio.Protocol):
    """One connection: forwards everything to aiohttp's protocol, watching what arrives."""

    def __init__(self, guard: ConnectionGuard, inner: asyncio.Protocol) -> None:
        self._guard = guard
        self._inner = inner
        self._transport: asyncio.Transport | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._tail = b""
        self.silent = True  # not a byte received yet
        self.headed = False  # the first request's head has arrived

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        self._inner.connection_made(transport)
        if not self._guard.admit(self):
            transport.abort()
            return
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
