"""Which journal rows stand: the event rows not taken back, each as last corrected, in its place.

Shared by :meth:`table_app.journal.store.GameStore.events` and the hall, which keeps copies of
the tables' journal rows (:mod:`table_app.hall.book`) and must read them the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from table_app.journal.errors import JournalCorruptError


@dataclass(frozen=True, slots=True)
class StandingRow:
    seq: int  # the event's place in the journal
    at: float
    body: str  # the event as it stands: its own row's body, or its last correction's
    source: int  # the row that body comes from (the event's own seq, or the correction's)


def standing_rows(game: int, rows: Iterable[tuple[int, float, str, str | None, int | None]]) -> list[StandingRow]:
    """``rows``: ``(seq, at, kind, body, undoes)`` of one game in sequence order."""
    undone: set[int] = set()
    corrected: dict[int, tuple[int, str]] = {}  # target seq -> (the correction's seq, its body)
    kept: list[tuple[int, float, str]] = []
    for seq, at, kind, body, undoes in rows:
        if kind in ("undo", "correct") and undoes is None:
            raise JournalCorruptError(game, seq, f"a {kind} row names no event")
        if kind in ("event", "correct") and body is None:
            raise JournalCorruptError(game, seq, f"an {kind} row without an event")
        if kind == "undo":
            undone.add(int(undoes))  # type: ignore[arg-type]
        elif kind == "correct":
            corrected[int(undoes)] = (int(seq), str(body))  # type: ignore[arg-type]  # a later correction wins
        elif kind == "event":
            kept.append((int(seq), float(at), str(body)))
    standing = []
    for seq, at, body in kept:
        if seq in undone:
            continue
        source, text = corrected.get(seq, (seq, body))
        standing.append(StandingRow(seq, at, text, source))
    return standing
