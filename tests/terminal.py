"""A real terminal for tests: a pty whose slave side a command writes to and whose master side
the test reads back (progress bars are drawn only on a terminal)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def read_all(master: int) -> str:
    """Everything written to the pty so far."""
    os.set_blocking(master, False)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except (BlockingIOError, OSError):
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", errors="replace")


def jantaku_with_stderr_on_a_terminal(*argv: str) -> tuple[int, str, str]:
    """Runs ``jantaku ARGV`` (this checkout) with stderr on a pty and stdout on a pipe:
    (exit status, stdout, what the terminal got)."""
    master, slave = os.openpty()
    try:
        result = subprocess.run(
            [sys.executable, "-m", "table_app", *argv],
            env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
            stdout=subprocess.PIPE,
            stderr=slave,
            text=True,
            timeout=300,
            check=False,
        )
        return result.returncode, result.stdout, read_all(master)
    finally:
        os.close(slave)
        os.close(master)
