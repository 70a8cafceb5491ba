"""Journal errors: each names the database, and the game and sequence number where it can."""

from __future__ import annotations


class JournalError(Exception):
    """The journal cannot be read or written. Nothing already recorded is touched."""


class JournalCorruptError(JournalError):
    def __init__(self, game: int, seq: int, detail: str) -> None:
        super().__init__(f"game {game}, event {seq}: {detail}")
        self.game = game
        self.seq = seq
        self.detail = detail


class UnknownGameError(JournalError, ValueError):
    def __init__(self, game: int) -> None:
        super().__init__(f"no game {game} in the journal")
        self.game = game
