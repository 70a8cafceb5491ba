"""A real Mosquitto broker for the hall tests (and the hall benchmark), on a free port of 127.0.0.1.

Debian's ``mosquitto`` (``scripts/setup dev`` installs it). Without it the tests skip, saying
so; under CI (``$CI`` or ``JANTAKU_REQUIRE_SHARED=1``, as ``.ci/run`` sets) that skip is a
failure: the hall's promises are about a real broker, and CI must keep checking them.
"""

from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.shared_data import REQUIRE_VARIABLE

MOSQUITTO = "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = "/usr/bin/mosquitto_passwd"


def mosquitto_missing() -> str | None:
    if not Path(MOSQUITTO).exists() and shutil.which("mosquitto") is None:
        return "mosquitto is not installed (scripts/setup dev installs Debian's mosquitto)"
    return None


def require_mosquitto() -> str:
    reason = mosquitto_missing()
    if reason is not None:
        if os.environ.get(REQUIRE_VARIABLE) == "1" or os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must run the hall tests")
        pytest.skip(reason)
    return MOSQUITTO if Path(MOSQUITTO).exists() else str(shutil.which("mosquitto"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Mosquitto:
    """One broker: ``start``, ``kill`` (SIGKILL: nothing saved, no goodbye), ``start`` again on the
    same port. ``extra`` is appended to the generated config (users, ACLs)."""

    def __init__(self, binary: str, folder: Path, *, port: int | None = None, extra: str = "") -> None:
        self.binary = binary
        self.folder = folder
        self.port = port or free_port()
        self.extra = extra
        self.process: subprocess.Popen[bytes] | None = None
        self.config = folder / "mosquitto.conf"
        self.log = folder / "mosquitto.log"

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self, timeout_s: float = 10.0) -> Mosquitto:
        anonymous = "false" if "password_file" in self.extra else "true"
        lines = [
            f"listener {self.port} 127.0.0.1",
            f"allow_anonymous {anonymous}",
            "persistence false",
            "max_queued_messages 100000",
            f"user {getpass.getuser()}",
            self.extra,
        ]
        self.config.write_text("\n".join(lines) + "\n", encoding="utf-8")
        log = self.log.open("ab")
        self.process = subprocess.Popen([self.binary, "-c", str(self.config)], stdout=log, stderr=log)
        log.close()
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited ({self.process.returncode}): {self.log.read_text()[-500:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.02)
        raise TimeoutError(f"mosquitto did not listen on {self.port} within {timeout_s} s")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process = None


def add_user(password_file: Path, user: str, password: str) -> None:
    flags = ["-b", "-c"] if not password_file.exists() else ["-b"]
    subprocess.run([MOSQUITTO_PASSWD, *flags, str(password_file), user, password], check=True, capture_output=True)
