"""Where the shared real-game logs are (``../shared/data/logs`` beside the checkout)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def logs_dir(shared_dir: Path) -> Path:
    path = shared_dir / "data" / "logs"
    if not path.is_dir():
        pytest.skip(f"no shared logs at {path}")
    return path
