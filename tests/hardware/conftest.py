"""The firmware's modules are flat files for the board: make them importable in the tests."""

from __future__ import annotations

import sys
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "hardware" / "firmware"
if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))
