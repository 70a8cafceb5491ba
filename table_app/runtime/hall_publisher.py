"""``HallPublisher``: this table's journal, published to the hall's MQTT broker (``[hall]``).

The journal is the truth and the queue: a thread of its own reads the rows the core has
journaled (the public events a camera table journals, tiles nobody saw as ``?``; imported logs
are not the table's games and are not published) and publishes each on
``jantaku/<hall>/<table>/journal`` at QoS 1, in order, then the table's current state
(retained) on ``.../state``. It never touches the core thread: the core listener only wakes it.

Store and forward: the broker's PUBACKs move a per-game mark, kept in a side file
(:mod:`table_app.runtime.hall_outbox`); after a restart everything past the mark goes again.
While connected at most ``window`` rows wait for their PUBACK; while the broker is away nothing
new is handed to the MQTT client (the journal keeps it), and what it already held goes again
when the connection is back. The hall takes each (table, game, seq) once, so sending again is
always safe; it also asks for rows it misses (``.../resend``: a broker killed after its PUBACK
but before delivering to the hall), and the table sends them again.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from paho.mqtt.client import Client, ConnectFlags, DisconnectFlags, MQTTMessage
from paho.mqtt.reasoncodes import ReasonCode

from table_app.hall.follow import GameFollower, GameKey
from table_app.hall.glance import glance
from table_app.hall.mqtt import connect, new_client
from table_app.hall.protocol import (
    JOURNAL,
    OFFLINE,
    ONLINE,
    RESEND,
    STATE,
    STATUS,
    JournalRow,
    PayloadError,
    TableRow,
    decode_resend,
    topic,
)
from table_app.journal.schema import connect_read_only
from table_app.runtime.config import HallConfig
from table_app.runtime.hall_outbox import HallOutbox
from table_app.runtime.ports import CoreUpdate

logger = logging.getLogger(__name__)

WINDOW = 256  # rows handed to the MQTT client and not yet acknowledged, at most
POLL_S = 0.5  # the journal is read at least this often (the core's listener wakes it sooner)
SAVE_EVERY_S = 0.2  # the acknowledged marks go to disk at most this often
_CONNECTED = object()


class HallPublisher:
    def __init__(self, config: HallConfig, db: Path, *, window: int = WINDOW) -> None:
        self._config = config
        self._db_path = db
        self._window = window
        self._topics = {leaf: topic(config.hall, config.table, leaf) for leaf in (JOURNAL, STATE, STATUS, RESEND)}
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._events: queue.SimpleQueue[object] = queue.SimpleQueue()  # from paho's thread: acks, requests
        self._thread: threading.Thread | None = None
        self._client: Client | None = None
        self._outbox: HallOutbox | None = None
        self._journal: sqlite3.Connection | None = None
        self._lock = threading.Lock()  # guards the figures below, read by other threads
        self._acked: dict[int, int] = {}
        self._saved: dict[int, int] = {}
        self._next: dict[int, int] = {}  # game -> the next sequence number to hand to the client
        self._outstanding: dict[int, tuple[int, int]] = {}  # mid -> (game, seq)
        self._waiting: dict[int, set[int]] = {}  # game -> seqs handed and not acknowledged
        self._handed_max: dict[int, int] = {}
        self._follower: GameFollower | None = None
        self._latest: tuple[int, float, str] | None = None  # the table's latest game: id, started, profile
        self._saved_at = 0.0
        self._dead = False  # killed (tests): nothing more goes out
        self._complete: set[int] = set()  # finished games whose every row was handed out
        self._state_sent: tuple[int, int] | None = None
        self.connected = threading.Event()
        self.published = 0  # rows handed to the client, resends included

    # --- lifecycle ----------------------------------------------------------------

    def start(self) -> HallPublisher:
        destination = f"{self._config.broker.url}/{self._config.hall}/{self._config.table}"
        self._outbox = HallOutbox(self._config.outbox, destination)
        self._acked = self._outbox.acked()
        self._saved = dict(self._acked)
        self._next = {game: seq + 1 for game, seq in self._acked.items()}
        self._journal = connect_read_only(str(self._db_path))
        client = new_client(
            f"jantaku-table-{self._config.hall}-{self._config.table}",
            self._config.broker,
            clean_session=True,
            will=(self._topics[STATUS], OFFLINE.encode()),
        )
        client.max_inflight_messages_set(self._window)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        self._client = client
        connect(client, self._config.broker)
        self._thread = threading.Thread(target=self._run, name="hall-publisher", daemon=True)
        self._thread.start()
        logger.info("hall: publishing to %s as %s/%s", self._config.broker.url, self._config.hall, self._config.table)
        return self

    def on_update(self, _update: CoreUpdate) -> None:
        """The core's listener: something was journaled; never waits on the network."""
        self._wake.set()

    def stop(self, flush_s: float = 2.0) -> None:
        """Say "offline" (retained), give what is in flight ``flush_s`` to be acknowledged, and stop."""
        client = self._client
        if self._thread is not None:
            self._stopping.set()
            self._wake.set()
            self._thread.join(10)
        if client is not None:
            if self.connected.is_set():
                with contextlib.suppress(Exception):
                    client.publish(self._topics[STATUS], OFFLINE.encode(), qos=1, retain=True).wait_for_publish(flush_s)
            deadline = time.monotonic() + flush_s
            while self.connected.is_set() and self._outstanding and time.monotonic() < deadline:
                self._take_events(timeout=0.05)
            client.disconnect()
            client.loop_stop()
        self._take_events()
        self._save(force=True)
        if self._outbox is not None:
            self._outbox.close()
        if self._journal is not None:
            self._journal.close()

    def kill(self) -> None:
        """Tests and the benchmark: die as a power cut would: no goodbye (the broker sends the
        will), nothing saved after this point, the connection dropped."""
        self._dead = True
        self._stopping.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(10)
        if self._client is not None:
            self._client.loop_stop()
            sock = self._client.socket()
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.close()
        if self._outbox is not None:
            self._outbox.close()
        if self._journal is not None:
            self._journal.close()

    def acked(self) -> dict[int, int]:
        with self._lock:
            return dict(self._acked)

    # --- paho's thread: only queue what happened --------------------------------------

    def _on_connect(self, client: Client, _data: Any, _flags: ConnectFlags, reason: ReasonCode, _props: Any) -> None:
        if reason.is_failure:
            logger.warning("hall: broker %s refused the connection: %s", self._config.broker.url, reason)
            return
        client.subscribe(self._topics[RESEND], qos=1)
        self.connected.set()
        self._events.put(_CONNECTED)
        self._wake.set()

    def _on_disconnect(self, _c: Client, _d: Any, _f: DisconnectFlags, reason: ReasonCode, _p: Any) -> None:
        if self.connected.is_set():
            logger.warning("hall: lost the broker %s (%s); the journal keeps the rest", self._config.broker.url, reason)
        self.connected.clear()

    def _on_publish(self, _c: Client, _d: Any, mid: int, _reason: ReasonCode, _p: Any) -> None:
        self._events.put(mid)
        self._wake.set()

    def _on_message(self, _c: Client, _d: Any, message: MQTTMessage) -> None:
        try:
            self._events.put(decode_resend(message.topic, bytes(message.payload)))
        except PayloadError as error:
            logger.warning("hall: %s", error)
        self._wake.set()

    # --- the publisher's thread ------------------------------------------------------

    def _run(self) -> None:
        while not self._stopping.is_set():
            self._wake.wait(POLL_S)
            self._wake.clear()
            try:
                self._take_events()
                if self.connected.is_set():
                    self._publish_rows()
                    self._publish_state()
                self._save()
            except Exception:  # a fault here must never stop the table: said, then tried again
                logger.exception("hall: publishing failed; trying again")
                self._stopping.wait(1.0)
        if self.connected.is_set() and not self._dead:  # what the core journaled last, before saying goodbye
            self._take_events()
            self._publish_rows()
            self._publish_state()

    def _take_events(self, timeout: float | None = None) -> None:
        while True:
            try:
                item = self._events.get(timeout=timeout) if timeout else self._events.get_nowait()
            except queue.Empty:
                return
            timeout = None
            if item is _CONNECTED:
                self._announce()
            elif isinstance(item, int):
                self._acknowledged(item)
            else:
                game, first = item.game, item.from_seq  # type: ignore[attr-defined]
                if first < self._next.get(game, 1):
                    logger.info("hall: the hall asks for game %d again from %d", game, first)
                    self._next[game] = first
                    self._complete.discard(game)

    def _announce(self) -> None:
        assert self._client is not None
        self._client.publish(self._topics[STATUS], ONLINE.encode(), qos=1, retain=True)
        self._state_sent = None  # a restarted broker may have lost the retained state: send it again

    def _acknowledged(self, mid: int) -> None:
        where = self._outstanding.pop(mid, None)
        if where is None:
            return
        game, seq = where
        waiting = self._waiting.get(game, set())
        waiting.discard(seq)
        mark = min(waiting) - 1 if waiting else self._handed_max.get(game, seq)
        with self._lock:
            if mark > self._acked.get(game, 0):
                self._acked[game] = mark

    def _publish_rows(self) -> None:
        assert self._journal is not None
        assert self._client is not None
        room = self._window - len(self._outstanding)
        if room <= 0:
            return
        games = self._journal.execute(
            "SELECT id, started_at, profile, finished FROM games WHERE id NOT IN (SELECT game FROM imports) ORDER BY id"
        ).fetchall()
        if games:
            self._latest = (int(games[-1][0]), float(games[-1][1]), str(games[-1][2]))
        for game, started, profile, finished in games:
            if game in self._complete or room <= 0:
                continue
            first = self._next.get(game, 1)
            row = self._journal.execute("SELECT max(seq) FROM journal WHERE game = ?", (game,)).fetchone()
            last = 0 if row is None or row[0] is None else int(row[0])
            if first > last:
                if finished:  # a finished game handed out whole: not looked at again (unless asked for)
                    self._complete.add(game)
                continue
            rows = self._journal.execute(
                "SELECT seq, at, kind, body, undoes FROM journal WHERE game = ? AND seq >= ? ORDER BY seq LIMIT ?",
                (game, first, room),
            ).fetchall()
            for seq, at, kind, body, undoes in rows:
                row = JournalRow(int(game), int(seq), float(at), str(kind), body, undoes)
                payload = TableRow(self._config.table, float(started), str(profile), row).encode()
                info = self._client.publish(self._topics[JOURNAL], payload, qos=1)
                self._outstanding[info.mid] = (row.game, row.seq)
                self._waiting.setdefault(row.game, set()).add(row.seq)
                self._handed_max[row.game] = max(self._handed_max.get(row.game, 0), row.seq)
                self._next[row.game] = row.seq + 1
                self.published += 1
                room -= 1

    def _follow(self) -> GameFollower | None:
        """The latest game's state, as far as its rows have been handed to the client."""
        assert self._journal is not None
        if self._latest is None:
            return None
        game, started, profile = self._latest
        if self._follower is None or game > self._follower.key.game:
            self._follower = GameFollower(GameKey(self._config.table, game), started, profile)
        follower = self._follower
        rows = self._journal.execute(
            "SELECT seq, at, kind, body, undoes FROM journal WHERE game = ? AND seq > ? AND seq < ? ORDER BY seq",
            (game, follower.held, self._next.get(game, 1)),
        ).fetchall()
        for seq, at, kind, body, undoes in rows:
            follower.add(JournalRow(game, int(seq), float(at), str(kind), body, undoes))
        return follower

    def _publish_state(self) -> None:
        follower = self._follow()
        if follower is None or self._client is None or follower.held == 0:
            return
        key = (follower.key.game, follower.held)
        if self._state_sent == key:
            return
        state = glance(self._config.table, follower.state, follower.last_event, game=key[0], seq=key[1], at=follower.at)
        self._client.publish(self._topics[STATE], state.encode(), qos=1, retain=True)
        self._state_sent = key

    def _save(self, *, force: bool = False) -> None:
        now = time.monotonic()
        if self._outbox is None or (not force and now - self._saved_at < SAVE_EVERY_S):
            return
        with self._lock:
            changed = {game: seq for game, seq in self._acked.items() if self._saved.get(game) != seq}
        if changed:
            self._outbox.save(changed)
            self._saved.update(changed)
        self._saved_at = now
