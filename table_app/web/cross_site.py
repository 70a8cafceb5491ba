"""Whether a state-changing request looks sent by another site (CSRF's first line of defence)."""

from __future__ import annotations

from urllib.parse import urlsplit

from aiohttp import web


def cross_site(request: web.Request) -> str | None:
    """Why a state-changing request looks sent by another site (its Origin, else its Referer,
    names another host than the one it was sent to), or ``None``. Scripts send neither."""
    origin = request.headers.get("Origin")
    if origin is not None:
        claimed, what = origin, "Origin"
    else:
        referer = request.headers.get("Referer")
        if referer is None:
            return None
        claimed, what = referer, "Referer"
    try:
        host = urlsplit(claimed).netloc
    except ValueError:
        host = ""
    if not host or host.lower() != request.host.lower():
        return f"cross-site request refused ({what} {claimed[:80]!r} is not this server)"
    return None
