"""Run the web server on its own thread and event loop, beside a program that is not asyncio.

The runtime's core thread owns the game state; the web only reads views and posts console
commands, so it can live on a thread of its own. The tests use this too.
"""

from __future__ import annotations

import asyncio
import logging
import threading

from aiohttp import web

from table_app.web.connection_guard import ConnectionGuard, ServerLimits
from table_app.web.server import DEFAULT_HOST, ServeError, WebServer

logger = logging.getLogger(__name__)

START_TIMEOUT_S = 10.0


class BackgroundWebServer:
    def __init__(
        self, app: web.Application, host: str = DEFAULT_HOST, port: int = 0, limits: ServerLimits | None = None
    ) -> None:
        self._server = WebServer(app, host, port, limits)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="web-server", daemon=True)
        self._started = threading.Event()
        self._failure: BaseException | None = None

    @property
    def url(self) -> str:
        return self._server.url

    @property
    def port(self) -> int:
        return self._server.port

    @property
    def guard(self) -> ConnectionGuard | None:
        """The connection budget's counters (held, evicted, timed out), once started."""
        return self._server.guard

    def start(self) -> None:
        self._thread.start()
        if not self._started.wait(START_TIMEOUT_S):
            raise TimeoutError(f"the web server did not start within {START_TIMEOUT_S} s")
        if isinstance(self._failure, ServeError):
            raise ServeError(str(self._failure)) from self._failure  # the user's port: one line
        if self._failure is not None:
            raise RuntimeError(f"the web server failed to start: {self._failure}") from self._failure

    def stop(self) -> None:
        if not self._thread.is_alive():
            return
        asyncio.run_coroutine_threadsafe(self._server.stop(), self._loop).result(START_TIMEOUT_S)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(START_TIMEOUT_S)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._server.start())
        except BaseException as error:  # reported to start() on the caller's thread
            self._failure = error
            self._loop.close()
            self._started.set()
            return
        self._started.set()
        try:
            self._loop.run_forever()
        finally:
            self._loop.close()
