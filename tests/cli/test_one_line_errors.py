"""A user's mistake ends a command with one line naming what and where, and a non-zero exit:
never a traceback. Also: ``jantaku run`` says at once that its serial port is missing and keeps
retrying."""

from __future__ import annotations

import os
import queue
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from firmware_bridge.sim_script import builtin_script
from firmware_bridge.sim_transport import PtyTableServer
from firmware_bridge.simulator import TableSimulator
from table_app.cli import main
from table_app.demo_data import DEMO_LOG
from table_app.journal import GameStore
from table_app.logs import read_log
from table_app.rules.events import EndKyoku
from table_app.rules.profiles import TENHOU
from tests.shared_data import shared_path

ROOT = Path(__file__).resolve().parents[2]
RUN = "import sys; from table_app.cli import main; sys.exit(main())"


@pytest.fixture(scope="session")
def logs_dir() -> Path:
    return shared_path("data", "logs")


def _one_line(err: str) -> str:
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def _journal(db: Path, events=None) -> None:
    if events is None:  # the shipped game's first hand: enough for an export
        played = read_log(DEMO_LOG)[0].events
        events = played[: next(i for i, e in enumerate(played) if isinstance(e, EndKyoku)) + 1]
    store = GameStore(db)
    game = store.new_game(TENHOU.name, ("a", "b", "c", "d"), (25000,) * 4, at=0.0)
    store.append_all(game, events, at=1.0)
    store.close()


def test_export_to_a_folder(tmp_path, capsys):
    _journal(tmp_path / "t.db")
    assert main(["export", "1", "--format", "mjai", "--db", str(tmp_path / "t.db"), "-o", str(tmp_path)]) == 2
    err = _one_line(capsys.readouterr().err)
    assert f"jantaku export: error: -o {tmp_path}: is a folder; name the file to write" in err


def test_export_into_a_folder_that_is_not_there(tmp_path, capsys):
    _journal(tmp_path / "t.db")
    target = tmp_path / "no" / "such" / "game.jsonl"
    assert main(["export", "1", "--format", "mjai", "--db", str(tmp_path / "t.db"), "-o", str(target)]) == 2
    assert f"-o {target}: cannot write (No such file or directory)" in _one_line(capsys.readouterr().err)


def test_table_sim_path_under_a_file(tmp_path, capsys):
    (tmp_path / "plain").write_text("a file, not a folder")
    path = tmp_path / "plain" / "tty"
    assert main(["table-sim", "--path", str(path), "--duration", "0.1"]) == 2
    assert f"--path {path}: {tmp_path / 'plain'} is not a folder" in _one_line(capsys.readouterr().err)


def test_table_sim_path_on_a_folder(tmp_path, capsys):
    (tmp_path / "tty").mkdir()
    assert main(["table-sim", "--path", str(tmp_path / "tty"), "--duration", "0.1"]) == 2
    assert "cannot publish the device link there" in _one_line(capsys.readouterr().err)


def test_web_on_a_port_in_use(capsys):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        code = main(["web", "--replay", str(DEMO_LOG), "--port", str(port), "--token", "t"])
    finally:
        taken.close()
    assert code == 2
    err = capsys.readouterr().err
    assert f"jantaku web: error: cannot serve on 127.0.0.1:{port}: address already in use\n" in err
    assert "Traceback" not in err


def test_run_with_web_on_a_port_in_use_lets_the_journal_go(tmp_path, logs_dir, capsys):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    log = sorted((logs_dir / "tenhou6_json").iterdir())[0]
    config = tmp_path / "table.toml"
    config.write_text(
        f'[table]\ndb = "t.db"\n[feed]\nlog = "{log}"\npace_s = 0\n[web]\nport = {port}\n', encoding="utf-8"
    )
    try:
        assert main(["run", "--config", str(config), "--until-end"]) == 2
    finally:
        taken.close()
    assert f"cannot serve on 127.0.0.1:{port}: address already in use" in capsys.readouterr().err
    GameStore(tmp_path / "t.db").close()  # not held any more


def test_demo_will_not_replay_the_rendered_game_over_a_half_played_one(tmp_path, capsys):
    db = tmp_path / "demo.db"
    _journal(db)
    before = db.read_bytes()
    assert main(["demo", "--headless", "--db", str(db)]) == 2
    err = _one_line(capsys.readouterr().err)
    assert f"--db {db}: game 1 in it is unfinished (" in err
    assert "events); the rendered camera plays from the start and cannot resume it" in err
    assert db.read_bytes() == before


def test_demo_will_not_resume_another_games_journal(tmp_path, logs_dir, capsys):
    other = read_log(sorted((logs_dir / "tenhou6_json").iterdir())[0])[0]
    db = tmp_path / "demo.db"
    _journal(db, other.events[:30])
    assert main(["demo", "--headless", "--fast", "--camera", "log", "--db", str(db)]) == 2
    err = _one_line(capsys.readouterr().err)
    assert f"table.db: {db}: its unfinished game is not the feed's: journaled event 1 is" in err


def _run_process(tmp_path: Path, toml: str, *args: str) -> subprocess.Popen[str]:
    config = tmp_path / "table.toml"
    config.write_text(toml, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPIOZERO")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.Popen(
        [sys.executable, "-c", RUN, "run", "--config", str(config), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _stderr_lines(process: subprocess.Popen[str]) -> queue.Queue[str | None]:
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return lines


def _wait_for_line(lines: queue.Queue[str | None], text: str, within: float) -> str:
    deadline = time.monotonic() + within
    while (left := deadline - time.monotonic()) > 0:
        try:
            line = lines.get(timeout=left)
        except queue.Empty:
            break
        assert line is not None, f"the process ended before saying {text!r}"
        if text in line:
            return line
    raise AssertionError(f"no line with {text!r} within {within} s")


def test_run_says_at_once_that_its_serial_port_is_missing_and_keeps_trying(tmp_path):
    port = tmp_path / "board"  # nothing there yet
    process = _run_process(tmp_path, f'[table]\ndb = "t.db"\n[link]\nport = "{port}"\n', "--duration", "30")
    lines = _stderr_lines(process)
    try:
        started = time.monotonic()
        missing = _wait_for_line(lines, "table link lost: cannot open", within=10)
        assert time.monotonic() - started < 10
        assert str(port) in missing
        # Plugged in later, the board is found without a restart.
        with PtyTableServer(TableSimulator(builtin_script(), seed=1), path=port):
            _wait_for_line(lines, "table link connected", within=15)
    finally:
        process.terminate()
        process.wait(timeout=15)
    assert process.returncode == 0


@pytest.mark.parametrize("command", [["games"], ["export", "1", "--format", "mjai"]])
def test_reading_a_journal_that_is_not_there(tmp_path, capsys, command):
    assert main([*command, "--db", str(tmp_path / "none.db")]) == 2
    assert f"no database at {tmp_path / 'none.db'}" in _one_line(capsys.readouterr().err)


def test_a_reader_that_stops_early_ends_the_command_quietly(tmp_path):
    # `jantaku replay ... | head -1`: the reader goes away after one line; no traceback, exit 0.
    demo_log = Path(__file__).resolve().parents[2] / "table_app" / "demo_data" / "demo-game.mjlog"
    command = [sys.executable, "-m", "table_app", "replay", str(demo_log), "--verdicts"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None
    first = process.stdout.readline()
    process.stdout.close()  # the reader stops
    _, err = process.communicate(timeout=120)
    assert first
    assert b"Traceback" not in err, err.decode()[-2000:]
    assert process.returncode == 0
