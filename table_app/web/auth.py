"""The referee console's token: a header for scripts, a login form and a session cookie for browsers.

The token itself is never logged and never put in a URL (access logs record URLs); the
cookie carries a random session id, not the token.

A browser session is a cookie, and a browser sends cookies with requests other sites make
it send: so a session also holds a CSRF token, handed to the console's own page
(``GET /api/console/session``) and required in the ``X-Jantaku-CSRF`` header of every
state-changing request made with the cookie. Another site can neither read it nor set a
custom header without a CORS preflight, which this server never grants. Sessions expire
(idle for ``idle_s``, or ``lifetime_s`` after the login) and end at logout.

Wrong tokens are throttled per client address: after ``free`` wrong tries, each further try
must wait, doubling from ``base_s`` up to ``max_s``; the right token resets the count.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from aiohttp import web

TOKEN_HEADER = "X-Jantaku-Token"
CSRF_HEADER = "X-Jantaku-CSRF"
SESSION_COOKIE = "jantaku_console"
_ENDED_KEPT = 256


class Access(Enum):
    GRANTED = "granted"
    MISSING = "missing"  # no credentials at all → 401
    WRONG = "wrong"  # credentials that do not match → 403
    EXPIRED = "expired"  # a session that timed out or was logged out → 401


@dataclass(frozen=True, slots=True)
class SessionPolicy:
    idle_s: float = 2 * 3600.0  # a console left alone this long must log in again
    lifetime_s: float = 12 * 3600.0  # a day's session at most
    max_sessions: int = 64  # beyond this the oldest session is closed


@dataclass(frozen=True, slots=True)
class Credentials:
    access: Access
    session: str | None = None  # the session id, when the cookie granted access

    @property
    def by_cookie(self) -> bool:
        return self.session is not None


@dataclass(slots=True)
class _Session:
    csrf: str
    opened: float
    seen: float


class ConsoleAuth:
    def __init__(
        self, token: str, policy: SessionPolicy | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if not token:
            raise ValueError("the console token must not be empty")
        self._token = token.encode()
        self._policy = policy or SessionPolicy()
        self._clock = clock
        self._sessions: dict[str, _Session] = {}
        self._ended: dict[str, None] = {}  # recently expired or logged out: told apart from forged ids

    def token_matches(self, candidate: str) -> bool:
        try:
            presented = candidate.encode("utf-8")
        except UnicodeEncodeError:  # a header that was not text (aiohttp keeps its bytes as surrogates)
            return False
        return hmac.compare_digest(presented, self._token)

    def open_session(self) -> str:
        self._expire()
        while len(self._sessions) >= self._policy.max_sessions:
            self._end(next(iter(self._sessions)))  # the oldest
        session = secrets.token_urlsafe(32)
        now = self._clock()
        self._sessions[session] = _Session(secrets.token_urlsafe(32), now, now)
        return session

    def close_session(self, session: str) -> None:
        if session in self._sessions:
            self._end(session)

    def _end(self, session: str) -> None:
        del self._sessions[session]
        self._ended[session] = None
        if len(self._ended) > _ENDED_KEPT:
            del self._ended[next(iter(self._ended))]

    def csrf_for(self, session: str) -> str | None:
        held = self._sessions.get(session)
        return None if held is None else held.csrf

    def csrf_matches(self, session: str, presented: str | None) -> bool:
        expected = self.csrf_for(session)
        if expected is None or presented is None:
            return False
        try:
            return hmac.compare_digest(presented.encode("utf-8"), expected.encode())
        except UnicodeEncodeError:
            return False

    def check(self, request: web.Request) -> Credentials:
        presented = request.headers.get(TOKEN_HEADER)
        authorization = request.headers.get("Authorization", "")
        if presented is None and authorization.lower().startswith("bearer "):
            presented = authorization[len("bearer ") :].strip()
        if presented is not None:
            return Credentials(Access.GRANTED if self.token_matches(presented) else Access.WRONG)
        session = request.cookies.get(SESSION_COOKIE)
        if session is None:
            return Credentials(Access.MISSING)
        self._expire()
        held = self._sessions.get(session)
        if held is None:
            return Credentials(Access.EXPIRED if session in self._ended else Access.WRONG)
        held.seen = self._clock()
        return Credentials(Access.GRANTED, session)

    def _expire(self) -> None:
        now = self._clock()
        policy = self._policy
        stale = [
            key
            for key, held in self._sessions.items()
            if now - held.seen > policy.idle_s or now - held.opened > policy.lifetime_s
        ]
        for key in stale:
            self._end(key)


@dataclass(frozen=True, slots=True)
class ThrottlePolicy:
    free: int = 5  # wrong tries before any wait
    base_s: float = 1.0
    max_s: float = 300.0
    remembered: int = 4096  # addresses kept; the oldest forgotten beyond


@dataclass(slots=True)
class _Failures:
    count: int
    last: float


class LoginThrottle:
    """Wrong console tokens per client address, and how long that address must now wait."""

    def __init__(self, policy: ThrottlePolicy | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self._policy = policy or ThrottlePolicy()
        self._clock = clock
        self._failures: dict[str, _Failures] = {}

    def wait_s(self, address: str) -> float:
        """Seconds before ``address`` may try again (0: now)."""
        failures = self._failures.get(address)
        if failures is None or failures.count < self._policy.free:
            return 0.0
        lock = min(self._policy.max_s, self._policy.base_s * 2.0 ** (failures.count - self._policy.free))
        return max(0.0, failures.last + lock - self._clock())

    def failed(self, address: str) -> None:
        failures = self._failures.pop(address, None) or _Failures(0, 0.0)
        failures.count += 1
        failures.last = self._clock()
        self._failures[address] = failures  # moved to the newest end
        if len(self._failures) > self._policy.remembered:
            del self._failures[next(iter(self._failures))]

    def succeeded(self, address: str) -> None:
        self._failures.pop(address, None)
