"""Where the shared real-game logs are (``../shared/data/logs`` beside the checkout)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.shared_data import shared_path


@pytest.fixture(scope="session")
def logs_dir() -> Path:
    return shared_path("data", "logs")
