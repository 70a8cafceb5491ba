"""The hard-negative bench (bench/bench_hard_negatives.py) given real backgrounds it cannot
use: a broken label file, or a source nobody has looked at for unlabelled tiles. One line
naming it, status 1, no traceback."""

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_hard_negatives.py"


def _run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCH), "--scenes", "0", *arguments],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _one_line_naming(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().count("\n") == 0
    for word in words:
        assert word in done.stderr


def test_a_broken_label_file_is_named_in_one_line(tmp_path):
    labels = tmp_path / "labels.json"
    labels.write_text("{")
    _one_line_naming(_run("--backgrounds", str(labels)), str(labels), "not JSON")


def test_a_source_not_looked_at_is_refused_in_one_line(tmp_path):
    labels = tmp_path / "labels.json"
    document = {"format": "jantaku-labels", "version": 1, "source": {"name": "unseen"}, "images": {}}
    labels.write_text(json.dumps(document))
    _one_line_naming(_run("--backgrounds", str(labels)), "'unseen' has not been looked at")


def test_the_table_reader_bench_refuses_a_change_that_moves_the_picture():
    done = subprocess.run(
        [sys.executable, str(BENCH.parent / "bench_table_reader.py"), "--tables", "1", "--change", "turned-20"],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    _one_line_naming(done, "bench_table_reader", "turned-20", "not a change of light or focus")
