"""``GameStore``: the journal of accepted events, and the score keeping derived from it.

The journal is append-only. An undo is a journaled correction (an ``undo`` row naming the
sequence number it takes back), never a delete, so what happened at the table, mistakes
included, stays on record. A misread tile corrected later is a ``correct`` row naming the
event it replaces and holding the right one. The effective events of a game are the event
rows not taken back, each as last corrected, in their places; a rule profile changed between
hands is one of them (a ``profile_change`` event). Folding them with the rules core's one fold
(:func:`table_app.rules.fold.replay`, from the profile the game started under) rebuilds the
state after a crash. Journals of schema version 2 kept a profile change as a row of its own
kind (``profile``): it is read as the same event, in its place.

One process writes to a journal at a time (:mod:`table_app.journal.writer_lock`); readers open
it with ``read_only=True`` and cannot change a byte of it.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from table_app.journal.effective import standing_rows
from table_app.journal.errors import JournalCorruptError, JournalError, UnknownGameError
from table_app.journal.schema import connect, connect_read_only, examine, tables
from table_app.journal.writer_lock import acquire, release
from table_app.rules.events import GameEvent, StartGame, StartKyoku
from table_app.rules.mjai_codec import EventCodecError, decode_event, encode_event
from table_app.rules.state import GameState

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class JournalEntry:
    seq: int
    at: float
    event: GameEvent


@dataclass(frozen=True, slots=True)
class Undone:
    seq: int  # the correction's own sequence number
    undoes: int  # the event it took back


@dataclass(frozen=True, slots=True)
class HandSummary:
    number: int
    label: str
    ending: str
    deltas: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameSummary:
    id: int
    started_at: float
    profile: str
    names: tuple[str, ...]
    hands: int
    scores: tuple[int, ...]
    points: tuple[float, ...] | None
    finished: bool


class GameStore:
    def __init__(self, path: Path | str, *, read_only: bool = False) -> None:
        """Open the journal at ``path``: to write (made if there is none; one process at a time),
        or ``read_only``. A file that is not a journal this version keeps is refused, untouched."""
        self.path = str(path)
        self.read_only = read_only
        self._lock: str | None = None
        try:
            if read_only:
                self._db = connect_read_only(self.path)
                return
            examine(self.path)  # before the lock, so that nothing is made beside a foreign file
            self._lock = acquire(self.path)
            self._db = connect(self.path)
        except sqlite3.DatabaseError as error:
            self._unlock()
            raise JournalError(f"{self.path}: not a readable jantaku database ({error})") from error
        except BaseException:
            self._unlock()
            raise

    def close(self) -> None:
        self._db.close()
        self._unlock()

    def _unlock(self) -> None:
        if self._lock is not None:
            release(self._lock)
            self._lock = None

    # --- games ----------------------------------------------------------------------

    def new_game(self, profile: str, names: tuple[str, ...], scores: tuple[int, ...], at: float) -> int:
        cursor = self._db.execute(
            "INSERT INTO games (started_at, profile, names, scores) VALUES (?, ?, ?, ?)",
            (at, profile, json.dumps(list(names), ensure_ascii=False), json.dumps(list(scores))),
        )
        game = cursor.lastrowid
        assert game is not None
        logger.info("game %d started (%s)", game, profile)
        return game

    def import_game(
        self,
        key: str,
        *,
        source: str,
        profile: str,
        events: Sequence[GameEvent],
        at: float,
        after: GameState,
    ) -> tuple[int, bool]:
        """Journal a logged game as a new game, once: ``(game, True)``, or ``(game, False)`` when
        a game with the same ``key`` is already kept (nothing is written then)."""
        with self._transaction():
            row = self._db.execute("SELECT game FROM imports WHERE key = ?", (key,)).fetchone()
            if row is not None:
                return int(row[0]), False
            names = next((e.names for e in events if isinstance(e, StartGame)), ("",) * 4)
            start = next((e.scores for e in events if isinstance(e, StartKyoku)), (0,) * 4)
            cursor = self._db.execute(
                "INSERT INTO games (started_at, profile, names, scores) VALUES (?, ?, ?, ?)",
                (at, profile, json.dumps(list(names), ensure_ascii=False), json.dumps(list(start))),
            )
            game = cursor.lastrowid
            assert game is not None
            self._db.executemany(
                "INSERT INTO journal (game, seq, at, kind, body) VALUES (?, ?, ?, 'event', ?)",
                [(game, seq, at, encode_event(event)) for seq, event in enumerate(events, start=1)],
            )
            self._db.execute(
                "INSERT INTO imports (key, game, source, imported_at) VALUES (?, ?, ?, ?)", (key, game, source, at)
            )
            self._write_standing(game, after)
        logger.info("game %d imported from %s", game, source)
        return game, True

    def games(self) -> tuple[GameSummary, ...]:
        rows = self._db.execute(
            "SELECT id, started_at, profile, names, hands, scores, points, finished FROM games ORDER BY id"
        ).fetchall()
        return tuple(_summary(row) for row in rows)

    def game(self, game: int) -> GameSummary:
        row = self._db.execute(
            "SELECT id, started_at, profile, names, hands, scores, points, finished FROM games WHERE id = ?", (game,)
        ).fetchone()
        if row is None:
            raise UnknownGameError(game)
        return _summary(row)

    def latest_unfinished(self) -> int | None:
        """The table's game to resume: an imported log cut short is not one."""
        if "imports" not in tables(self._db):  # a file from before imports, read without writing
            row = self._db.execute("SELECT max(id) FROM games WHERE finished = 0").fetchone()
        else:
            row = self._db.execute(
                "SELECT max(id) FROM games WHERE finished = 0 AND id NOT IN (SELECT game FROM imports)"
            ).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def hands(self, game: int) -> tuple[HandSummary, ...]:
        rows = self._db.execute(
            "SELECT number, label, ending, deltas FROM hands WHERE game = ? ORDER BY number", (game,)
        ).fetchall()
        return tuple(HandSummary(int(n), str(label), str(ending), tuple(json.loads(d))) for n, label, ending, d in rows)

    # --- the journal ----------------------------------------------------------------

    def append(self, game: int, event: GameEvent, at: float, after: GameState | None = None) -> int:
        """Journal ``event`` (and, given the state after it, the standings) in one transaction;
        returns its sequence number once it is on disk."""
        return self.append_all(game, (event,), at, after)

    def append_all(self, game: int, events: Iterable[GameEvent], at: float, after: GameState | None = None) -> int:
        """Journal ``events`` in one transaction (one decision, or an imported log); returns the last
        sequence number."""
        with self._transaction():
            seq = self._next_seq(game) - 1
            for event in events:
                seq += 1
                self._db.execute(
                    "INSERT INTO journal (game, seq, at, kind, body) VALUES (?, ?, ?, 'event', ?)",
                    (game, seq, at, encode_event(event)),
                )
            if after is not None:
                self._write_standing(game, after)
        return seq

    def undo(self, game: int, at: float, after: GameState | None = None) -> Undone | None:
        """Take back the last effective event of ``game``; ``None`` if there is none."""
        entries = self.events(game)
        if not entries:
            return None
        target = entries[-1].seq
        with self._transaction():
            seq = self._next_seq(game)
            self._db.execute(
                "INSERT INTO journal (game, seq, at, kind, undoes) VALUES (?, ?, ?, 'undo', ?)", (game, seq, at, target)
            )
            if after is not None:
                self._write_standing(game, after)
        logger.info("game %d: event %d taken back by %d", game, target, seq)
        return Undone(seq, target)

    def correct(
        self,
        game: int,
        corrections: Iterable[tuple[int, GameEvent]],
        at: float,
        *,
        dropped: Iterable[int] = (),
        appended: Iterable[GameEvent] = (),
        after: GameState | None = None,
    ) -> int:
        """In one transaction: each ``(seq, event)`` of ``corrections``: the event at ``seq`` was
        misread, ``event`` stands in its place; the events at ``dropped`` no longer stand
        (taken back); ``appended`` follow. Returns the last sequence number written."""
        with self._transaction():
            seq = self._next_seq(game) - 1
            targets = []
            for target, event in corrections:
                seq += 1
                targets.append(target)
                self._db.execute(
                    "INSERT INTO journal (game, seq, at, kind, body, undoes) VALUES (?, ?, ?, 'correct', ?, ?)",
                    (game, seq, at, encode_event(event), target),
                )
            for taken in dropped:
                seq += 1
                self._db.execute(
                    "INSERT INTO journal (game, seq, at, kind, undoes) VALUES (?, ?, ?, 'undo', ?)",
                    (game, seq, at, taken),
                )
            for later in appended:
                seq += 1
                self._db.execute(
                    "INSERT INTO journal (game, seq, at, kind, body) VALUES (?, ?, ?, 'event', ?)",
                    (game, seq, at, encode_event(later)),
                )
            if after is not None:
                self._write_standing(game, after)
        logger.info("game %d: events %s corrected, up to %d", game, targets, seq)
        return seq

    def rewrite_standing(self, game: int, state: GameState) -> None:
        with self._transaction():
            self._write_standing(game, state)

    def events(self, game: int) -> tuple[JournalEntry, ...]:
        """The effective events of ``game`` in order: every event not taken back."""
        self.game(game)  # raises for an unknown game
        try:
            rows = self._db.execute(
                "SELECT seq, at, kind, body, undoes FROM journal WHERE game = ? ORDER BY seq", (game,)
            ).fetchall()
        except sqlite3.DatabaseError as error:
            raise JournalError(f"{self.path}: game {game}: journal unreadable ({error})") from error
        entries: list[JournalEntry] = []
        for row in standing_rows(game, rows):
            try:
                entries.append(JournalEntry(row.seq, row.at, decode_event(row.body)))
            except EventCodecError as error:
                raise JournalCorruptError(game, row.source, str(error)) from error
        return tuple(entries)

    # --- internals ------------------------------------------------------------------

    def _next_seq(self, game: int) -> int:
        row = self._db.execute("SELECT coalesce(max(seq), 0) FROM journal WHERE game = ?", (game,)).fetchone()
        return int(row[0]) + 1

    def _write_standing(self, game: int, state: GameState) -> None:
        self._db.execute("DELETE FROM hands WHERE game = ?", (game,))
        for number, result in enumerate(state.results, start=1):
            winners = [[int(w.winner), w.han, w.fu, w.points, *w.yaku] for w in result.wins]
            self._db.execute(
                "INSERT INTO hands (game, number, label, ending, deltas, winners) VALUES (?, ?, ?, ?, ?, ?)",
                (game, number, result.label, result.ending.value, json.dumps(list(result.deltas)), json.dumps(winners)),
            )
        points = None if state.final_points is None else json.dumps(list(state.final_points))
        self._db.execute(
            "UPDATE games SET hands = ?, scores = ?, points = ?, finished = ?, names = ? WHERE id = ?",
            (
                len(state.results),
                json.dumps(list(state.scores)),
                points,
                int(state.finished),
                json.dumps(list(state.names), ensure_ascii=False),
                game,
            ),
        )

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK if anything in between failed."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        self._db.execute("ROLLBACK" if error is not None else "COMMIT")


def _summary(row: tuple[object, ...]) -> GameSummary:
    game, started, profile, names, hands, scores, points, finished = row
    return GameSummary(
        id=int(str(game)),
        started_at=float(str(started)),
        profile=str(profile),
        names=tuple(json.loads(str(names))),
        hands=int(str(hands)),
        scores=tuple(json.loads(str(scores))),
        points=None if points is None else tuple(json.loads(str(points))),
        finished=bool(finished),
    )
