"""``HallBook``: the hall's picture of every table, fed by the subscriber, read by the pages.

Each row received goes to the hall's journal first (:class:`HallStore`, kept once per
(table, game, seq)); a new one then moves its game (:class:`GameFollower`) and the page hears
which table changed. The tables' retained ``state`` says how far each table's journal goes:
where the hall holds less (a broker that was killed after acknowledging a row, but before
delivering it), :meth:`HallBook.missing` names the rows to ask the table for again.

Thread-safe: the subscriber's thread writes, the web server's reads.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from table_app.hall.follow import GameFollower, GameKey
from table_app.hall.glance import glance
from table_app.hall.protocol import ResendRequest, TableRow, TableState
from table_app.hall.standings import PlayerTotal, hall_totals
from table_app.hall.store import HallStore, Received
from table_app.view.build import RuntimeExtras, build_view
from table_app.view.model import TableView

logger = logging.getLogger(__name__)

#: A table's claim must stand this long, unmet, before the hall asks for the rows again
#: (rows published just before the claim are usually still on their way).
SETTLE_S = 1.0
ASK_AGAIN_S = 3.0

TableListener = Callable[[str], None]


@dataclass
class _Table:
    name: str
    online: bool | None = None  # None: no status seen yet
    claimed: tuple[int, int] | None = None  # the table's own (game, seq), from its retained state
    claimed_at: float = 0.0
    asked: dict[int, float] = field(default_factory=dict)  # game -> when the hall last asked for it
    latest: int = 0  # the latest game the hall holds rows of


@dataclass(frozen=True, slots=True)
class Counts:
    new: int
    duplicates: int
    conflicts: int
    refused: int


class HallBook:
    def __init__(self, store: HallStore | None = None, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._tables: dict[str, _Table] = {}
        self._games: dict[GameKey, GameFollower] = {}
        self._listeners: list[TableListener] = []
        self._counts = {"new": 0, "duplicates": 0, "conflicts": 0, "refused": 0}
        self._featured: str | None = None
        self._view_sequence = itertools.count(1)
        if store is not None:
            self._load(store)

    def _load(self, store: HallStore) -> None:
        for stored in store.games():
            follower = self._follower(stored.table, stored.game, stored.started, stored.profile)
            for row in store.rows(stored.table, stored.game):
                follower.add(row)
        if self._games:
            logger.info("hall journal: %d games of %d tables", len(self._games), len(self._tables))

    # --- what the subscriber brings ------------------------------------------------------

    def receive_row(self, item: TableRow) -> Received:
        with self._lock:
            outcome = Received.NEW
            if self._store is not None:
                outcome = self._store.insert(item, self._clock())
            if outcome is Received.CONFLICT:
                self._counts["conflicts"] += 1
                logger.warning("table %s game %d row %d came again different: the first is kept", *item.key)
                return outcome
            if outcome is Received.DUPLICATE:
                self._counts["duplicates"] += 1
                self._changed.notify_all()
                return outcome
            follower = self._follower(item.table, item.row.game, item.started, item.profile)
            if item.row.seq in follower.rows:  # no store: the followers are the memory
                self._counts["duplicates"] += 1
                return Received.DUPLICATE
            self._counts["new"] += 1
            moved = follower.add(item.row)
        if moved:
            self._tell(item.table)
        return Received.NEW

    def receive_state(self, state: TableState) -> None:
        with self._lock:
            table = self._table(state.table)
            table.claimed = (state.game, state.seq)
            table.claimed_at = self._clock()
            self._changed.notify_all()

    def receive_status(self, name: str, online: bool) -> None:
        with self._lock:
            self._table(name).online = online
        self._tell(name)

    def refused(self) -> None:
        with self._lock:
            self._counts["refused"] += 1

    # --- asking for what is missing ------------------------------------------------------

    def missing(self) -> list[tuple[str, ResendRequest]]:
        """Rows to ask tables for again: a game with a hole, or held short of the table's claim."""
        now = self._clock()
        asks = []
        with self._lock:
            for table in self._tables.values():
                wanted: dict[int, int] = {}
                if table.claimed is not None and now - table.claimed_at >= SETTLE_S:
                    game, seq = table.claimed
                    follower = self._games.get(GameKey(table.name, game))
                    held = 0 if follower is None else follower.held
                    if held < seq:
                        wanted[game] = held + 1
                for key, follower in self._games.items():
                    gap = follower.gap() if key.table == table.name else None
                    if gap is not None and now - follower.at >= SETTLE_S:
                        wanted[key.game] = min(gap, wanted.get(key.game, gap))
                for game, first in wanted.items():
                    if now - table.asked.get(game, 0.0) >= ASK_AGAIN_S:
                        table.asked[game] = now
                        asks.append((table.name, ResendRequest(game, first)))
        return asks

    # --- what the pages read ---------------------------------------------------------------

    def subscribe(self, listener: TableListener) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(listener)
        return lambda: self._unsubscribe(listener)

    def _unsubscribe(self, listener: TableListener) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def table_names(self) -> list[str]:
        with self._lock:
            return sorted(self._tables)

    def card(self, name: str) -> dict[str, Any]:
        """The hall page's card of table ``name`` (JSON)."""
        with self._lock:
            table = self._tables[name]
            follower = self._games.get(GameKey(name, table.latest)) if table.latest else None
            card: dict[str, Any] = {"table": name, "online": table.online, "game": None}
            if follower is not None:
                state = glance(
                    name, follower.state, follower.last_event, game=follower.key.game, seq=follower.held, at=follower.at
                )
                card.update(
                    game=state.game,
                    seq=state.seq,
                    at=state.at,
                    round={"en": state.round_en, "ja": state.round_ja},
                    honba=state.honba,
                    riichi_sticks=state.riichi_sticks,
                    dealer=state.dealer,
                    names=list(state.seats.names),
                    scores=list(state.seats.scores),
                    riichi=list(state.seats.riichi),
                    last_act=state.last_act,
                    hands=state.hands,
                    finished=state.finished,
                    fault=follower.fault,
                )
            return card

    def cards(self) -> list[dict[str, Any]]:
        return [self.card(name) for name in self.table_names()]

    def standings(self) -> list[PlayerTotal]:
        with self._lock:
            finished = [(key.table, f.state) for key, f in sorted(self._games.items(), key=_order) if f.state.finished]
        return hall_totals(finished)

    def finished_games(self) -> int:
        with self._lock:
            return sum(1 for f in self._games.values() if f.state.finished)

    def counts(self) -> Counts:
        with self._lock:
            return Counts(**self._counts)

    def held(self, table: str, game: int) -> list[int]:
        """The sequence numbers the hall holds of a game (tests, the benchmark)."""
        with self._lock:
            follower = self._games.get(GameKey(table, game))
            return [] if follower is None else sorted(follower.rows)

    # --- the feature table (the broadcast overlay) --------------------------------------------

    @property
    def featured(self) -> str | None:
        with self._lock:
            return self._featured

    def feature(self, name: str) -> bool:
        with self._lock:
            if name not in self._tables:
                return False
            self._featured = name
        self._tell(name)
        return True

    def featured_view(self) -> TableView:
        """The overlay's view of the featured table; its sequence counts every view the hall made,
        so a page never takes a switch to another table for an older view."""
        with self._lock:
            follower = None
            if self._featured is not None:
                table = self._tables[self._featured]
                follower = self._games.get(GameKey(table.name, table.latest))
            sequence = next(self._view_sequence)
            if follower is None:
                return build_view(GameFollower(GameKey("", 0), 0.0, "tenhou").state, RuntimeExtras(sequence=sequence))
            return build_view(follower.state, RuntimeExtras(sequence=sequence))

    # --- internals ---------------------------------------------------------------------------

    def _table(self, name: str) -> _Table:
        table = self._tables.get(name)
        if table is None:
            table = self._tables[name] = _Table(name)
            if self._featured is None:
                self._featured = name
        return table

    def _follower(self, name: str, game: int, started: float, profile: str) -> GameFollower:
        key = GameKey(name, game)
        follower = self._games.get(key)
        if follower is None:
            follower = self._games[key] = GameFollower(key, started, profile)
        table = self._table(name)
        table.latest = max(table.latest, game)
        return follower

    def wait(self, predicate: Callable[[HallBook], bool], timeout_s: float) -> bool:
        """Block until ``predicate(book)`` holds (checked at each change), or ``timeout_s`` passes."""
        with self._changed:
            return self._changed.wait_for(lambda: predicate(self), timeout_s)

    def _tell(self, name: str) -> None:
        with self._lock:
            listeners = tuple(self._listeners)
            self._changed.notify_all()
        for listener in listeners:
            try:
                listener(name)
            except Exception:
                logger.exception("hall listener failed")


def _order(item: tuple[GameKey, GameFollower]) -> tuple[float, str, int]:
    return (item[1].started, item[0].table, item[0].game)
