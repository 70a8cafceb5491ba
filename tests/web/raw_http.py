"""Raw bytes to the server over a real socket: requests no HTTP library would send."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit


def address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    assert parts.hostname is not None
    assert parts.port is not None
    return parts.hostname, parts.port


def send_raw(url: str, request: bytes, timeout: float = 10.0) -> tuple[int | None, bytes]:
    """Send ``request`` as it is; the answer's status (``None``: closed without one) and bytes."""
    with socket.create_connection(address(url), timeout=timeout) as connection:
        connection.sendall(request)
        answer = b""
        try:
            while chunk := connection.recv(65536):
                answer += chunk
        except (ConnectionResetError, TimeoutError):
            pass
    if not answer.startswith(b"HTTP/1."):
        return None, answer
    return int(answer.split(b" ", 2)[1]), answer


def request_bytes(method: str, path: str, headers: dict[str, bytes | str] | None = None, body: bytes = b"") -> bytes:
    lines = [f"{method} {path} HTTP/1.1".encode(), b"Host: 127.0.0.1", b"Connection: close"]
    for name, value in (headers or {}).items():
        lines.append(name.encode() + b": " + (value.encode() if isinstance(value, str) else value))
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}".encode())
    return b"\r\n".join(lines) + b"\r\n\r\n" + body
