"""systemd's notify protocol, written out by hand: one datagram to ``$NOTIFY_SOCKET``.

``jantaku run`` under ``Type=notify`` with ``WatchdogSec=`` (``deploy/systemd/jantaku.service``)
says ``READY=1`` once the table is wired, ``WATCHDOG=1`` while the referee core is alive, and
``STOPPING=1`` on the way out. The protocol is a newline-separated ``KEY=VALUE`` text sent as
one datagram to the unix socket systemd names in ``$NOTIFY_SOCKET`` (a path, or ``@name`` for
the abstract namespace); no library is needed for it. Without ``$NOTIFY_SOCKET`` (run by hand)
every call does nothing. A failed send is logged, never raised: the referee goes on.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

logger = logging.getLogger(__name__)


class Notifier:
    """Sends notify messages to systemd, if it is listening."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        # "@name" is Linux's abstract namespace: a leading NUL byte instead of the "@".
        self._address = "\0" + address[1:] if address.startswith("@") else address
        self._warned = False

    @property
    def enabled(self) -> bool:
        return bool(self._address)

    def send(self, *fields: str) -> bool:
        """Send ``KEY=VALUE`` fields in one datagram; ``True`` if systemd got it."""
        if not self._address:
            return False
        message = "\n".join(fields).encode("utf-8")
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.connect(self._address)
                sock.sendall(message)
        except OSError as error:
            if not self._warned:  # a watchdog ping every few seconds must not flood the log
                logger.warning("cannot notify systemd at %r: %s", self._address, error)
                self._warned = True
            return False
        return True

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1", *((f"STATUS={status}",) if status else ()))

    def status(self, status: str) -> bool:
        return self.send(f"STATUS={status}")

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")


def watchdog_interval_s(environ: Mapping[str, str] | None = None, pid: int | None = None) -> float | None:
    """How often to ping: half of ``$WATCHDOG_USEC`` (systemd's advice), or ``None`` when the
    service has no watchdog or it is meant for another process (``$WATCHDOG_PID``)."""
    env = os.environ if environ is None else environ
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    owner = env.get("WATCHDOG_PID", "")
    if usec <= 0 or (owner and owner != str(os.getpid() if pid is None else pid)):
        return None
    return usec / 2_000_000


class Watchdog:
    """Pings systemd's watchdog every ``interval_s`` while ``alive()`` says so.

    ``poke`` is called from the command's main loop; once ``alive()`` is false (the core thread
    hung or stopped) the pings stop and systemd restarts the service when the watchdog fires."""

    def __init__(
        self,
        notifier: Notifier,
        interval_s: float,
        alive: Callable[[], bool],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._notifier = notifier
        self._interval_s = interval_s
        self._alive = alive
        self._clock = clock
        self._last: float | None = None

    def poke(self) -> bool:
        """Ping if one is due and the referee is alive; ``True`` if a ping went out."""
        now = self._clock()
        if self._last is not None and now - self._last < self._interval_s:
            return False
        if not self._alive():
            return False
        self._last = now
        return self._notifier.watchdog()
