"""One writer per journal: an OS lock on a file beside the database.

Two ``jantaku run`` on one journal would both append to the same game and interleave their
sequence numbers into a game that no longer reads back. SQLite's own locks only serialise
single transactions, so the writer holds ``flock`` on ``<db>.lock`` for as long as it has the
journal open. The kernel drops the lock when the process dies (a pulled power cord, a
SIGKILL), so a stale lock file never blocks the next start; what it holds (pid, host, since
when) is only there to tell the second writer who it is waiting for.

Inside one process the lock is shared: the referee and a test (or the demo's resume check)
may open the same journal twice, and ``flock`` would otherwise refuse a process its own lock.
Readers (``jantaku games``, ``export``) never take it: SQLite's WAL lets them read beside a
writer.
"""

from __future__ import annotations

import fcntl
import os
import socket
import threading
import time
from dataclasses import dataclass

from table_app.journal.errors import JournalError


class JournalLockedError(JournalError):
    """Another process writes to this journal."""


@dataclass(slots=True)
class _Held:
    fd: int
    count: int


_held: dict[str, _Held] = {}
_guard = threading.Lock()


def lock_path(db: str) -> str:
    return db + ".lock"


def acquire(db: str) -> str:
    """Take the writer's lock for ``db`` (shared with this process's other holders); returns the
    key to :func:`release` it with. Raises :class:`JournalLockedError` naming the holder."""
    path = os.path.realpath(lock_path(db))
    with _guard:
        held = _held.get(path)
        if held is not None:
            held.count += 1
            return path
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as error:
            raise JournalError(f"{db}: cannot make the writer's lock {path} ({error.strerror})") from error
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise JournalLockedError(
                f"{db}: the journal is in use by another writer ({holder}); one jantaku run per journal"
            ) from None
        except OSError as error:
            os.close(fd)
            raise JournalError(f"{db}: cannot lock {path} ({error.strerror})") from error
        _write_holder(fd)
        _held[path] = _Held(fd, 1)
        return path


def release(key: str) -> None:
    with _guard:
        held = _held.get(key)
        if held is None:
            return
        held.count -= 1
        if held.count == 0:
            del _held[key]
            os.close(held.fd)  # closing the last descriptor drops the flock


def _write_holder(fd: int) -> None:
    since = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    text = f"pid {os.getpid()} on {socket.gethostname()} since {since}\n".encode()
    os.ftruncate(fd, 0)
    os.pwrite(fd, text, 0)


def _read_holder(fd: int) -> str:
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return text or "holder unknown"
