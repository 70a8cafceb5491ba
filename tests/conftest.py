"""Shared test helpers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.shared_data import shared_path


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """``../shared`` beside the checkout (CI puts it there; without it the test skips, see tests/shared_data.py)."""
    return shared_path()
