"""The database's tables, and why the connection is set up as it is.

One SQLite file holds both the journal (the truth: ``journal`` rows, append-only) and what
score keeping derives from it (``games`` standings and ``hands`` results, rewritten from the
fold whenever the journal moves). Losing the derived tables loses nothing: replaying the
journal rebuilds them.

Journal rows are ``event`` (an accepted event), ``undo`` (takes back the event it names),
``correct`` (the event it names was misread: its body stands in its place, where it was) and
``profile`` (the rule profile from here on, set between hands). ``imports`` names each game
put in from a log by its content, so importing the same game again adds nothing (a table
added by ``CREATE TABLE IF NOT EXISTS``: older files gain it when opened). Version 1 files (events and
undos only) are migrated when opened: the journal table is copied into one that accepts the
new kinds, in one transaction, rows unchanged.

WAL lets the web display read while the core thread writes. ``synchronous=FULL`` because a
table-side Pi gets its power cord pulled: an event the players saw announced must be on disk
when the announcement goes out, and at a few events a second the extra fsync costs nothing
that matters.
"""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 2

_GAMES = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started_at REAL NOT NULL,
    profile TEXT NOT NULL,          -- the rule profile the game started under
    names TEXT NOT NULL,            -- JSON list of four names
    hands INTEGER NOT NULL DEFAULT 0,
    scores TEXT NOT NULL,           -- JSON list: the scores now (final scores once finished)
    points TEXT,                    -- JSON list of game points, once finished
    finished INTEGER NOT NULL DEFAULT 0
);
"""

#: ``{name}``: the journal table is made under another name when a version 1 file is migrated.
_JOURNAL = """
CREATE TABLE IF NOT EXISTS {name} (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,           -- 1, 2, 3... per game, never reused
    at REAL NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('event', 'undo', 'correct', 'profile')),
    body TEXT,                      -- mjai JSON: the event ('event'), the right event ('correct'),
                                    -- an object naming the profile ('profile')
    undoes INTEGER,                 -- the seq taken back ('undo') or corrected ('correct')
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
"""

_HANDS = """
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

#: Games put in from logs (``jantaku import``), by what makes them the same game
#: (:func:`table_app.journal.game_identity.game_key`), so a second import adds nothing.
_IMPORTS = """
CREATE TABLE IF NOT EXISTS imports (
    key TEXT PRIMARY KEY,           -- SHA-256 of the normalised game
    game INTEGER NOT NULL REFERENCES games(id),
    source TEXT NOT NULL,           -- the file it was first imported from
    imported_at REAL NOT NULL
) WITHOUT ROWID;
"""

SCHEMA = _GAMES + _JOURNAL.format(name="journal") + _HANDS + _IMPORTS


def connect(path: str) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=5.0)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("PRAGMA foreign_keys=ON")
    if connection.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
        _migrate_journal(connection)
    connection.executescript(SCHEMA)
    connection.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    return connection


def _migrate_journal(connection: sqlite3.Connection) -> None:
    """A version 1 journal table refuses the new row kinds (its CHECK constraint cannot be
    altered in SQLite): copy it into a new one, rows unchanged, in one transaction."""
    row = connection.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'journal'").fetchone()
    if row is None or "'correct'" in row[0]:
        return
    create = _JOURNAL.format(name="journal_v2")
    connection.execute("BEGIN IMMEDIATE")
    try:
        connection.execute(create)
        columns = "game, seq, at, kind, body, undoes"
        connection.execute(f"INSERT INTO journal_v2 ({columns}) SELECT {columns} FROM journal")
        connection.execute("DROP TABLE journal")
        connection.execute("ALTER TABLE journal_v2 RENAME TO journal")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")
