"""The database's tables, and why the connection is set up as it is.

One SQLite file holds both the journal (the truth: ``journal`` rows, append-only) and what
score keeping derives from it (``games`` standings and ``hands`` results, rewritten from the
fold whenever the journal moves). Losing the derived tables loses nothing: replaying the
journal rebuilds them.

Journal rows are ``event`` (an accepted event, a rule profile changed between hands
included), ``undo`` (takes back the event it names) and ``correct`` (the event it names was
misread: its body stands in its place, where it was). ``imports`` names each game put in from
a log by its content, so importing the same game again adds nothing (a table added by
``CREATE TABLE IF NOT EXISTS``: older files gain it when opened).

Older versions are read as they are and kept when opened to write (rows are never rewritten):
- version 2 wrote a profile change as a ``profile`` row (``{"profile": NAME}``); it is read as
  the ``profile_change`` event it stands for, in its place (:mod:`table_app.journal.store`).
  Version 3 writes it as an ``event`` row, so a version 2 jantaku refuses a version 3 file
  (a newer journal) instead of misreading it; opened to write, a version 2 file is marked 3.
- version 1 files (events and undos only) are migrated when opened to write: the journal
  table is copied into one that accepts the later kinds, in one transaction, rows unchanged.

WAL lets the web display read while the core thread writes. ``synchronous=FULL`` because a
table-side Pi gets its power cord pulled: an event the players saw announced must be on disk
when the announcement goes out, and at a few events a second the extra fsync costs nothing
that matters.

Nothing is written to a file before it is known to be a journal this version can keep:
:func:`examine` reads it through a read-only connection first, and a file that is not SQLite,
a SQLite database of something else, a journal from a newer jantaku or a damaged file is
refused with one line, left byte for byte as it was (no tables added, no WAL switch, no
``user_version`` rewritten, nothing "repaired"). Readers (``jantaku games``, ``export``)
open read-only (``mode=ro``) and never write at all.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from table_app.journal.errors import JournalError

SCHEMA_VERSION = 3

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
                                    -- ('profile': version 2's profile changes, read, never written)
    body TEXT,                      -- mjai JSON: the event ('event'), the right event ('correct'),
                                    -- an object naming the profile ('profile', version 2)
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


_SQLITE_MAGIC = b"SQLite format 3\x00"

#: The columns a file's tables must have to be taken for a journal (``hands`` is derived: made if missing).
_REQUIRED_COLUMNS = {
    "games": {"id", "started_at", "profile", "names", "hands", "scores", "points", "finished"},
    "journal": {"game", "seq", "at", "kind", "body", "undoes"},
}


@dataclass(frozen=True, slots=True)
class FileState:
    exists: bool  # False: no file, an empty file, or an empty SQLite database: a new journal
    version: int = 0


def examine(path: str) -> FileState:
    """What is at ``path``, read without writing a byte; raises :class:`JournalError` (one line,
    naming the file and why) for anything that is not a journal this version can keep."""
    try:
        with Path(path).open("rb") as file:
            head = file.read(len(_SQLITE_MAGIC))
    except FileNotFoundError:
        return FileState(exists=False)
    except OSError as error:
        raise JournalError(f"{path}: cannot be read ({error.strerror})") from error
    if not head:
        return FileState(exists=False)
    if head != _SQLITE_MAGIC:
        raise JournalError(f"{path}: not a readable jantaku database (not a SQLite file); refused, left as it is")
    try:
        connection = _open_read_only(path)
    except sqlite3.Error as error:
        raise JournalError(f"{path}: not a readable jantaku database ({error}); refused, left as it is") from error
    try:
        version, columns = _read_layout(connection)
        damage = _damage(connection)
    except sqlite3.DatabaseError as error:
        raise JournalError(f"{path}: damaged ({error}); left as it is: restore a copy") from error
    finally:
        connection.close()
    if damage != ["ok"]:
        raise JournalError(f"{path}: damaged ({'; '.join(damage)}); left as it is: restore a copy")
    if version > SCHEMA_VERSION:
        raise JournalError(
            f"{path}: a journal of a newer jantaku (version {version}; this one keeps up to {SCHEMA_VERSION}); "
            "refused, left as it is"
        )
    if not columns and version == 0:
        return FileState(exists=False)  # an empty SQLite database: nothing in it to spoil
    for table, wanted in _REQUIRED_COLUMNS.items():
        missing = wanted - columns.get(table, set())
        if missing:
            what = f"no {table} table" if table not in columns else f"{table} lacks {', '.join(sorted(missing))}"
            raise JournalError(f"{path}: a SQLite database but not a jantaku journal ({what}); refused, left as it is")
    return FileState(exists=True, version=version)


def _damage(connection: sqlite3.Connection) -> list[str]:
    """``["ok"]``, or the first few of SQLite's findings, each on one line."""
    found = [str(row[0]) for row in connection.execute("PRAGMA quick_check(3)").fetchall()]
    lines = [line.strip() for text in found for line in text.splitlines()]
    return [line for line in lines if line and not line.startswith("***")][:3]


def _read_layout(connection: sqlite3.Connection) -> tuple[int, dict[str, set[str]]]:
    version = int(connection.execute("PRAGMA user_version").fetchone()[0])
    columns = {
        name: {str(row[1]) for row in connection.execute(f"PRAGMA table_info({_quoted(name)})")}
        for name in tables(connection)
    }
    return version, columns


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _open_read_only(path: str) -> sqlite3.Connection:
    uri = "file:" + _uri_path(str(Path(path).absolute())) + "?mode=ro"
    return sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False, timeout=5.0)


def _uri_path(path: str) -> str:
    # '?' and '#' end a URI's path, '%' starts an escape: escape them so any file name works.
    return path.replace("%", "%25").replace("?", "%3f").replace("#", "%23")


def connect_read_only(path: str) -> sqlite3.Connection:
    """A connection that cannot write (``jantaku games``, ``export``): the file must already be a
    journal (see :func:`examine`)."""
    state = examine(path)
    if not state.exists:
        raise JournalError(f"{path}: no journal there (no file, or an empty one)")
    connection = _open_read_only(path)
    connection.execute("PRAGMA query_only=ON")
    return connection


def connect(path: str) -> sqlite3.Connection:
    """The writer's connection, to a file :func:`examine` found to be a journal (or nothing)."""
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=5.0)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("PRAGMA foreign_keys=ON")
    old = connection.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION
    if old:
        _migrate_journal(connection)
    if old or not tables(connection) >= TABLES:
        # The tables and the version in one transaction: a power cut while a journal is being
        # made leaves an empty database (made again at the next start), never half a journal.
        # A journal of this version with every table is not written to at all.
        try:
            connection.executescript(f"BEGIN IMMEDIATE; {SCHEMA} PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            connection.close()
            raise
    return connection


#: Every table a journal of this version has (older files gain the missing ones when opened to write).
TABLES = frozenset({"games", "journal", "hands", "imports"})


def tables(connection: sqlite3.Connection) -> set[str]:
    return {str(n) for (n,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


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
