"""The hall's pages: every table at a glance (``/``), the standings, a broadcast overlay of the
feature table (``/overlay``, the table overlay's own page) and the hall console (``/console``)
where the feature table is chosen, behind the same gate as the referee console
(:class:`table_app.web.console_gate.ConsoleGate`: token or session, same site, CSRF).

``/ws/hall`` pushes a table's card as it changes (changes that come in a burst go out once),
and the standings when a game ends; ``/ws`` pushes the feature table's view to the overlay.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from aiohttp import web

from table_app.hall.book import HallBook
from table_app.view.model import TableView
from table_app.view.ports import Unsubscribe, ViewListener
from table_app.web.auth import ConsoleAuth, LoginThrottle, SessionPolicy, ThrottlePolicy
from table_app.web.console_gate import ConsoleGate, json_error
from table_app.web.push import PushHub
from table_app.web.server import MAX_BODY, STATIC, api_errors
from table_app.web.server import _security_headers as security_headers
from table_app.web.socket_clients import SocketClients

logger = logging.getLogger(__name__)

HALL_STATIC: Final = Path(__file__).resolve().parent / "static"
_PAGES: Final = {
    "/": HALL_STATIC / "hall.html",
    "/console": HALL_STATIC / "hall-console.html",
    "/overlay": STATIC / "overlay.html",  # the table's own overlay, fed the feature table's views
}
#: A static file's name: a file, or a file in one folder (``tiles/5m.png``); nothing else is looked up.
_STATIC_NAME: Final = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}(/[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63})?")
CLIENT_BACKLOG: Final = 256  # messages a slow page may fall behind by before it is sent the whole hall again


class FeaturedFeed:
    """The overlay's :class:`ViewFeed`: the feature table's view, whichever table that is."""

    def __init__(self, book: HallBook) -> None:
        self._book = book

    def current(self) -> TableView:
        return self._book.featured_view()

    def subscribe(self, listener: ViewListener) -> Unsubscribe:
        def changed(table: str) -> None:
            if table == self._book.featured:
                listener(self._book.featured_view())

        return self._book.subscribe(changed)


class HallPush:
    """``/ws/hall``: the whole hall on connecting, then each table's card as it changes."""

    def __init__(self, book: HallBook, hall: str) -> None:
        self._book = book
        self._hall = hall
        self._clients = SocketClients(CLIENT_BACKLOG)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._dirty: set[str] = set()
        self._finished = -1
        self._unsubscribe: Callable[[], None] | None = None

    def snapshot(self) -> str:
        return json.dumps({"type": "hall", **hall_body(self._book, self._hall)}, ensure_ascii=False)

    async def start(self, _app: web.Application) -> None:
        self._loop = asyncio.get_running_loop()
        self._finished = self._book.finished_games()
        self._unsubscribe = self._book.subscribe(self._changed)

    async def stop(self, _app: web.Application) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    async def close_all(self, _app: web.Application) -> None:
        await self._clients.close_all()

    def _changed(self, table: str) -> None:  # the subscriber's thread
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._mark, table)

    def _mark(self, table: str) -> None:
        if not self._dirty:
            self._loop.call_soon(self._flush)  # type: ignore[union-attr]  # after the burst already queued
        self._dirty.add(table)

    def _flush(self) -> None:
        messages = [
            json.dumps({"type": "table", "table": self._book.card(name), "featured": self._book.featured})
            for name in sorted(self._dirty)
        ]
        self._dirty.clear()
        finished = self._book.finished_games()
        if finished != self._finished:
            self._finished = finished
            messages.append(json.dumps({"type": "standings", "standings": standings_body(self._book)}))
        for queue in self._clients.queues():
            for message in messages:
                if queue.full():  # too far behind for deltas: the whole hall instead
                    while not queue.empty():
                        queue.get_nowait()
                    queue.put_nowait(self.snapshot())
                    break
                queue.put_nowait(message)

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        return await self._clients.serve(request, self.snapshot)


def standings_body(book: HallBook) -> dict[str, Any]:
    return {"games": book.finished_games(), "players": [p.to_json() for p in book.standings()]}


def hall_body(book: HallBook, hall: str) -> dict[str, Any]:
    return {"hall": hall, "featured": book.featured, "tables": book.cards(), "standings": standings_body(book)}


def create_hall_app(
    book: HallBook,
    hall: str,
    token: str,
    *,
    sessions: SessionPolicy | None = None,
    throttle: ThrottlePolicy | None = None,
) -> web.Application:
    gate = ConsoleGate(ConsoleAuth(token, sessions), LoginThrottle(throttle), title="Hall console")
    hall_push = HallPush(book, hall)
    overlay = PushHub(FeaturedFeed(book))
    app = web.Application(middlewares=[api_errors], client_max_size=MAX_BODY)
    for hub in (hall_push, overlay):
        app.on_startup.append(hub.start)
        app.on_shutdown.append(hub.close_all)
        app.on_cleanup.append(hub.stop)
    app.on_response_prepare.append(security_headers)

    async def page(request: web.Request) -> web.FileResponse:
        return web.FileResponse(_PAGES[request.path])

    async def static(request: web.Request) -> web.StreamResponse:
        # The hall's own files (hall*), else the table pages' (the overlay, its script, the tiles).
        name = request.match_info["name"]
        if _STATIC_NAME.fullmatch(name) is not None and ".." not in name:
            for folder in (HALL_STATIC, STATIC):
                if (folder / name).is_file():
                    return web.FileResponse(folder / name)
        raise web.HTTPNotFound(text="no such file")

    async def state(_request: web.Request) -> web.Response:
        return web.json_response(hall_body(book, hall), dumps=_dumps)

    async def standings(_request: web.Request) -> web.Response:
        return web.json_response(standings_body(book), dumps=_dumps)

    async def feature(request: web.Request) -> web.Response:
        refused = gate.check(request)
        if refused is not None:
            return refused
        try:
            body = json.loads(await request.read() or b"{}")
        except (ValueError, UnicodeError):
            return json_error(400, 'the body must be JSON: {"table": NAME}')
        name = body.get("table") if isinstance(body, dict) else None
        if not isinstance(name, str) or not name:
            return json_error(400, 'the body must be JSON: {"table": NAME}')
        if not book.feature(name):
            return json_error(404, f"no table {name[:64]!r} in this hall")
        logger.info("hall console: feature table %s", name)
        return web.json_response({"accepted": True, "featured": name})

    for path in _PAGES:
        app.router.add_get(path, page)
    gate.add_routes(app)
    app.router.add_get("/api/hall", state)
    app.router.add_get("/api/standings", standings)
    app.router.add_post("/api/console/feature", feature)
    app.router.add_get("/ws/hall", hall_push.handle)
    app.router.add_get("/ws", overlay.handle)
    app.router.add_get("/static/{name:.+}", static)
    return app


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
