"""The web server: table display, broadcast overlay, referee console, JSON API and WebSocket push.

``create_app`` wires the two ports (a :class:`ViewFeed` and a :class:`ConsoleSink`) into an
aiohttp application; :class:`WebServer` runs it on a host and port (port 0: any free one).

It sits on a venue's network, so it is built for an unfriendly guest (docs/web.md, Security):
every state-changing request passes an Origin/Referer check and, with the session cookie, a
CSRF token bound to the session (:mod:`table_app.web.auth`, the gate shared with the hall console:
:mod:`table_app.web.console_gate`); every response carries a
Content-Security-Policy, ``frame-ancestors 'none'``/``X-Frame-Options: DENY`` and ``nosniff``;
wrong logins are throttled; a malformed request is a 4xx with a short message, never a 500;
connections, header time and body size are limited (:mod:`table_app.web.connection_guard`)
and the log is rate-limited (:mod:`table_app.web.log_limit`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Final

from aiohttp import web

from table_app.interpret.ruling import Ruling, refused
from table_app.rules.profiles import PROFILES
from table_app.view.ports import ConsoleCommand, ConsoleSink, ViewFeed
from table_app.web import log_limit
from table_app.web.auth import ConsoleAuth, LoginThrottle, SessionPolicy, ThrottlePolicy
from table_app.web.connection_guard import ConnectionGuard, ServerLimits
from table_app.web.console_gate import ConsoleGate, json_error
from table_app.web.console_input import BadInputError, command_for
from table_app.web.push import PushHub

logger = logging.getLogger(__name__)

STATIC: Final = Path(__file__).resolve().parent / "static"
DEFAULT_HOST: Final = "127.0.0.1"
_PAGES: Final = {"/": "display.html", "/overlay": "overlay.html", "/console": "console.html"}
#: How long a console request waits for the referee's ruling before it is answered "busy".
COMMAND_WAIT_S: Final = 5.0
#: Request bodies larger than this are refused: console commands are a few dozen bytes.
MAX_BODY: Final = 16 * 1024
#: A static file's name: a file, or a file in one folder (``tiles/5m.png``); nothing else is looked up.
_STATIC_NAME: Final = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}(/[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63})?")

#: Every response: only this server's own scripts, styles, images and WebSocket; no framing.
SECURITY_HEADERS: Final = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def api_errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Under /api every error is JSON with a message, not aiohttp's HTML/text page; anywhere, a
    request that cannot be read (bad text, numbers, forms) is a 400, never a 500."""
    try:
        return await handler(request)
    except web.HTTPException as error:
        if not request.path.startswith("/api/") or error.status < 400:
            raise
        return json_error(error.status, error.text or error.reason)
    except (ValueError, UnicodeError) as error:
        # aiohttp's form and multipart readers raise these for a body they cannot parse.
        logger.info("malformed request to %s: %s", request.path[:100], type(error).__name__)
        return json_error(400, "malformed request")


async def _security_headers(request: web.Request, response: web.StreamResponse) -> None:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if request.path.startswith(("/api/", "/console")):
        response.headers.setdefault("Cache-Control", "no-store")


async def _ruling_on(sink: ConsoleSink, command: ConsoleCommand) -> Ruling:
    """The referee's ruling on ``command``, awaited without holding the loop; a referee that
    takes too long gets the command cancelled (if it has not started on it) and a refusal."""
    try:
        return await asyncio.wait_for(asyncio.wrap_future(sink.submit(command)), COMMAND_WAIT_S)
    except TimeoutError:
        return refused("the referee core is busy; try again")


def create_app(
    feed: ViewFeed,
    sink: ConsoleSink,
    token: str,
    *,
    sessions: SessionPolicy | None = None,
    throttle: ThrottlePolicy | None = None,
    clock: Callable[[], float] | None = None,
) -> web.Application:
    auth = ConsoleAuth(token, sessions, clock) if clock is not None else ConsoleAuth(token, sessions)
    logins = LoginThrottle(throttle, clock) if clock is not None else LoginThrottle(throttle)
    gate = ConsoleGate(auth, logins)
    hub = PushHub(feed)
    app = web.Application(middlewares=[api_errors], client_max_size=MAX_BODY)
    app.on_startup.append(hub.start)
    app.on_shutdown.append(hub.close_all)
    app.on_cleanup.append(hub.stop)
    app.on_response_prepare.append(_security_headers)

    async def page(request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / _PAGES[request.path])

    async def static(request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if _STATIC_NAME.fullmatch(name) is None or ".." in name:
            raise web.HTTPNotFound(text="no such file")
        path = STATIC / name
        if not path.is_file():
            raise web.HTTPNotFound(text="no such file")
        return web.FileResponse(path)

    async def state(_request: web.Request) -> web.Response:
        return _json_dumps(feed.current().to_json())

    async def profiles(_request: web.Request) -> web.Response:
        return web.json_response({"profiles": [p.name for p in PROFILES], "current": feed.current().profile})

    async def console_action(request: web.Request) -> web.Response:
        refused = gate.check(request)
        if refused is not None:
            return refused
        try:
            command = command_for(request.match_info["action"], await request.read())
        except BadInputError as error:
            return json_error(400, str(error))
        ruling = await _ruling_on(sink, command)
        status = 200 if ruling.accepted else 409  # refused by the referee logic, not a bad request
        return web.json_response({"accepted": ruling.accepted, "reason": ruling.reason}, status=status)

    for path in _PAGES:
        app.router.add_get(path, page)
    app.router.add_get("/api/state", state)
    app.router.add_get("/api/profiles", profiles)
    gate.add_routes(app)
    app.router.add_post("/api/console/{action}", console_action)
    app.router.add_get("/ws", hub.handle)
    app.router.add_get("/static/{name:.+}", static)
    return app


def _json_dumps(body: dict[str, Any]) -> web.Response:
    return web.Response(text=json.dumps(body, ensure_ascii=False), content_type="application/json")


class ServeError(ValueError):
    """The server cannot listen where it was asked to (a port in use, an address not here)."""


class WebServer:
    """Runs the app on the current event loop until :meth:`stop`; ``port`` is known after :meth:`start`."""

    def __init__(
        self, app: web.Application, host: str = DEFAULT_HOST, port: int = 8080, limits: ServerLimits | None = None
    ) -> None:
        self._app = app
        self._host = host
        self._port = port
        self._limits = limits or ServerLimits()
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None
        self.guard: ConnectionGuard | None = None

    @property
    def port(self) -> int:
        return self._port

    @property
    def url(self) -> str:
        return f"http://{self._host}:{self._port}"

    async def start(self) -> None:
        log_limit.install()
        self._runner = web.AppRunner(self._app, keepalive_timeout=self._limits.keepalive_s)
        await self._runner.setup()
        assert self._runner.server is not None
        self.guard = ConnectionGuard(self._runner.server, self._limits)
        loop = asyncio.get_running_loop()
        try:
            self._listener = await loop.create_server(
                self.guard.protocol, self._host, self._port, backlog=self._limits.backlog, reuse_address=True
            )
        except OSError as error:
            await self._runner.cleanup()
            self._runner = None
            reason = os.strerror(error.errno) if error.errno else str(error)
            raise ServeError(f"cannot serve on {self._host}:{self._port}: {reason.lower()}") from error
        if self._port == 0:
            self._port = int(self._listener.sockets[0].getsockname()[1])
        logger.info("serving on %s", self.url)

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.close()
        if self._runner is not None:
            await self._runner.cleanup()
