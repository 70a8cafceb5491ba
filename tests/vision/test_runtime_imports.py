"""Runtime vision code never imports torch: only ``vision/training`` may (the ``train`` extra)."""

import ast
from pathlib import Path

import pytest

VISION = Path(__file__).resolve().parents[2] / "vision"
RUNTIME_FILES = sorted(p for p in VISION.rglob("*.py") if "training" not in p.relative_to(VISION).parts)


def test_there_are_runtime_modules():
    assert len(RUNTIME_FILES) >= 10


@pytest.mark.parametrize("path", RUNTIME_FILES, ids=lambda p: str(p.relative_to(VISION)))
def test_runtime_module_does_not_import_torch_or_training(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        for name in names:
            assert not name.startswith(("torch", "vision.training")), f"{path}:{node.lineno} imports {name}"
