"""The referee console's token: a header for scripts, a login form and a session cookie for browsers.

The token itself is never logged and never put in a URL (access logs record URLs); the
cookie carries a random session id, not the token.
"""

from __future__ import annotations

import hmac
import secrets
from enum import Enum

from aiohttp import web

TOKEN_HEADER = "X-Jantaku-Token"
SESSION_COOKIE = "jantaku_console"


class Access(Enum):
    GRANTED = "granted"
    MISSING = "missing"  # no credentials at all → 401
    WRONG = "wrong"  # credentials that do not match → 403


class ConsoleAuth:
    def __init__(self, token: str) -> None:
        if not token:
            raise ValueError("the console token must not be empty")
        self._token = token.encode()
        self._sessions: set[str] = set()

    def token_matches(self, candidate: str) -> bool:
        return hmac.compare_digest(candidate.encode(), self._token)

    def open_session(self) -> str:
        session = secrets.token_urlsafe(32)
        self._sessions.add(session)
        return session

    def check(self, request: web.Request) -> Access:
        presented = request.headers.get(TOKEN_HEADER)
        authorization = request.headers.get("Authorization", "")
        if presented is None and authorization.lower().startswith("bearer "):
            presented = authorization[len("bearer ") :].strip()
        if presented is not None:
            return Access.GRANTED if self.token_matches(presented) else Access.WRONG
        session = request.cookies.get(SESSION_COOKIE)
        if session is None:
            return Access.MISSING
        return Access.GRANTED if session in self._sessions else Access.WRONG
