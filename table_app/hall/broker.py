"""Where the hall's broker is and how to log in to it (no MQTT library here: the config reads it).

``mqtt://host[:1883]`` plain, ``mqtts://host[:8883]`` over TLS (the system's CAs, or ``tls_ca``;
a client certificate with ``tls_cert`` and ``tls_key``). The password never sits in a config
file that gets copied around: it is read from a file of its own or from ``$JANTAKU_HALL_PASSWORD``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

PASSWORD_VARIABLE = "JANTAKU_HALL_PASSWORD"


@dataclass(frozen=True, slots=True)
class BrokerConfig:
    host: str
    port: int
    tls: bool = False
    username: str | None = None
    password: str | None = None
    tls_ca: Path | None = None
    tls_cert: Path | None = None
    tls_key: Path | None = None

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"

    def __repr__(self) -> str:  # never show the password in a log or a traceback
        return f"BrokerConfig({self.url}, user={self.username!r})"


def parse_broker_url(url: str) -> tuple[str, int, bool]:
    """``(host, port, tls)``; a ``ValueError`` saying what is wrong."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise ValueError(f"{url!r} is not a broker URL ({error})") from None
    if parts.scheme not in ("mqtt", "mqtts"):
        raise ValueError(f"{url!r}: the scheme must be mqtt:// or mqtts:// (TLS)")
    if not parts.hostname:
        raise ValueError(f"{url!r}: no host")
    if parts.path not in ("", "/") or parts.query or parts.username or parts.password:
        raise ValueError(f"{url!r}: only mqtt[s]://host[:port] (credentials go in username and password_file)")
    tls = parts.scheme == "mqtts"
    return parts.hostname, port or (8883 if tls else 1883), tls
