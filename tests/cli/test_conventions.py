"""Everyday conventions of the ``jantaku`` command: ``--version``, ``-v``/``--log-level`` with
logging for every command, ISO 8601 times in ``games --json``, nothing left in $TMPDIR."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import tomllib
from datetime import datetime
from pathlib import Path

import pytest

from table_app import __version__
from table_app.cli import build_parser, main
from table_app.cli.logging_options import log_level
from table_app.demo_data import DEMO_LOG
from table_app.journal import GameStore
from table_app.logs import read_log
from table_app.rules.fold import replay
from table_app.rules.profiles import TENHOU

REPO_ROOT = Path(__file__).resolve().parents[2]
STARTED_AT = 1_700_000_000.5  # 2023-11-14 22:13:20.5 UTC


def _jantaku(*argv: str, cwd: Path, **environment: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "table_app", *argv],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT), **environment},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_version_prints_the_package_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"jantaku {__version__}"
    # the package's metadata takes its version from the same place
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "table_app.__version__"}


@pytest.mark.parametrize(
    ("argv", "level"),
    [
        (["hand", "19m"], logging.WARNING),
        (["-v", "hand", "19m"], logging.INFO),
        (["hand", "19m", "-vv"], logging.DEBUG),
        (["hand", "19m", "-vvvv"], logging.DEBUG),
        (["--log-level", "error", "hand", "19m"], logging.ERROR),
        (["hand", "19m", "--log-level", "DEBUG"], logging.DEBUG),
        (["run", "--config", "t.toml"], logging.INFO),  # a service logs what it does by default
        (["run", "--config", "t.toml", "-v"], logging.DEBUG),
        (["run", "--config", "t.toml", "--log-level", "warning"], logging.WARNING),
        (["web", "--replay", "g.mjlog"], logging.INFO),
        (["vision", "eval", "--labels", "l.json", "-v"], logging.INFO),
        (["-v", "games"], logging.INFO),
    ],
)
def test_every_command_takes_the_logging_options(argv, level):
    from table_app.cli import command_named

    args = build_parser(only=command_named(argv)).parse_args(argv)
    assert log_level(args) == level


def test_an_unknown_log_level_is_refused_naming_the_choices(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--log-level", "loud", "hand", "19m"])
    assert stop.value.code == 2
    assert "invalid choice: 'loud'" in capsys.readouterr().err


def test_run_logs_at_info_on_stderr_unless_told_otherwise(tmp_path):
    # A small pace: with none the whole game is queued at once, more than the core's 5 s drain at
    # the end allows on a loaded machine.
    def run(db: str, *options: str) -> subprocess.CompletedProcess[str]:
        config = tmp_path / f"{db}.toml"
        config.write_text(f'[table]\ndb = "{db}"\n[feed]\nlog = "{DEMO_LOG}"\npace_s = 0.002\n', encoding="utf-8")
        result = _jantaku("run", "--config", str(config), "--until-end", *options, cwd=tmp_path)
        assert result.returncode == 0, result.stderr[-2000:]
        return result

    told = run("a.db")
    assert " INFO table_app.journal.store: game 1 started (tenhou)" in told.stderr
    assert "INFO" not in told.stdout  # the announcements stay on stdout, the logs go to stderr
    assert "INFO" not in run("b.db", "--log-level", "warning").stderr


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    db = tmp_path / "table.db"
    game = read_log(DEMO_LOG)[0]
    store = GameStore(db)
    number = store.new_game(TENHOU.name, ("A", "B", "C", "D"), (25000,) * 4, at=STARTED_AT)
    store.append_all(number, game.events, at=STARTED_AT, after=replay(game.events, TENHOU))
    store.close()
    return db


def test_games_json_gives_iso_8601_times_in_utc(journal, capsys):
    assert main(["games", "--db", str(journal), "--json"]) == 0
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert record["started"] == "2023-11-14T22:13:20+00:00"
    assert datetime.fromisoformat(record["started"]).timestamp() == int(STARTED_AT)


@pytest.mark.slow
def test_the_demo_leaves_nothing_in_the_temporary_folder(tmp_path):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    result = _jantaku("demo", "--fast", "--headless", "--check", "--camera", "log", cwd=tmp_path, TMPDIR=str(scratch))
    assert result.returncode == 0, result.stderr[-2000:]
    assert list(scratch.iterdir()) == []


def test_loading_the_models_leaves_nothing_in_the_temporary_folder(tmp_path):
    """The rendered demo's models: onnxruntime writes a telemetry file into $TMPDIR on import."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    code = "from vision.classify.classifier import DEFAULT_MODEL, OnnxTileClassifier; OnnxTileClassifier(DEFAULT_MODEL)"
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT), "TMPDIR": str(scratch)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert list(scratch.iterdir()) == []
