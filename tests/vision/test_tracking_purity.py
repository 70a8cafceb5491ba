"""The tracker is pure: no OpenCV, onnxruntime, numpy, threads, clocks or I/O (it may run anywhere
the referee core runs, and replays the same readings to the same observations)."""

from pathlib import Path

import pytest

from tests.source_imports import imports_and_calls, is_within

TRACKING = Path(__file__).resolve().parents[2] / "vision" / "live" / "tracking"
FORBIDDEN = ("cv2", "onnxruntime", "numpy", "threading", "time", "socket", "sqlite3", "vision.sources", "vision.render")


def test_there_are_tracking_modules():
    assert len(list(TRACKING.glob("*.py"))) >= 4


@pytest.mark.parametrize("path", sorted(TRACKING.glob("*.py")), ids=lambda p: p.name)
def test_tracking_module_imports_nothing_impure(path):
    for line, module, call in imports_and_calls(path):
        if module is not None:
            banned = [f for f in FORBIDDEN if is_within(module, f)]
            assert not banned, f"{path}:{line} imports {module}"
        assert call not in ("open", "print", "input"), f"{path}:{line} calls {call}()"
