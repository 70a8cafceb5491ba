"""The tracker is pure: no OpenCV, onnxruntime, numpy, threads, clocks or I/O (it may run anywhere
the referee core runs, and replays the same readings to the same observations)."""

import ast
from pathlib import Path

import pytest

TRACKING = Path(__file__).resolve().parents[2] / "vision" / "tracking"
FORBIDDEN = ("cv2", "onnxruntime", "numpy", "threading", "time", "socket", "sqlite3", "vision.sources", "vision.render")


def test_there_are_tracking_modules():
    assert len(list(TRACKING.glob("*.py"))) >= 4


@pytest.mark.parametrize("path", sorted(TRACKING.glob("*.py")), ids=lambda p: p.name)
def test_tracking_module_imports_nothing_impure(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        for name in names:
            banned = [f for f in FORBIDDEN if name == f or name.startswith(f + ".")]
            assert not banned, f"{path}:{node.lineno} imports {name}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in ("open", "print", "input"), f"{path}:{node.lineno} calls {node.func.id}()"
