"""The journal of accepted events (the truth) and the score keeping derived from it, in SQLite."""

from table_app.journal.errors import JournalCorruptError, JournalError, UnknownGameError
from table_app.journal.store import GameStore, GameSummary, JournalEntry, Undone
from table_app.journal.writer_lock import JournalLockedError

__all__ = [
    "GameStore",
    "GameSummary",
    "JournalCorruptError",
    "JournalEntry",
    "JournalError",
    "JournalLockedError",
    "Undone",
    "UnknownGameError",
]
