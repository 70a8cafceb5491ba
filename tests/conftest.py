"""Shared test helpers."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED = REPO_ROOT.parent / "shared"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """``../shared`` beside the checkout (CI puts it there)."""
    if not SHARED.is_dir():
        pytest.skip(f"shared data folder {SHARED} is not present")
    return SHARED
