"""Bad input to the domain: every error names the offending token, and where it is if known."""

from __future__ import annotations


class InputError(ValueError):
    """Input that cannot be read or cannot exist; ``token`` is the part at fault."""

    def __init__(self, message: str, *, token: str, position: int | None = None) -> None:
        where = f" at position {position}" if position is not None else ""
        super().__init__(f"{message}: {token!r}{where}")
        self.token = token
        self.position = position
