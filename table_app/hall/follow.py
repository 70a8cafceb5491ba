"""One table's game as the hall holds it: its journal rows by sequence, folded up to the first gap.

Rows may arrive more than once and out of order (a broker restart, a table resending): the
fold takes them in sequence order and stops at a missing one until it comes. An ``event`` row
that extends the game is applied at once; an undo, a correction or a profile change refolds
the game from its rows, as the table itself does (:mod:`table_app.journal.effective`,
:func:`table_app.rules.fold.replay`). A profile change is an event row (a version 2 table's
own ``profile`` row is read as the same event).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from table_app.hall.protocol import JournalRow
from table_app.journal.effective import standing_rows
from table_app.rules.events import GameEvent
from table_app.rules.fold import apply, new_game, replay
from table_app.rules.mjai_codec import decode_event
from table_app.rules.profiles import profile_named
from table_app.rules.state import GameState

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class GameKey:
    table: str
    game: int


class GameFollower:
    def __init__(self, key: GameKey, started: float, profile: str) -> None:
        self.key = key
        self.started = started
        self.profile = profile
        self.rows: dict[int, JournalRow] = {}
        self.held = 0  # every row 1..held is here
        self.state: GameState = new_game(profile_named(profile))
        self.last_event: GameEvent | None = None
        self.fault = ""  # why the game cannot be followed past ``held`` (a row the rules refuse)

    @property
    def at(self) -> float:
        return self.rows[self.held].at if self.held else self.started

    def add(self, row: JournalRow) -> bool:
        """Keep ``row``; ``True`` if the folded game moved."""
        self.rows[row.seq] = row
        if row.seq != self.held + 1:
            return False
        refold = False
        while self.held + 1 in self.rows:
            self.held += 1
            taken = self.rows[self.held]
            if refold or self.fault:
                continue
            if taken.kind == "event" and taken.body is not None:
                try:
                    event = decode_event(taken.body)
                    self.state = apply(self.state, event)
                    self.last_event = event
                except Exception as error:  # a row the rules cannot follow: said once, the rest kept
                    self._fail(taken.seq, error)
            else:
                refold = True
        if refold and not self.fault:
            self._refold()
        return True

    def _refold(self) -> None:
        rows = [self.rows[seq] for seq in range(1, self.held + 1)]
        try:
            standing = standing_rows(self.key.game, ((r.seq, r.at, r.kind, r.body, r.undoes) for r in rows))
            events = [decode_event(s.body) for s in standing]
            self.state = replay(events, profile_named(self.profile))
            self.last_event = events[-1] if events else None
        except Exception as error:
            self._fail(self.held, error)

    def _fail(self, seq: int, error: Exception) -> None:
        self.fault = f"table {self.key.table} game {self.key.game}: row {seq} cannot be followed ({error})"
        logger.warning("%s", self.fault)

    def gap(self) -> int | None:
        """The first missing sequence number below the highest held, if any."""
        if not self.rows or max(self.rows) == self.held:
            return None
        return self.held + 1
