"""Vision tests need the CC0 tile art from ``../shared``; skip cleanly where it is absent."""

from __future__ import annotations

import pytest

from vision.tile_art import default_art_root


@pytest.fixture(scope="session", autouse=True)
def tile_art_present() -> None:
    if not (default_art_root() / "Regular" / "Front.png").is_file():
        pytest.skip(f"tile art not found at {default_art_root()}")
