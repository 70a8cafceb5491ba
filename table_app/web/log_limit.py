"""The server's log is rate-limited: a flood of bad requests cannot flood the Pi's SD card.

Each kind of message (its logger and unformatted text) may be written ``burst`` times per
``window_s`` (10 per 10 s; the access log, a line per request, 300); the rest of the window's
copies are dropped and counted, and the next copy let through says how many were dropped.
Installed on the loggers the web server writes to (its own, aiohttp's and asyncio's, which
reports accept failures). A filter sits on a logger, not its children, so each module that
can flood is named.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

#: The loggers a flood of clients can make write: ours, aiohttp's, asyncio's accept loop.
FLOODABLE = (
    "table_app.web.server",
    "table_app.web.connection_guard",
    "table_app.web.socket_clients",  # a page connecting or going, for the table and the hall alike
    "aiohttp.access",
    "aiohttp.server",
    "aiohttp.web",
    "asyncio",
)


@dataclass(slots=True)
class _Window:
    started: float
    written: int = 0
    dropped: int = 0


#: The access log writes one line per request, and a page load is dozens of requests (tiles):
#: it gets a larger allowance than the error messages, which a healthy server hardly writes.
ACCESS_BURST = 300


class RateLimitFilter(logging.Filter):
    def __init__(
        self,
        burst: int = 10,
        window_s: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
        bursts: dict[str, int] | None = None,
    ) -> None:
        super().__init__()
        self._burst = burst
        self._bursts = bursts or {}  # per logger name, where it differs
        self._window_s = window_s
        self._clock = clock
        self._windows: dict[tuple[str, str], _Window] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg))
        now = self._clock()
        with self._lock:
            window = self._windows.get(key)
            dropped = 0
            if window is None or now - window.started >= self._window_s:
                dropped = window.dropped if window is not None else 0
                if len(self._windows) > 1000:  # many kinds: forget the old windows
                    self._windows.clear()
                window = self._windows[key] = _Window(now)
            if window.written >= self._bursts.get(record.name, self._burst):
                window.dropped += 1
                return False
            window.written += 1
        if dropped:
            record.msg = f"{record.msg} [{dropped} more like this dropped]"
        return True


_installed: RateLimitFilter | None = None


def install() -> RateLimitFilter:
    """Put one shared filter on the floodable loggers (once per process)."""
    global _installed  # noqa: PLW0603 - one filter per process, however many servers run
    if _installed is None:
        _installed = RateLimitFilter(bursts={"aiohttp.access": ACCESS_BURST})
        for name in FLOODABLE:
            logging.getLogger(name).addFilter(_installed)
    return _installed
