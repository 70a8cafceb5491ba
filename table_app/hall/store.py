"""The hall's journal: every table's journal rows, each kept once under (table, game, seq).

A row that comes again (a broker redelivering, a table resending after a restart) is a
duplicate and adds nothing; one that comes again *different* is a conflict: the first is
kept, and the conflict counted and logged (a table whose journal was replaced under the same
name, or a bug). One hall process writes the file at a time (the journal's writer lock).
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from table_app.hall.protocol import JournalRow, TableRow
from table_app.journal.errors import JournalError
from table_app.journal.writer_lock import acquire, release

logger = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS hall_games (
    tbl TEXT NOT NULL,
    game INTEGER NOT NULL,          -- the table's own game number
    started REAL NOT NULL,          -- when the table started it
    profile TEXT NOT NULL,          -- the rule profile it started under
    PRIMARY KEY (tbl, game)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS hall_rows (
    tbl TEXT NOT NULL,
    game INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    at REAL NOT NULL,               -- when the table journaled it
    kind TEXT NOT NULL,
    body TEXT,
    undoes INTEGER,
    received REAL NOT NULL,         -- when the hall got it
    PRIMARY KEY (tbl, game, seq)
) WITHOUT ROWID;
"""


class Received(Enum):
    NEW = "new"
    DUPLICATE = "duplicate"
    CONFLICT = "conflict"


@dataclass(frozen=True, slots=True)
class StoredGame:
    table: str
    game: int
    started: float
    profile: str


class HallStore:
    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        self._lock = acquire(self.path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=5.0)
            self._db.execute("PRAGMA journal_mode=WAL")
            # A hall is a server, not a Pi on a power strip; what a crash loses, the tables resend.
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as error:
            release(self._lock)
            raise JournalError(f"{self.path}: not a hall journal ({error})") from error
        except BaseException:
            release(self._lock)
            raise

    def close(self) -> None:
        self._db.close()
        release(self._lock)

    def insert(self, item: TableRow, received: float) -> Received:
        row = item.row
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.execute(
                "INSERT OR IGNORE INTO hall_games (tbl, game, started, profile) VALUES (?, ?, ?, ?)",
                (item.table, row.game, item.started, item.profile),
            )
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO hall_rows (tbl, game, seq, at, kind, body, undoes, received)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (item.table, row.game, row.seq, row.at, row.kind, row.body, row.undoes, received),
            )
            if cursor.rowcount == 1:
                outcome = Received.NEW
            else:
                held = self._db.execute(
                    "SELECT at, kind, body, undoes FROM hall_rows WHERE tbl = ? AND game = ? AND seq = ?",
                    (item.table, row.game, row.seq),
                ).fetchone()
                same = tuple(held) == (row.at, row.kind, row.body, row.undoes)
                outcome = Received.DUPLICATE if same else Received.CONFLICT
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")
        return outcome

    def games(self) -> list[StoredGame]:
        rows = self._db.execute("SELECT tbl, game, started, profile FROM hall_games ORDER BY tbl, game").fetchall()
        return [StoredGame(str(t), int(g), float(s), str(p)) for t, g, s, p in rows]

    def rows(self, table: str, game: int) -> list[JournalRow]:
        rows = self._db.execute(
            "SELECT game, seq, at, kind, body, undoes FROM hall_rows WHERE tbl = ? AND game = ? ORDER BY seq",
            (table, game),
        ).fetchall()
        return [JournalRow(int(g), int(s), float(a), str(k), b, u) for g, s, a, k, b, u in rows]

    def count(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM hall_rows").fetchone()[0])
