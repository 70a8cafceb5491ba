"""The database's tables, and why the connection is set up as it is.

One SQLite file holds both the journal (the truth: ``journal`` rows, append-only) and what
score keeping derives from it (``games`` standings and ``hands`` results, rewritten from the
fold whenever the journal moves). Losing the derived tables loses nothing: replaying the
journal rebuilds them.

WAL lets the web display read while the core thread writes. ``synchronous=FULL`` because a
table-side Pi gets its power cord pulled: an event the players saw announced must be on disk
when the announcement goes out, and at a few events a second the extra fsync costs nothing
that matters.
"""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started_at REAL NOT NULL,
    profile TEXT NOT NULL,
    names TEXT NOT NULL,            -- JSON list of four names
    hands INTEGER NOT NULL DEFAULT 0,
    scores TEXT NOT NULL,           -- JSON list: the scores now (final scores once finished)
    points TEXT,                    -- JSON list of game points, once finished
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS journal (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,           -- 1, 2, 3... per game, never reused
    at REAL NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('event', 'undo')),
    body TEXT,                      -- the event as an mjai JSON object ('event' rows)
    undoes INTEGER,                 -- the seq this correction takes back ('undo' rows)
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS hands (
    game INTEGER NOT NULL REFERENCES games(id),
    number INTEGER NOT NULL,        -- 1, 2, 3... in the order played
    label TEXT NOT NULL,            -- E1-0 (round, hand, honba)
    ending TEXT NOT NULL,
    deltas TEXT NOT NULL,           -- JSON list of four payments
    winners TEXT NOT NULL,          -- JSON list of [seat, han, fu, points, yaku...]
    PRIMARY KEY (game, number)
) WITHOUT ROWID;
"""


def connect(path: str) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=5.0)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("PRAGMA foreign_keys=ON")
    connection.executescript(SCHEMA)
    connection.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    return connection
