"""More real games through ``jantaku demo --fast --headless --check``: every other bust of the
mjx corpus (one ends on a double ron, so two winners are paid short), one ending just above
zero, and a log cut off before its end. The shipped game and the first bust are in
``test_demo_command.py``; this sample is slow (about ten seconds a game)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from table_app.logs.reader import read_log

JANTAKU = str(Path(sys.executable).with_name("jantaku"))

SAMPLE = (
    "2017082021gm-00a9-0000-b8cc6957.mjlog",  # bust: seat 1 at -8300
    "2019060813gm-00a9-0000-08bb0ec3.mjlog",  # bust: seat 3 at -11100
    "2020081220gm-00a9-0000-9ee6ab3b.mjlog",  # bust after five hands
    "double-ron.mjlog",  # bust on a double ron
    "2011020415gm-00a9-0000-e037b629.mjlog",  # ends with 1800: no debt
    "2011020401gm-00a9-0000-f6eff225-no-game-end.mjlog",  # the log stops before the game ends
)


@pytest.mark.slow
@pytest.mark.parametrize("name", SAMPLE)
def test_corpus_game_plays_through_the_demo_with_no_mismatch(shared_dir, name):
    path = shared_dir / "data" / "logs" / "mjx_full" / name
    hands = len(read_log(path)[0].hands)
    result = subprocess.run(
        [JANTAKU, "demo", "--camera", "log", "--fast", "--headless", "--check", "--log", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert result.stdout.strip().endswith(f"1 games, {hands} hands, 0 mismatches")
    assert "Traceback" not in result.stderr
