"""A table's journal made the way a table makes it: the shipped game's observations, one by one,
through a real ``RefereeCore`` into a real SQLite journal (no core thread: ``process`` is called
directly, so a test decides exactly how far the game has gone)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from table_app.demo_data import DEMO_LOG
from table_app.hall.protocol import JournalRow
from table_app.interpret import TableSetup
from table_app.interpret.event_observations import FeedOptions, log_observations
from table_app.journal.schema import connect_read_only
from table_app.journal.store import GameStore
from table_app.logs import read_log
from table_app.rules.check import profile_for_log
from table_app.rules.events import StartKyoku
from table_app.rules.profiles import TENHOU
from table_app.runtime.core import RefereeCore

_CACHE: dict[str, object] = {}


def demo_observations() -> tuple[list[object], TableSetup]:
    if "demo" not in _CACHE:
        game = read_log(DEMO_LOG)[0]
        profile = profile_for_log(TENHOU, game.rules)
        first = next(e.oya for e in game.events if isinstance(e, StartKyoku))
        observations = list(log_observations(game.events, profile, FeedOptions(trays=True)))
        _CACHE["demo"] = (observations, TableSetup(profile, ("Aoki", "Baba", "Chiba", "Doi"), first))
    return _CACHE["demo"]  # type: ignore[return-value]


class TableJournal:
    """A table's journal, played forward observation by observation."""

    def __init__(self, db: Path, names: tuple[str, str, str, str] = ("Aoki", "Baba", "Chiba", "Doi")) -> None:
        self.db = db
        self.observations, setup = demo_observations()
        setup = replace(setup, names=names)
        self.store = GameStore(db)
        self.core = RefereeCore(self.store, setup)
        self.position = 0

    def play(self, count: int | None = None) -> None:
        end = len(self.observations) if count is None else min(len(self.observations), self.position + count)
        for observation in self.observations[self.position : end]:
            self.core.process(observation)  # type: ignore[arg-type]
        self.position = end

    @property
    def finished(self) -> bool:
        return self.position >= len(self.observations)

    def close(self) -> None:
        self.store.close()


def journal_rows(db: Path) -> list[JournalRow]:
    """Every row of every game of a table's journal, as the hall should hold them."""
    connection = connect_read_only(str(db))
    try:
        rows = connection.execute("SELECT game, seq, at, kind, body, undoes FROM journal ORDER BY game, seq").fetchall()
    finally:
        connection.close()
    return [JournalRow(int(g), int(s), float(a), str(k), b, u) for g, s, a, k, b, u in rows]
