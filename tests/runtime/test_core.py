"""The core thread: journal before show, resume from the journal, undo as a correction."""

from __future__ import annotations

import sqlite3

from table_app.announce import AnnouncementKind
from table_app.interpret import new_session, step
from table_app.journal import GameStore
from table_app.observations import ButtonPress, RefereeButton
from table_app.rules.fold import replay
from table_app.runtime.core import RefereeCore
from table_app.runtime.listeners import RecordingListener
from table_app.runtime.ports import CoreUpdate
from tests.runtime.helpers import first_game, observations_of, setup_for, wait_for


class JournalWitness:
    """A listener that looks in the database file (its own connection) at each update."""

    def __init__(self, path) -> None:
        self._db = sqlite3.connect(path, check_same_thread=False)
        self.late: list[int] = []
        self.checked = 0

    def on_update(self, update: CoreUpdate) -> None:
        if not update.events:
            return
        self.checked += 1
        on_disk = self._db.execute("SELECT coalesce(max(seq), 0) FROM journal").fetchone()[0]
        if on_disk < update.journal_seq:
            self.late.append(update.journal_seq)


def _pure_events(setup, observations):
    session, events = new_session(setup), []
    for observation in observations:
        decision = step(session, observation)
        session = decision.session
        events.extend(decision.events)
    return events


def test_a_game_through_the_core_thread_is_journaled_before_it_is_shown(tmp_path, logs_dir):
    game = first_game(logs_dir)
    setup = setup_for(game)
    observations = observations_of(game)
    store = GameStore(tmp_path / "table.db")
    witness = JournalWitness(tmp_path / "table.db")
    recording = RecordingListener()
    core = RefereeCore(store, setup, [witness, recording]).start()
    for observation in observations:
        core.post(observation)
    final = wait_for(recording.updates, lambda u: u.state.finished)
    core.drain()
    core.stop()
    assert witness.checked > 100
    assert witness.late == []
    journaled = [e.event for e in store.events(final.game_id)]
    assert journaled == _pure_events(setup, observations)
    assert replay(journaled, setup.profile).scores == replay(game.events, setup.profile).scores
    assert store.game(final.game_id).finished
    assert store.game(final.game_id).names == ("A", "B", "C", "D")


def test_a_restarted_core_resumes_the_unfinished_game(tmp_path, logs_dir):
    game = first_game(logs_dir)
    setup = setup_for(game)
    observations = observations_of(game)
    half = len(observations) // 2
    store = GameStore(tmp_path / "table.db")
    core = RefereeCore(store, setup)
    for observation in observations[:half]:
        core.process(observation)
    before = core.session.game
    store.close()

    store = GameStore(tmp_path / "table.db")
    resumed = RefereeCore(store, setup)
    assert resumed.game_id == core.game_id
    assert resumed.session.game == before
    assert resumed.journal_seq == core.journal_seq


def test_undo_takes_back_the_last_event_as_a_journaled_correction(tmp_path, logs_dir):
    game = first_game(logs_dir)
    setup = setup_for(game)
    store = GameStore(tmp_path / "table.db")
    core = RefereeCore(store, setup)
    for observation in observations_of(game)[:30]:
        core.process(observation)
    events = [e.event for e in store.events(core.game_id)]
    update = core.process(ButtonPress(1.0, RefereeButton.UNDO))
    assert [a.kind for a in update.announcements] == [AnnouncementKind.UNDONE]
    assert [e.event for e in store.events(core.game_id)] == events[:-1]
    assert core.session.game == replay(events[:-1], setup.profile)
    kinds = sqlite3.connect(tmp_path / "table.db").execute("SELECT kind FROM journal ORDER BY seq").fetchall()
    assert kinds[-1] == ("undo",)
    assert len(kinds) == len(events) + 1


def test_a_failing_listener_does_not_stop_refereeing(tmp_path, logs_dir):
    class Broken:
        def on_update(self, update):
            raise RuntimeError("display gone")

    game = first_game(logs_dir)
    store = GameStore(tmp_path / "table.db")
    core = RefereeCore(store, setup_for(game), [Broken()])
    for observation in observations_of(game)[:20]:
        core.process(observation)
    assert core.journal_seq > 0


def test_an_event_that_cannot_be_journaled_is_never_shown(tmp_path, logs_dir):
    class FullDisk(GameStore):
        def append_all(self, game, events, at, after=None):
            raise sqlite3.OperationalError("database or disk is full")

    game = first_game(logs_dir)
    store = FullDisk(tmp_path / "table.db")
    recording = RecordingListener()
    core = RefereeCore(store, setup_for(game), [recording]).start()
    for observation in observations_of(game)[:10]:
        core.post(observation)
    assert core.stopped.wait(10)
    core.drain()  # returns at once: the core has stopped
    assert isinstance(core.failure, sqlite3.OperationalError)
    shown = []
    while not recording.updates.empty():
        shown.extend(recording.updates.get_nowait().events)
    assert shown == []


def test_a_correction_with_no_discard_to_correct_changes_nothing(tmp_path):
    from table_app.domain.notation import parse_mjai
    from table_app.interpret import TableSetup
    from table_app.observations import DoraRevealed, HandStarted, TileCorrected

    store = GameStore(tmp_path / "table.db")
    core = RefereeCore(store, TableSetup())
    core.process(HandStarted(0.0))
    core.process(DoraRevealed(0.0, parse_mjai("5s")))
    seq = core.journal_seq
    update = core.process(TileCorrected(1.0, parse_mjai("7m")))
    assert update.events == ()
    assert core.journal_seq == seq


def test_the_core_ticks_by_itself_so_a_reading_settles_on_a_quiet_table(tmp_path):
    import queue

    from table_app.domain.notation import parse_mjai
    from table_app.interpret import TableSetup
    from table_app.observations import DoraRevealed, HandStarted, LinkChanged, LinkHealth, TraysRead

    recording = RecordingListener()
    store = GameStore(tmp_path / "table.db")
    core = RefereeCore(store, TableSetup(settle_s=0.3), [recording], tick_s=0.05).start()
    try:
        for observation in (
            LinkChanged(0.0, LinkHealth.CONNECTED),
            TraysRead(0.0, (25000,) * 4, 0, 70),
            HandStarted(0.0),
            DoraRevealed(0.0, parse_mjai("5s")),
        ):
            core.post(observation)
        core.drain()
        while not recording.updates.empty():
            recording.updates.get_nowait()
        # Quiet and in agreement: the ticks say nothing, and nothing is shown for them.
        try:
            update = recording.updates.get(timeout=0.5)
            raise AssertionError(f"a quiet tick was shown: {update}")
        except queue.Empty:
            pass
        # A stick goes missing from seat 3's tray; nothing else happens at the table.
        core.post(TraysRead(1.0, (25000, 25000, 25000, 24000), 0, 70))
        said = wait_for(recording.updates, lambda u: bool(u.announcements), timeout=5.0)
    finally:
        core.stop()
    assert [(a.kind, a.int_param("read") - a.int_param("expected")) for a in said.announcements] == [
        (AnnouncementKind.TRAY_OFF, -1000)
    ]
