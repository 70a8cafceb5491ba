"""Which journal rows stand: the event rows not taken back, each as last corrected, in its place
(a schema version 2 ``profile`` row stands as the profile-change event it was).

Shared by :meth:`table_app.journal.store.GameStore.events` and the hall, which keeps copies of
the tables' journal rows (:mod:`table_app.hall.book`) and must read them the same way.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from table_app.journal.errors import JournalCorruptError
from table_app.rules.events import ProfileChange
from table_app.rules.mjai_codec import encode_event


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
        elif kind == "profile":  # schema version 2's own row for a profile change
            kept.append((int(seq), float(at), profile_row_as_event(game, int(seq), body)))
    standing = []
    for seq, at, body in kept:
        if seq in undone:
            continue
        source, text = corrected.get(seq, (seq, body))
        standing.append(StandingRow(seq, at, text, source))
    return standing


def profile_row_as_event(game: int, seq: int, body: object) -> str:
    """A version 2 ``profile`` row (``{"profile": NAME}``) as the event text it stands for."""
    try:
        name = json.loads(str(body))["profile"]
    except (TypeError, ValueError, KeyError) as error:
        raise JournalCorruptError(game, seq, f"a profile row without a profile ({error})") from error
    return encode_event(ProfileChange(str(name)))
