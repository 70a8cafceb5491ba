"""Who may change anything: the console's login, session and logout, and the check every
state-changing request passes (token or session, same site, CSRF token). One gate for the
referee console (:mod:`table_app.web.server`) and the hall console (:mod:`table_app.hall.web`).
"""

from __future__ import annotations

import logging
from typing import Any

from aiohttp import web

from table_app.web.auth import CSRF_HEADER, SESSION_COOKIE, Access, ConsoleAuth, Credentials, LoginThrottle
from table_app.web.cross_site import cross_site

logger = logging.getLogger(__name__)

MISSING_TOKEN = "the console needs the referee token (X-Jantaku-Token header, or log in at /console)"


def json_error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


class ConsoleGate:
    def __init__(self, auth: ConsoleAuth, logins: LoginThrottle, *, title: str = "Referee console") -> None:
        self.auth = auth
        self._logins = logins
        self._title = title

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/api/console/session", self.session)
        app.router.add_post("/api/console/logout", self.logout)
        app.router.add_post("/console/login", self.login)

    def refusal(self, request: web.Request, credentials: Credentials) -> web.Response | None:
        """The answer to a state-changing console request that must not go through, if any."""
        if credentials.access is Access.MISSING:
            return json_error(401, MISSING_TOKEN)
        if credentials.access is Access.EXPIRED:
            return json_error(401, "the console session expired or was logged out: log in again")
        if credentials.access is Access.WRONG:
            return json_error(403, "wrong console token or expired session")
        reason = cross_site(request)
        if reason is not None:
            logger.warning("console request refused: %s", reason)
            return json_error(403, reason)
        if credentials.session is not None and not self.auth.csrf_matches(
            credentials.session, request.headers.get(CSRF_HEADER)
        ):
            logger.warning("console request refused: no or wrong CSRF token")
            return json_error(403, f"missing or wrong CSRF token ({CSRF_HEADER} header, from /api/console/session)")
        return None

    def check(self, request: web.Request) -> web.Response | None:
        """:meth:`refusal` for the request's own credentials."""
        return self.refusal(request, self.auth.check(request))

    async def logout(self, request: web.Request) -> web.Response:
        credentials = self.auth.check(request)
        refused = self.refusal(request, credentials)
        if refused is not None:
            return refused
        if credentials.session is not None:
            self.auth.close_session(credentials.session)
        response = web.json_response({"logged_out": credentials.session is not None})
        response.del_cookie(SESSION_COOKIE, path="/")
        return response

    async def login(self, request: web.Request) -> web.Response:
        reason = cross_site(request)
        if reason is not None:
            logger.warning("console login refused: %s", reason)
            return self._login_refused(403, reason)
        address = request.remote or "?"
        wait = self._logins.wait_s(address)
        if wait > 0:
            refused = self._login_refused(429, f"too many wrong tokens: try again in {wait:.0f} s")
            refused.headers["Retry-After"] = str(max(1, round(wait)))
            return refused
        if request.content_type not in ("application/x-www-form-urlencoded", "multipart/form-data"):
            return self._login_refused(415, "the login is a form (application/x-www-form-urlencoded)")
        try:
            form = await request.post()
        except web.HTTPException:
            raise
        except Exception:  # any body the form parsers choke on (no boundary, garbage): the client's
            return self._login_refused(400, "the login form could not be read")
        candidate = form.get("token")
        if not isinstance(candidate, str) or not candidate:
            return self._login_refused(401, "the console needs the referee token")
        if not self.auth.token_matches(candidate):
            self._logins.failed(address)
            logger.warning("console login refused from %s", address)
            return self._login_refused(403, "wrong console token")
        self._logins.succeeded(address)
        response = web.HTTPSeeOther("/console")
        response.set_cookie(SESSION_COOKIE, self.auth.open_session(), httponly=True, samesite="Strict", path="/")
        raise response

    async def session(self, request: web.Request) -> web.Response:
        credentials = self.auth.check(request)
        if credentials.access is not Access.GRANTED:
            return web.json_response({"access": credentials.access.value}, status=401)
        body: dict[str, Any] = {"access": credentials.access.value}
        if credentials.session is not None:
            body["csrf"] = self.auth.csrf_for(credentials.session)
        return web.json_response(body)

    def _login_refused(self, status: int, message: str) -> web.Response:
        page = (
            '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>jantaku — console refused</title>'
            '<link rel="stylesheet" href="/static/console.css"></head><body class="console">'
            f'<h1>{html(self._title)}</h1><p class="reply refused">{html(message)}</p>'
            '<p><a href="/console">try again</a></p></body></html>'
        )
        return web.Response(status=status, text=page, content_type="text/html")


def html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
