"""What the hall's broker has acknowledged of this table's journal, kept across restarts.

A small SQLite file beside the journal (``<db>.hall``; never the journal itself, which has one
writer: the core thread). Per destination (broker, hall, table) and game, the highest sequence
number up to which every row was acknowledged (PUBACK). After a restart the publisher sends
again from there; losing this file only means sending everything again, which the hall takes
once (its journal is keyed by (table, game, seq)).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS acked (
    destination TEXT NOT NULL,      -- mqtt://host:port/hall/table
    game INTEGER NOT NULL,
    seq INTEGER NOT NULL,           -- rows 1..seq of the game were acknowledged
    PRIMARY KEY (destination, game)
) WITHOUT ROWID;
"""


class HallOutbox:
    def __init__(self, path: Path, destination: str) -> None:
        self.path = path
        self._destination = destination
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=5.0)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)

    def acked(self) -> dict[int, int]:
        rows = self._db.execute("SELECT game, seq FROM acked WHERE destination = ?", (self._destination,))
        return {int(game): int(seq) for game, seq in rows}

    def save(self, acked: dict[int, int]) -> None:
        """Keep ``acked`` (never moving a game's mark back)."""
        self._db.execute("BEGIN IMMEDIATE")
        self._db.executemany(
            "INSERT INTO acked (destination, game, seq) VALUES (?, ?, ?)"
            " ON CONFLICT (destination, game) DO UPDATE SET seq = max(seq, excluded.seq)",
            [(self._destination, game, seq) for game, seq in acked.items()],
        )
        self._db.execute("COMMIT")

    def close(self) -> None:
        self._db.close()
