"""Runtime vision code never imports torch: only ``vision/training`` may (the ``train`` extra)."""

from pathlib import Path

import pytest

from tests.source_imports import imports_and_calls

VISION = Path(__file__).resolve().parents[2] / "vision"
RUNTIME_FILES = sorted(p for p in VISION.rglob("*.py") if "training" not in p.relative_to(VISION).parts)


def test_there_are_runtime_modules():
    assert len(RUNTIME_FILES) >= 10


@pytest.mark.parametrize("path", RUNTIME_FILES, ids=lambda p: str(p.relative_to(VISION)))
def test_runtime_module_does_not_import_torch_or_training(path):
    for line, module, _call in imports_and_calls(path):
        if module is not None:
            assert not module.startswith(("torch", "vision.training")), f"{path}:{line} imports {module}"
