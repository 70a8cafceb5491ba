"""Progress bars: drawn on a real terminal (a pty), silent on a pipe, a file or with --json; lines
and log records printed meanwhile are not torn."""

from __future__ import annotations

import io
import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

import pytest

from table_app.demo_data import DEMO_LOG
from table_app.progress import Progress, progress
from tests.terminal import jantaku_with_stderr_on_a_terminal, read_all

REPO_ROOT = Path(__file__).resolve().parents[2]
CLEAR = "\r\x1b[K"


@contextmanager
def terminal() -> Iterator[tuple[TextIO, int]]:
    """A pty: the slave side as a text stream (a terminal to isatty), the master's descriptor to read it."""
    master, slave = os.openpty()
    stream = os.fdopen(slave, "w", encoding="utf-8")
    try:
        yield stream, master
    finally:
        stream.close()
        os.close(master)


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_bar_is_drawn_on_a_terminal_and_cleared_at_the_end():
    clock = FakeClock()
    with terminal() as (stream, master):
        with Progress(4, "replay", stream=stream, clock=clock) as bar:
            for _ in range(4):
                clock.now += 1.0
                bar.advance(note="game.mjlog")
        out = read_all(master)
    assert "replay [" in out
    assert "4/4" in out
    assert "game.mjlog" in out
    assert out.endswith(CLEAR)


def test_the_bar_line_says_how_far_and_how_long_is_left():
    clock = FakeClock()
    bar = Progress(40, "replay", stream=io.StringIO(), clock=clock)
    clock.now = 3.0
    bar.advance(12, note="a.mjlog")
    assert bar.line() == "replay [#######-----------------] 12/40  0:03 left 0:07  a.mjlog"


def test_nothing_is_written_where_no_one_watches():
    pipe = io.StringIO()
    with Progress(4, "replay", stream=pipe) as bar:
        bar.advance()
        bar.echo("a line", file=io.StringIO())
    assert pipe.getvalue() == ""
    assert not bar.shown


def test_nothing_is_written_when_turned_off_even_on_a_terminal():
    with terminal() as (stream, master):
        with Progress(4, "replay", stream=stream, enabled=False) as bar:
            bar.advance()
        assert read_all(master) == ""


def test_a_line_echoed_meanwhile_starts_on_a_clean_line():
    with terminal() as (stream, master), Progress(4, "replay", stream=stream) as bar:
        bar.echo("game 1: mismatch", file=stream)
        out = read_all(master)
    assert CLEAR + "game 1: mismatch" in out
    assert "replay [" in out.split("game 1: mismatch")[1]  # and the bar is drawn again below it


def test_a_log_record_meanwhile_starts_on_a_clean_line():
    root = logging.getLogger()
    with terminal() as (stream, master):
        handler = logging.StreamHandler(stream)
        handler.setFormatter(logging.Formatter("%(message)s"))
        root.addHandler(handler)
        try:
            with Progress(4, "train", stream=stream):
                logging.getLogger("vision.training").warning("step 100 loss 0.5")
        finally:
            root.removeHandler(handler)
        assert handler.filters == []  # the bar let go of the handler
        out = read_all(master)
    assert CLEAR + "step 100 loss 0.5" in out


def test_progress_over_items_yields_every_item():
    assert list(progress([1, 2, 3], "x")) == [1, 2, 3]


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    folder = tmp_path / "logs"
    folder.mkdir()
    for name in ("a", "b", "c"):
        shutil.copy(DEMO_LOG, folder / f"{name}.mjlog")
    return folder


def _replay_on_a_terminal(logs: Path, *options: str) -> tuple[str, str]:
    status, stdout, terminal_output = jantaku_with_stderr_on_a_terminal("replay", str(logs), *options)
    assert status == 0
    return stdout, terminal_output


def test_replay_of_many_files_shows_a_bar_on_the_terminal(logs):
    stdout, terminal_output = _replay_on_a_terminal(logs, "--check")
    assert "replay [" in terminal_output
    assert "3/3" in terminal_output
    assert stdout.splitlines() == ["3 games, 45 hands, 0 mismatches"]  # the bar never reaches stdout


def test_replay_with_json_shows_no_bar(logs):
    stdout, terminal_output = _replay_on_a_terminal(logs, "--check", "--json")
    assert terminal_output == ""
    assert stdout.count("\n") == 4


def test_replay_with_stderr_on_a_pipe_shows_no_bar(logs):
    result = subprocess.run(
        [sys.executable, "-m", "table_app", "replay", str(logs), "--check"],
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0
    assert result.stderr == ""
