"""The web server: table display, broadcast overlay, referee console, JSON API and WebSocket push.

``create_app`` wires the two ports (a :class:`ViewFeed` and a :class:`ConsoleSink`) into an
aiohttp application; :class:`WebServer` runs it on a host and port (port 0: any free one).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Final

from aiohttp import web

from table_app.rules.profiles import PROFILES
from table_app.view.ports import ConsoleSink, ViewFeed
from table_app.web.auth import SESSION_COOKIE, Access, ConsoleAuth
from table_app.web.console_input import BadInputError, command_for
from table_app.web.push import PushHub

logger = logging.getLogger(__name__)

STATIC: Final = Path(__file__).resolve().parent / "static"
DEFAULT_HOST: Final = "127.0.0.1"
_PAGES: Final = {"/": "display.html", "/overlay": "overlay.html", "/console": "console.html"}
MISSING_TOKEN: Final = "the console needs the referee token (X-Jantaku-Token header, or log in at /console)"
#: Request bodies larger than this are refused: console commands are a few dozen bytes.
MAX_BODY: Final = 16 * 1024

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _json_error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


@web.middleware
async def api_errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Under /api every error is JSON with a message, not aiohttp's HTML/text page."""
    try:
        return await handler(request)
    except web.HTTPException as error:
        if not request.path.startswith("/api/") or error.status < 400:
            raise
        return _json_error(error.status, error.text or error.reason)


def create_app(feed: ViewFeed, sink: ConsoleSink, token: str) -> web.Application:
    auth = ConsoleAuth(token)
    hub = PushHub(feed)
    app = web.Application(middlewares=[api_errors], client_max_size=MAX_BODY)
    app.on_startup.append(hub.start)
    app.on_shutdown.append(hub.close_all)
    app.on_cleanup.append(hub.stop)

    async def page(request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / _PAGES[request.path])

    async def state(_request: web.Request) -> web.Response:
        return _json_dumps(feed.current().to_json())

    async def profiles(_request: web.Request) -> web.Response:
        return web.json_response({"profiles": [p.name for p in PROFILES], "current": feed.current().profile})

    async def console_action(request: web.Request) -> web.Response:
        access = auth.check(request)
        if access is Access.MISSING:
            return _json_error(401, MISSING_TOKEN)
        if access is Access.WRONG:
            return _json_error(403, "wrong console token or expired session")
        try:
            command = command_for(request.match_info["action"], await request.read())
        except BadInputError as error:
            return _json_error(400, str(error))
        # The sink may block (the runtime hands the command to its core thread): keep the loop free.
        reply = await asyncio.to_thread(sink.submit, command)
        status = 200 if reply.accepted else 409  # refused by the referee logic, not a bad request
        return web.json_response({"accepted": reply.accepted, "reason": reply.reason}, status=status)

    async def login(request: web.Request) -> web.Response:
        form = await request.post()
        candidate = form.get("token")
        if not isinstance(candidate, str) or not candidate:
            return _login_refused(401, "the console needs the referee token")
        if not auth.token_matches(candidate):
            logger.warning("console login refused from %s", request.remote)
            return _login_refused(403, "wrong console token")
        response = web.HTTPSeeOther("/console")
        response.set_cookie(SESSION_COOKIE, auth.open_session(), httponly=True, samesite="Strict", path="/")
        raise response

    async def session(request: web.Request) -> web.Response:
        access = auth.check(request)
        return web.json_response({"access": access.value}, status=200 if access is Access.GRANTED else 401)

    for path in _PAGES:
        app.router.add_get(path, page)
    app.router.add_get("/api/state", state)
    app.router.add_get("/api/profiles", profiles)
    app.router.add_get("/api/console/session", session)
    app.router.add_post("/api/console/{action}", console_action)
    app.router.add_post("/console/login", login)
    app.router.add_get("/ws", hub.handle)
    app.router.add_static("/static", STATIC)
    return app


def _login_refused(status: int, message: str) -> web.Response:
    page = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>jantaku — console refused</title>'
        '<link rel="stylesheet" href="/static/console.css"></head><body class="console">'
        f'<h1>Referee console</h1><p class="reply refused">{message}</p><p><a href="/console">try again</a></p>'
        "</body></html>"
    )
    return web.Response(status=status, text=page, content_type="text/html")


def _json_dumps(body: dict[str, Any]) -> web.Response:
    return web.Response(text=json.dumps(body, ensure_ascii=False), content_type="application/json")


class ServeError(ValueError):
    """The server cannot listen where it was asked to (a port in use, an address not here)."""


class WebServer:
    """Runs the app on the current event loop until :meth:`stop`; ``port`` is known after :meth:`start`."""

    def __init__(self, app: web.Application, host: str = DEFAULT_HOST, port: int = 8080) -> None:
        self._app = app
        self._host = host
        self._port = port
        self._runner: web.AppRunner | None = None

    @property
    def port(self) -> int:
        return self._port

    @property
    def url(self) -> str:
        return f"http://{self._host}:{self._port}"

    async def start(self) -> None:
        self._runner = web.AppRunner(self._app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._host, self._port)
        try:
            await site.start()
        except OSError as error:
            await self._runner.cleanup()
            self._runner = None
            reason = os.strerror(error.errno) if error.errno else str(error)
            raise ServeError(f"cannot serve on {self._host}:{self._port}: {reason.lower()}") from error
        if self._port == 0:
            self._port = int(self._runner.addresses[0][1])
        logger.info("serving on %s", self.url)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
