"""Reliability: SIGKILL mid-hand and restart loses nothing; a serial unplug is announced and
refereeing goes on from the camera."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys

from firmware_bridge.sim_script import parse_script
from firmware_bridge.sim_transport import PtyTableServer
from firmware_bridge.simulator import TableSimulator
from table_app.announce import AnnouncementKind
from table_app.domain.notation import parse_mjai
from table_app.domain.seat import Seat
from table_app.interpret import TableSetup
from table_app.interpret.event_observations import FeedOptions, log_observations
from table_app.journal import GameStore
from table_app.logs import read_log
from table_app.observations import DoraRevealed, HandStarted, PondTileAdded
from table_app.rules.fold import replay
from table_app.rules.mjai_codec import decode_event
from table_app.runtime.adapters import LinkSource
from table_app.runtime.core import RefereeCore
from table_app.runtime.listeners import RecordingListener
from tests.runtime.fault_injection import output_lines
from tests.runtime.helpers import setup_for, uninterrupted_events, wait_for

SHORT_GAME = "2020081220gm-00a9-0000-9ee6ab3b.json"  # five hands
RUN = "import sys; from table_app.cli import main; sys.exit(main())"


def _config(tmp_path, log, pace_s):
    path = tmp_path / "table.toml"
    path.write_text(
        f'[table]\ndb = "table.db"\nlanguages = ["en"]\n[feed]\nlog = "{log}"\npace_s = {pace_s}\ntrays = true\n',
        encoding="utf-8",
    )
    return path


def _journal(db):
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT seq, kind, body FROM journal ORDER BY seq").fetchall()
    return [(seq, decode_event(body)) for seq, kind, body in rows if kind == "event"]


def test_sigkill_mid_hand_then_restart_resumes_with_nothing_lost(tmp_path, logs_dir):
    log = logs_dir / "tenhou6_json" / SHORT_GAME
    game = read_log(log)[0]
    expected = uninterrupted_events(game)  # what a referee never stopped makes of the same observations

    command = [sys.executable, "-c", RUN, "run", "--config", str(_config(tmp_path, log, 0.004)), "--echo-events"]
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines = output_lines(first)
    seen, last = 0, ""
    while seen < 120 or '"end_kyoku"' in last:  # well into the game, and inside a hand
        line = lines.get(timeout=30)
        assert line is not None, "the runtime ended early"
        if line.startswith("event "):
            seen, last = int(line.split()[1]), line
    os.kill(first.pid, signal.SIGKILL)
    first.wait(timeout=10)
    before = _journal(tmp_path / "table.db")
    assert len(before) >= 120
    assert not any(type(e).__name__ == "EndGame" for _, e in before)
    assert replay([e for _, e in before], setup_for(game).profile).hand is not None  # killed mid-hand

    config = _config(tmp_path, log, 0)
    second = subprocess.run(
        [sys.executable, "-c", RUN, "run", "--config", str(config), "--resume", "--until-end"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "resuming game 1" in second.stderr
    after = _journal(tmp_path / "table.db")
    assert after[: len(before)] == before  # nothing recorded was lost or rewritten
    assert [e for _, e in after] == expected  # and nothing was played twice or skipped
    store = GameStore(tmp_path / "table.db")
    assert store.game(1).finished
    assert f"scores {' '.join(str(s) for s in store.game(1).scores)}" in second.stdout


SCRIPT = """
0.0  hand
0.2  draw 1
0.4  loop
"""


def test_serial_unplug_is_announced_and_refereeing_goes_on(tmp_path):
    store = GameStore(tmp_path / "table.db")
    recording = RecordingListener()
    core = RefereeCore(store, TableSetup(), [recording]).start()
    simulator = TableSimulator(parse_script(SCRIPT), seed=3)
    with PtyTableServer(simulator) as server:
        link = LinkSource(str(server.path))
        link.start(core.post)
        try:
            wait_for(recording.updates, lambda u: core.session.link_up)
            server.unplug(1.5)
            lost = wait_for(
                recording.updates, lambda u: AnnouncementKind.LINK_LOST in [a.kind for a in u.announcements]
            )
            assert lost.announcements[0].kind is AnnouncementKind.LINK_LOST
            # The camera carries on alone: a hand starts and a discard is accepted without the wall.
            core.post(HandStarted(1.0))
            core.post(DoraRevealed(1.0, parse_mjai("3p")))
            core.post(PondTileAdded(2.0, Seat.S0, parse_mjai("9m")))
            discard = wait_for(recording.updates, lambda u: any(type(e).__name__ == "Dahai" for e in u.events))
            assert discard.state.hand is not None
            assert discard.state.hand.last_discard == Seat.S0
            wait_for(recording.updates, lambda u: AnnouncementKind.LINK_RESTORED in [a.kind for a in u.announcements])
        finally:
            link.stop()
            core.drain()
            core.stop()
    journaled = [type(e.event).__name__ for e in store.events(core.game_id)]
    assert journaled[-2:] == ["Tsumo", "Dahai"]


def test_a_hand_with_the_board_simulated_over_a_pty(tmp_path, logs_dir):
    """The demo's board: the simulator plays the log's trays, deposit and wall over a pty, the
    real link reads them, the feed plays the camera; the hand comes out as the log's."""
    from firmware_bridge.sim_script import parse_script
    from table_app.rules.events import EndKyoku
    from table_app.runtime.adapters import FeedSource, SimulatedBoardSource
    from table_app.runtime.log_table_script import table_script_text

    game = read_log(logs_dir / "tenhou6_json" / "2020071200gm-00a9-0000-2703badd.json")[0]
    end = next(i for i, e in enumerate(game.events) if isinstance(e, EndKyoku))
    events = game.events[: end + 1]
    setup = setup_for(game)
    pace, lead_in = 0.06, 1.5
    board = SimulatedBoardSource(parse_script(table_script_text(events, setup.profile, pace, start_s=lead_in)))
    feed = FeedSource(log_observations(events, setup.profile, FeedOptions(trays=False)), pace, delay_s=lead_in)
    store = GameStore(tmp_path / "table.db")
    recording = RecordingListener()
    core = RefereeCore(store, setup, [recording]).start()
    board.start(core.post)
    feed.start(core.post)
    try:
        complete = wait_for(
            recording.updates,
            lambda u: AnnouncementKind.PAYMENTS_COMPLETE in [a.kind for a in u.announcements],
            timeout=30,
        )
    finally:
        feed.stop()
        board.stop()
        core.drain()
        core.stop()
    assert complete.state.results == replay(events, setup.profile).results
    assert core.session.link_up or core.session.link.value == "connected"
