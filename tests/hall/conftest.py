"""A real Mosquitto per test (its own port, config and log in the test's folder)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hall.broker import Mosquitto, require_mosquitto


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    server = Mosquitto(require_mosquitto(), tmp_path).start()
    try:
        yield server
    finally:
        server.kill()
