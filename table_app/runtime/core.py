"""``RefereeCore``: the one thread that owns the game state.

Adapters post observations to its queue from their own threads. The core thread takes them
one at a time, asks the pure referee (:func:`table_app.interpret.step`) what they mean, journals
every accepted event in SQLite (fsync'd) and only then tells its listeners. Killed at any
point, it restarts from the journal: the state is the fold of the journaled events.

A person's request (a console command) is *submitted* instead: it is processed in turn like any
observation, and its future resolves to the referee's ruling on it (accepted, or refused with
the reason), decided on the core thread. Nobody outside reads the core's state to find out.

Between observations, and while they stream in, it steps a ``Tick`` every ``tick_s`` on its
own monotonic clock: sensor disagreements settle on that time (a quiet table included).
A tick that says nothing is not shown to the listeners.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace

from table_app.announce.announcement import AnnouncementKind, announce
from table_app.interpret import Decision, RefereeSession, TableSetup, new_session, step
from table_app.interpret.correction import correct_discard, resync
from table_app.interpret.ruling import Ruling, refused
from table_app.journal.store import GameStore, JournalEntry
from table_app.observations import Observation, Tick, TileCorrected
from table_app.rules.events import Dahai, EndGame, EndKyoku, GameEvent, StartKyoku
from table_app.rules.fold import replay
from table_app.rules.profiles import profile_named
from table_app.rules.state import GameState
from table_app.runtime.ports import CoreListener, CoreUpdate

logger = logging.getLogger(__name__)

_STOP = object()
TICK_S = 0.25  # how often the core's clock is stepped: the grain of a settle time
#: The ruling on a request the core never got to (it stopped, or failed, first).
STOPPED = refused("the referee core has stopped")


@dataclass(frozen=True, slots=True)
class _Request:
    """A submitted observation and the future its ruling resolves."""

    observation: Observation
    ruling: Future[Ruling]


class RefereeCore:
    def __init__(
        self,
        store: GameStore,
        setup: TableSetup,
        listeners: Sequence[CoreListener] = (),
        *,
        clock: Callable[[], float] = time.time,
        tick_s: float = TICK_S,
        monotonic: Callable[[], float] = time.monotonic,
        resume: bool = True,
    ) -> None:
        self._store = store
        self._listeners = list(listeners)
        self._clock = clock
        self._tick_s = tick_s
        self._monotonic = monotonic
        self._queue: queue.Queue[object] = queue.Queue()
        self._thread: threading.Thread | None = None
        self.failure: BaseException | None = None  # why the core thread stopped, if it failed
        self.stopped = threading.Event()
        self.beat = monotonic()  # when the core thread last went round its loop (the watchdog's pulse)
        self.game_id, self.session, self.journal_seq = self._resume(setup) if resume else (None, new_session(setup), 0)

    # --- set-up -----------------------------------------------------------------------

    def _resume(self, setup: TableSetup) -> tuple[int | None, RefereeSession, int]:
        """The unfinished game in the journal, folded back; or a fresh session. (With
        ``resume=False`` the core starts a new game whatever the journal holds.)"""
        fresh = new_session(setup)
        game = self._store.latest_unfinished()
        if game is None:
            return None, fresh, 0
        entries = self._store.events(game)
        state = self._fold(game, entries)
        logger.info("resuming game %d from %d journaled events", game, len(entries))
        session = resync(replace(fresh, game=state, setup=replace(setup, profile=state.profile), started=bool(entries)))
        return game, session, entries[-1].seq if entries else 0

    def _fold(self, game: int, entries: Sequence[JournalEntry]) -> GameState:
        """The game as the journal holds it: its events (a profile change among them) folded from
        the profile it started under."""
        started = profile_named(self._store.game(game).profile)
        return replay((entry.event for entry in entries), started)

    def add_listener(self, listener: CoreListener) -> None:
        self._listeners.append(listener)

    # --- the adapters' side -------------------------------------------------------------

    def post(self, observation: Observation) -> None:
        """Thread-safe: called from adapter threads."""
        self._queue.put(observation)

    def submit(self, observation: Observation) -> Future[Ruling]:
        """Thread-safe: a person's request (CONFIRM, UNDO, a correction, a profile), processed
        in turn like any observation. The future resolves to the ruling on it once the core has
        acted (its events journaled); cancelled before the core takes it up, it is dropped."""
        ruling: Future[Ruling] = Future()
        if self.stopped.is_set():
            ruling.set_result(STOPPED)
            return ruling
        self._queue.put(_Request(observation, ruling))
        if self.stopped.is_set():
            self._release_waiters()
        return ruling

    # --- the core thread --------------------------------------------------------------

    def start(self) -> RefereeCore:
        self._thread = threading.Thread(target=self._run, name="referee-core", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._queue.put(_STOP)
        if self._thread is not None:
            self._thread.join(timeout)

    def alive(self, within_s: float) -> bool:
        """Whether the core thread runs and went round its loop in the last ``within_s`` (it
        does so at least every tick, so a longer silence means it is stuck)."""
        running = self._thread is not None and self._thread.is_alive() and not self.stopped.is_set()
        return running and self._monotonic() - self.beat < within_s

    def drain(self, timeout: float = 5.0) -> None:
        """Wait until every observation posted so far is processed (tests, shutdown)."""
        if self.stopped.is_set():
            return
        done = threading.Event()
        self._queue.put(done)
        if self.stopped.is_set():
            self._release_waiters()
        if not done.wait(timeout):
            raise TimeoutError("the core did not catch up")

    def _run(self) -> None:
        next_tick = self._monotonic()
        try:
            while True:
                self.beat = self._monotonic()
                try:
                    item = self._queue.get(timeout=max(0.0, next_tick - self._monotonic()))
                except queue.Empty:
                    item = None
                if item is _STOP:
                    return
                if isinstance(item, threading.Event):
                    item.set()
                    continue
                if isinstance(item, _Request) and not item.ruling.set_running_or_notify_cancel():
                    continue  # whoever asked gave up waiting before the core took it up
                try:
                    now = self._monotonic()
                    if now >= next_tick:
                        next_tick = now + self._tick_s
                        self.tick(now)
                    if isinstance(item, _Request):
                        item.ruling.set_result(self.process(item.observation).ruling)
                    elif item is not None:
                        self.process(item)  # type: ignore[arg-type]
                except Exception as error:
                    # The journal could not be written: nothing was shown. Stop rather than
                    # go on showing a game the journal does not hold; the owner reports it.
                    logger.exception("core step failed on %r; stopping", item)
                    self.failure = error
                    if isinstance(item, _Request) and not item.ruling.done():
                        item.ruling.set_result(refused(f"the referee core failed: {error}"))
                    return
        finally:
            self.stopped.set()
            self._release_waiters()

    def _release_waiters(self) -> None:
        """Wake anyone draining a core that has stopped, and rule on the requests left (what is
        left is never processed)."""
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return
            if isinstance(item, threading.Event):
                item.set()
            elif isinstance(item, _Request) and item.ruling.set_running_or_notify_cancel():
                item.ruling.set_result(STOPPED)

    def process(self, observation: Observation) -> CoreUpdate:
        """One observation, start to end (the core thread's body; called directly by tests)."""
        decision = step(self.session, observation)
        if decision.undo:
            return self._undo(decision)
        if decision.correction is not None:
            return self._correct(decision, decision.correction)
        self._journal(decision.events, decision)
        self.session = decision.session
        return self._tell(decision.events, decision)

    def tick(self, now: float) -> CoreUpdate | None:
        """Step the clock (the core thread's; called directly by tests): listeners hear of it
        only if something settled."""
        decision = step(self.session, Tick(now))
        if not decision.events and not decision.announcements:
            self.session = decision.session
            return None
        self._journal(decision.events, decision)
        self.session = decision.session
        return self._tell(decision.events, decision)

    def _journal(self, events: tuple[GameEvent, ...], decision: Decision) -> None:
        if not events:
            return
        if self.game_id is None:
            setup = decision.session.setup
            self.game_id = self._store.new_game(
                setup.profile.name, setup.names, (setup.profile.start_points,) * 4, self._clock()
            )
        # One transaction per decision: a kill leaves the journal between two observations,
        # never inside one (a draw journaled without its discard). The standings ride along.
        ends = any(isinstance(e, (EndKyoku, EndGame)) for e in events)
        after = decision.session.game if ends else None
        self.journal_seq = self._store.append_all(self.game_id, events, self._clock(), after)

    def _undo(self, decision: Decision) -> CoreUpdate:
        entries = self._store.events(self.game_id) if self.game_id is not None else ()
        if self.game_id is None or not entries:
            self.session = decision.session
            return self._tell((), replace(decision, ruling=refused("nothing to undo")))
        taken = entries[-1].event
        state = self._fold(self.game_id, entries[:-1])
        undone = self._store.undo(self.game_id, self._clock(), state)
        if undone is not None:
            self.journal_seq = undone.seq
        # The setup follows the game's profile: an undone profile change is undone for the next deal too.
        setup = replace(decision.session.setup, profile=state.profile)
        self.session = resync(replace(decision.session, game=state, setup=setup))
        said = (announce(AnnouncementKind.UNDONE, event=type(taken).__name__),)
        return self._tell((), replace(decision, announcements=said))

    def _correct(self, decision: Decision, correction: TileCorrected) -> CoreUpdate:
        """A misread discard anywhere in the hand: found in the journal, the hand replayed from it
        and re-judged (:func:`table_app.interpret.correction.correct_discard`), all journaled at once."""
        found = self._discard_entry(correction) if self.game_id is not None else None
        if found is None:
            number = "?" if correction.index is None else correction.index + 1
            who = "that seat" if correction.seat is None else self.session.game.seat_naming().en(correction.seat)
            refusal = f"no journaled discard {number} of {who} in this hand"
            logger.warning("correction refused: %s", refusal)
            self.session = decision.session
            return self._tell((), replace(decision, correction=None, ruling=refused(refusal)))
        assert self.game_id is not None
        assert correction.index is not None
        entries, position = found
        misread = entries[position].event
        assert isinstance(misread, Dahai)
        before = self._fold(self.game_id, entries[:position])
        later = [e.event for e in entries[position + 1 :]]
        outcome = correct_discard(
            decision.session, before, misread, correction.tile, index=correction.index, later=later
        )
        if outcome.refusal:
            logger.warning("correction refused: %s", outcome.refusal)
            self.session = decision.session
            return self._tell((), replace(decision, correction=None, ruling=refused(outcome.refusal)))
        seqs = [entry.seq for entry in entries[position + 1 :]]
        corrections = [(seqs[i] if i >= 0 else entries[position].seq, event) for i, event in outcome.replaced]
        dropped = reversed(seqs[len(seqs) - outcome.dropped :]) if outcome.dropped else ()
        state = outcome.session.game
        self.journal_seq = self._store.correct(
            self.game_id, corrections, self._clock(), dropped=dropped, appended=outcome.appended, after=state
        )
        self.session = outcome.session
        return self._tell(outcome.appended, Decision(outcome.session, outcome.appended, outcome.announcements))

    def _discard_entry(self, correction: TileCorrected) -> tuple[tuple[JournalEntry, ...], int] | None:
        """The journal's effective entries and the position of the corrected discard in them."""
        assert self.game_id is not None
        entries = self._store.events(self.game_id)
        start = max((i for i, e in enumerate(entries) if isinstance(e.event, StartKyoku)), default=None)
        if start is None:
            return None
        discards = [
            i
            for i, entry in enumerate(entries)
            if i > start and isinstance(entry.event, Dahai) and entry.event.actor == correction.seat
        ]
        if correction.index is None or not 0 <= correction.index < len(discards):
            return None
        return entries, discards[correction.index]

    def _tell(self, events: tuple[GameEvent, ...], decision: Decision) -> CoreUpdate:
        session = self.session
        update = CoreUpdate(
            self.game_id,
            session.game,
            events,
            decision.announcements,
            session.question,
            self.journal_seq,
            session.link,
            session.camera_ok,
            session.trays.points if session.trays is not None else None,
            decision.ruling,
        )
        for listener in self._listeners:
            try:
                listener.on_update(update)
            except Exception:
                logger.exception("listener %r failed", listener)  # a display fault never stops refereeing
        return update
