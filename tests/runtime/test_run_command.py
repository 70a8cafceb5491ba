"""``jantaku run`` in-process: a whole game from the feed, kept, exported and checked; the
GPIO panel's buttons reach the core; bad configs exit 2 naming the key."""

from __future__ import annotations

import queue

from gpiozero.pins.mock import MockFactory

from hardware.panel import PanelPins
from table_app.cli import main
from table_app.observations import ButtonPress, RefereeButton
from table_app.runtime.adapters import PanelSource

SHORT_GAME = "2020081220gm-00a9-0000-9ee6ab3b.json"


def test_a_fed_game_is_refereed_kept_and_exports_to_a_log_that_checks(tmp_path, logs_dir, capsys):
    config = tmp_path / "table.toml"
    log = logs_dir / "tenhou6_json" / SHORT_GAME
    config.write_text(f'[table]\ndb = "t.db"\n[feed]\nlog = "{log}"\npace_s = 0\n', encoding="utf-8")
    assert main(["run", "--config", str(config), "--until-end"]) == 0
    out = capsys.readouterr().out
    assert "[en] East wins by tsumo" in out  # seats by this hand's wind (no names configured)
    assert "[ja] 支払い完了" in out
    assert "scores 60000 -1700 32700 9000" in out
    assert main(["games", "--db", str(tmp_path / "t.db")]) == 0
    assert "5 hands  finished" in capsys.readouterr().out
    exported = tmp_path / "game.jsonl"
    # The camera saw no hand but the ones laid open: mjai readers need every tile.
    assert main(["export", "1", "--format", "mjai", "--db", str(tmp_path / "t.db"), "-o", str(exported)]) == 2
    assert "--fill-hidden" in capsys.readouterr().err
    assert not exported.exists()
    export = ["export", "1", "--format", "mjai", "--db", str(tmp_path / "t.db"), "-o", str(exported), "--fill-hidden"]
    assert main(export) == 0
    text = exported.read_text(encoding="utf-8")
    assert '"?"' not in text
    assert '"filled_lines"' in text.splitlines()[0]
    assert main(["replay", "--check", str(exported)]) == 0
    assert "1 games, 5 hands, 0 mismatches" in capsys.readouterr().out
    assert main(["export", "1", "--format", "tenhou", "--db", str(tmp_path / "t.db")]) == 2
    assert "did not see" in capsys.readouterr().err


def test_a_bad_config_exits_2_naming_the_key(tmp_path, capsys):
    config = tmp_path / "table.toml"
    config.write_text('[table]\nprofile = "wrc"\n', encoding="utf-8")
    assert main(["run", "--config", str(config)]) == 2
    assert "table.profile: unknown profile 'wrc'" in capsys.readouterr().err


def test_a_camera_without_its_calibration_is_refused(tmp_path, capsys):
    config = tmp_path / "table.toml"
    config.write_text('[table]\ndb = "t.db"\n[camera]\nsource = "picamera2"\n', encoding="utf-8")
    assert main(["run", "--config", str(config)]) == 2
    assert "camera.calibration: a camera needs its calibration file" in capsys.readouterr().err


def test_a_damaged_enrollment_file_is_refused_naming_the_key(tmp_path, capsys):
    from vision.calibration.calibration import Calibration, CornersFrom
    from vision.calibration.calibration_file import save_calibration

    save_calibration(
        Calibration(((100, 100), (900, 100), (900, 900), (100, 900)), (1000, 1000), corners_from=CornersFrom.PICKED),
        tmp_path / "camera.json",
    )
    (tmp_path / "tiles.json").write_text("{not json", encoding="utf-8")
    config = tmp_path / "table.toml"
    config.write_text(
        '[table]\ndb = "t.db"\n[camera]\nsource = "frames"\ncalibration = "camera.json"\nenrollment = "tiles.json"\n',
        encoding="utf-8",
    )
    assert main(["run", "--config", str(config)]) == 2
    assert "camera.enrollment: " in capsys.readouterr().err


def test_panel_buttons_become_observations():
    factory = MockFactory()
    pins = PanelPins()
    posted: queue.Queue[object] = queue.Queue()
    source = PanelSource(pins, pin_factory=factory)
    source.start(posted.put)
    try:
        factory.pin(pins.undo).drive_low()
        press = posted.get(timeout=5)
        assert isinstance(press, ButtonPress)
        assert press.button is RefereeButton.UNDO
    finally:
        source.stop()


def test_a_corrupt_journal_stops_run_naming_game_and_event(tmp_path, logs_dir, capsys):
    import sqlite3

    config = tmp_path / "table.toml"
    log = logs_dir / "tenhou6_json" / SHORT_GAME
    config.write_text(f'[table]\ndb = "t.db"\n[feed]\nlog = "{log}"\npace_s = 0.01\n', encoding="utf-8")
    assert main(["run", "--config", str(config), "--duration", "0.5"]) == 0  # stopped mid-game
    with sqlite3.connect(tmp_path / "t.db") as db:
        db.execute("UPDATE journal SET body = 'not json' WHERE seq = 5")
        rows = db.execute("SELECT count(*) FROM journal").fetchone()[0]
    capsys.readouterr()
    assert main(["run", "--config", str(config), "--resume", "--duration", "0.2"]) == 2
    assert "game 1, event 5: not JSON" in capsys.readouterr().err
    with sqlite3.connect(tmp_path / "t.db") as db:
        assert db.execute("SELECT count(*) FROM journal").fetchone()[0] == rows  # nothing touched


def _stopped_mid_game(tmp_path, logs_dir, capsys):
    config = tmp_path / "table.toml"
    log = logs_dir / "tenhou6_json" / SHORT_GAME
    config.write_text(f'[table]\ndb = "t.db"\n[feed]\nlog = "{log}"\npace_s = 0.01\n', encoding="utf-8")
    assert main(["run", "--config", str(config), "--duration", "0.5"]) == 0
    err = capsys.readouterr().err
    assert "starting a new game" in err
    return config


def test_an_unfinished_game_is_resumed_only_when_asked(tmp_path, logs_dir, capsys):
    config = _stopped_mid_game(tmp_path, logs_dir, capsys)
    assert main(["run", "--config", str(config), "--duration", "0.2"]) == 2
    err = capsys.readouterr().err
    assert "game 1 is unfinished" in err
    assert "--resume" in err
    assert "--new" in err
    assert main(["run", "--config", str(config), "--resume", "--until-end"]) == 0
    captured = capsys.readouterr()
    assert "resuming game 1" in captured.err
    assert "scores 60000 -1700 32700 9000" in captured.out
    assert main(["games", "--db", str(tmp_path / "t.db")]) == 0
    games = capsys.readouterr().out.splitlines()
    assert len(games) == 1
    assert "5 hands  finished" in games[0]


def test_a_new_game_is_started_only_when_told(tmp_path, logs_dir, capsys):
    config = _stopped_mid_game(tmp_path, logs_dir, capsys)
    assert main(["run", "--config", str(config), "--new", "--duration", "0.3"]) == 0
    err = capsys.readouterr().err
    assert "starting a new game (game 1 stays unfinished)" in err
    assert main(["games", "--db", str(tmp_path / "t.db")]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2


def test_resume_with_nothing_to_resume_is_refused(tmp_path, capsys):
    config = tmp_path / "table.toml"
    config.write_text('[table]\ndb = "t.db"\n', encoding="utf-8")
    assert main(["run", "--config", str(config), "--resume"]) == 2
    assert "no unfinished game in" in capsys.readouterr().err
