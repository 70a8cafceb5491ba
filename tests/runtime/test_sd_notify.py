"""systemd's notify protocol over a real unix datagram socket, and ``jantaku run`` speaking it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from table_app.runtime.sd_notify import Notifier, Watchdog, watchdog_interval_s

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def listener(tmp_path) -> Iterator[tuple[str, socket.socket]]:
    """A datagram socket standing in for systemd's, at a path."""
    path = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(path)
        sock.settimeout(5)
        yield path, sock


def _received(sock: socket.socket) -> list[str]:
    """Every datagram waiting on ``sock``."""
    messages = []
    sock.settimeout(0.2)
    try:
        while True:
            messages.append(sock.recv(4096).decode())
    except TimeoutError:
        return messages


def test_ready_status_watchdog_and_stopping_are_one_datagram_each(listener):
    path, sock = listener
    notifier = Notifier({"NOTIFY_SOCKET": path})
    assert notifier.enabled
    assert notifier.ready("refereeing")
    assert sock.recv(4096) == b"READY=1\nSTATUS=refereeing"
    assert notifier.watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"
    assert notifier.stopping()
    assert sock.recv(4096) == b"STOPPING=1"


def test_an_abstract_socket_is_named_with_an_at_sign():
    name = f"jantaku-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(5)
        assert Notifier({"NOTIFY_SOCKET": "@" + name}).status("hello")
        assert sock.recv(4096) == b"STATUS=hello"


def test_without_systemd_nothing_is_sent_and_a_dead_socket_is_not_an_error(tmp_path, caplog):
    assert not Notifier({}).enabled
    assert not Notifier({}).ready()
    gone = Notifier({"NOTIFY_SOCKET": str(tmp_path / "nobody-listens")})
    assert not gone.watchdog()
    assert not gone.watchdog()
    assert len([r for r in caplog.records if "cannot notify systemd" in r.message]) == 1  # warned once


def test_the_ping_interval_is_half_the_watchdog_timeout_and_only_for_this_process():
    assert watchdog_interval_s({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert watchdog_interval_s({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "42"}, pid=42) == 15.0
    assert watchdog_interval_s({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "42"}, pid=43) is None
    assert watchdog_interval_s({}) is None
    assert watchdog_interval_s({"WATCHDOG_USEC": "soon"}) is None


def test_the_watchdog_pings_on_time_and_stops_when_the_referee_is_not_alive(listener):
    path, sock = listener
    now = [100.0]
    alive = [True]
    dog = Watchdog(Notifier({"NOTIFY_SOCKET": path}), 5.0, lambda: alive[0], clock=lambda: now[0])
    assert dog.poke()
    assert not dog.poke()  # not due yet
    now[0] += 5.0
    assert dog.poke()
    now[0] += 5.0
    alive[0] = False
    assert not dog.poke()  # a stuck core gets no ping: systemd restarts the service
    assert _received(sock) == ["WATCHDOG=1", "WATCHDOG=1"]


def test_jantaku_run_says_ready_pings_the_watchdog_and_says_stopping(listener, tmp_path):
    path, sock = listener
    config = tmp_path / "table.toml"
    config.write_text('[table]\ndb = "t.db"\n', encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NOTIFY_SOCKET": path, "WATCHDOG_USEC": "200000"}
    done = subprocess.run(
        [sys.executable, "-m", "table_app", "run", "--config", str(config), "--duration", "1.5"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    messages = _received(sock)
    assert messages[0].startswith("READY=1\nSTATUS=refereeing")
    assert messages[-1] == "STOPPING=1"
    assert messages.count("WATCHDOG=1") >= 5  # every 0.1 s for 1.5 s, give or take a loaded machine


def test_the_core_is_alive_while_its_thread_goes_round_and_not_once_it_stopped(tmp_path):
    from table_app.interpret import TableSetup
    from table_app.journal.store import GameStore
    from table_app.runtime.core import RefereeCore

    store = GameStore(tmp_path / "t.db")
    core = RefereeCore(store, TableSetup(), tick_s=0.05)
    assert not core.alive(within_s=1.0)  # not started
    core.start()
    try:
        core.drain()
        assert core.alive(within_s=1.0)
    finally:
        core.stop()
        store.close()
    assert not core.alive(within_s=1.0)
