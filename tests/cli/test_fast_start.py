"""Commands that need no camera and serve no pages start without OpenCV, numpy, onnxruntime or
aiohttp: each is run in a fresh interpreter, through its whole code path, and what it imported
is looked at afterwards."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from table_app.demo_data import DEMO_LOG
from table_app.journal import GameStore
from table_app.logs import read_log
from table_app.rules.fold import replay
from table_app.rules.profiles import TENHOU

REPO_ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("cv2", "numpy", "onnxruntime", "aiohttp")
#: Runs ``main(argv)`` and prints, on the last line of stdout, its status and every heavy module loaded.
PROBE = """
import json, sys
from table_app.cli import main
try:
    status = main(sys.argv[1:])
except SystemExit as stop:
    status = stop.code
print(json.dumps({"status": status, "heavy": sorted(m for m in HEAVY if m in sys.modules)}))
""".replace("HEAVY", repr(HEAVY))


def _probe(*argv: str, cwd: Path) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.stdout, result.stderr[-2000:]
    return json.loads(result.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real journal holding the shipped demo game."""
    db = tmp_path_factory.mktemp("journal") / "table.db"
    game = read_log(DEMO_LOG)[0]
    store = GameStore(db)
    number = store.new_game(TENHOU.name, ("A", "B", "C", "D"), (25000,) * 4, at=1_700_000_000.0)
    store.append_all(number, game.events, at=1_700_000_000.0, after=replay(game.events, TENHOU))
    store.close()
    return db


@pytest.mark.parametrize(
    "argv",
    [
        ("hand", "123m456p789s11z22z"),
        ("hand", "111m22m333m888p66z", "--drawn", "1m", "--riichi-kan", "1m", "--json"),
        ("games", "--db", "{db}"),
        ("games", "--db", "{db}", "--json"),
        ("export", "1", "--format", "mjai", "--db", "{db}", "-o", "{out}/game.mjai"),
        ("export", "1", "--format", "tenhou", "--db", "{db}", "-o", "{out}/game.json"),
        ("replay", str(DEMO_LOG), "--check"),
        ("replay", str(DEMO_LOG), "--json"),
        ("link", "--port", "loop://", "--duration", "0.3"),
        ("-v", "--log-level", "debug", "hand", "19m19p19s1234567z"),
        ("--help",),
        ("--version",),
    ],
    ids=" ".join,
)
def test_a_command_without_camera_or_pages_imports_no_heavy_library(argv, journal, tmp_path):
    filled = [word.format(db=journal, out=tmp_path) for word in argv]
    outcome = _probe(*filled, cwd=tmp_path)
    assert outcome["status"] == 0
    assert outcome["heavy"] == []


def test_the_probe_sees_a_heavy_import(tmp_path):
    """The probe is not blind: `vision detect` on a missing photo has loaded OpenCV by the time it refuses it."""
    outcome = _probe("vision", "detect", str(tmp_path / "missing.jpg"), cwd=tmp_path)
    assert outcome["status"] == 2
    assert "cv2" in outcome["heavy"]
