"""The real-photo bench (bench/bench_real_photos.py) given a broken label file or a missing
model: one line naming it, status 1, no traceback."""

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_real_photos.py"


def _run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCH), *arguments], check=False, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(("content", "complaint"), [("[1]", "not an array"), ("{", "not JSON")])
def test_a_broken_label_file_is_named_in_one_line(tmp_path, content, complaint):
    labels = tmp_path / "labels.json"
    labels.write_text(content)
    done = _run("--labels", str(labels), "--repeat", "1")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().count("\n") == 0
    assert str(labels) in done.stderr
    assert complaint in done.stderr


def test_a_missing_aspect_judge_is_named_in_one_line(tmp_path):
    labels = tmp_path / "labels.json"
    labels.write_text('{"format": "jantaku-labels", "version": 1, "images": {}}')
    done = _run("--labels", str(labels), "--aspect-judge", str(tmp_path / "absent.onnx"))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "absent.onnx" in done.stderr
