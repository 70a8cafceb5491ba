"""The one error every log reader raises: it names the file and the position."""

from __future__ import annotations


class LogReadError(ValueError):
    """A log that cannot be read (truncated, corrupt, or not a known format)."""

    def __init__(self, source: str, position: str, message: str) -> None:
        super().__init__(f"{source}: {position}: {message}")
        self.source = source
        self.position = position
        self.message = message
