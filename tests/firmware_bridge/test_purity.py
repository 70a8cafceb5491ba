"""The codec, the session and the simulator are pure: no I/O, no threads, no clock of their own.

Only the shells (serial_link, sim_transport, fake_port) may touch ports, threads and time, so
everything else can be tested with bytes and numbers alone.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "firmware_bridge"
SHELLS = {"serial_link.py", "sim_transport.py", "fake_port.py"}
FORBIDDEN = {"serial", "threading", "os", "select", "socket", "time", "tty", "pty", "subprocess", "asyncio"}


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize(
    "module", sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in SHELLS), ids=lambda name: name
)
def test_pure_modules_do_no_io(module: str) -> None:
    assert not imported_roots(PACKAGE / module) & FORBIDDEN


def test_the_shells_are_the_only_modules_that_import_pyserial() -> None:
    users = {p.name for p in PACKAGE.glob("*.py") if "serial" in imported_roots(p)}
    assert users == SHELLS  # (equality also proves the import scan finds imports)
