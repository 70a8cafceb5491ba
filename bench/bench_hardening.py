"""Hardening figures: idle connections, malformed requests, power cuts.

1. ``jantaku web`` in a process of its own with a Pi's 1024 file descriptors; this process
   opens ``--idle`` sockets to it (2,000, from ``--sources`` loopback addresses) that send
   nothing, then times ``GET /`` (median of 20) and counts how many idle sockets the server
   still holds and how often its log said ``out of system resource``.
2. The crafted malformed requests of ``tests/web/test_hardening.py`` and ``--fuzz`` random
   ones against the same server: how many were answered with a 5xx (should be 0).
3. ``jantaku run`` over a logged game SIGKILLed at random moments and restarted until the game
   is over (``tests/runtime/fault_injection.py``), ``--games`` times: kills survived, rows lost
   or doubled against an uninterrupted run's journal.

    .venv/bin/python bench/bench_hardening.py [--idle 2000] [--fuzz 500] [--games 2]
"""

from __future__ import annotations

import argparse
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from table_app.demo_data import DEMO_LOG
from table_app.logs import read_log
from table_app.rules.mjai_codec import encode_event
from tests.runtime.fault_injection import ROOT, kill_until_finished
from tests.runtime.helpers import uninterrupted_events
from tests.shared_data import SHARED
from tests.web.raw_http import request_bytes, send_raw
from tests.web.test_hardening import MALFORMED, TOKEN

GAME = SHARED / "data" / "logs" / "tenhou6_json" / "2020081220gm-00a9-0000-9ee6ab3b.json"
PI_DESCRIPTORS = 1024


def _pi_limits() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (PI_DESCRIPTORS, PI_DESCRIPTORS))


def _serve(folder: Path) -> tuple[subprocess.Popen[str], str, Path]:
    log = folder / "web.log"
    with log.open("w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-c", "import sys; from table_app.cli import main; sys.exit(main())", "web",
             "--replay", str(DEMO_LOG), "--port", "0", "--token", TOKEN, "--step-seconds", "0"],
            stderr=stderr, stdout=subprocess.DEVNULL, text=True, preexec_fn=_pi_limits,  # noqa: PLW1509 - no thread runs yet
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for line in log.read_text().splitlines():
            if line.startswith("table display http://"):
                return process, line.split()[2].rstrip("/"), log
        time.sleep(0.1)
    raise RuntimeError(f"jantaku web did not start: {log.read_text()[-1000:]}")


def _get(url: str) -> float:
    started = time.perf_counter()
    with urllib.request.urlopen(url + "/", timeout=30) as answer:
        answer.read()
        assert answer.status == 200
    return time.perf_counter() - started


def idle_connections(url: str, log: Path, count: int, sources: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count + 512)), hard))
    host, port = url.removeprefix("http://").split(":")
    quiet = [_get(url) for _ in range(20)]
    idle = []
    started = time.perf_counter()
    for n in range(count):
        # from many guests (127.0.0.2, .3, ...): the total budget is tried, not one guest's
        source = f"127.0.{2 + n % sources // 250}.{2 + n % sources % 250}"
        idle.append(socket.create_connection((host, int(port)), timeout=10, source_address=(source, 0)))
    opened = time.perf_counter() - started
    loaded = [_get(url) for _ in range(20)]
    time.sleep(1.0)
    closed = 0
    for connection in idle:
        connection.setblocking(False)
        try:
            if connection.recv(1) == b"":
                closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
    for connection in idle:
        connection.close()
    errors = log.read_text().count("out of system resource")
    print(
        f"connections: {count} idle sockets from {sources} addresses opened in {opened:.1f} s against a server "
        f"with {PI_DESCRIPTORS} "
        f"descriptors; it holds {count - closed} of them (closed {closed}); GET / median "
        f"{statistics.median(quiet) * 1000:.1f} ms quiet, {statistics.median(loaded) * 1000:.1f} ms "
        f"(max {max(loaded) * 1000:.1f}) with them open; 'out of system resource' logged {errors} times"
    )


def malformed_requests(url: str, fuzzed: int) -> None:
    rng = random.Random(16)
    pieces = [b"GET", b"POST", b" /", b"/api/console/", b"correct-tile", b"/static/", b"HTTP/1.1", b"\r\n", b": ",
              b"Content-Length: 9", b"Content-Type: multipart/form-data", b"X-Jantaku-Token", b"\xff", b"\x00",
              b"{", b"}", b'"seat":', b"9" * 5000, b"%", b"..", b"Cookie: jantaku_console=",
              b"Origin: null"]  # fmt: skip
    requests = list(MALFORMED.values())
    for _ in range(fuzzed):
        body = b"".join(rng.choice(pieces) for _ in range(rng.randint(1, 30)))
        if rng.random() < 0.5:
            body = request_bytes("POST", "/api/console/correct-tile", {"X-Jantaku-Token": TOKEN}, body)
        requests.append(body)
    statuses: dict[str, int] = {}
    for request in requests:
        status, _ = send_raw(url, request, timeout=15)
        key = "closed" if status is None else f"{status // 100}xx"
        statuses[key] = statuses.get(key, 0) + 1
    counts = ", ".join(f"{n} {k}" for k, n in sorted(statuses.items()))
    print(
        f"malformed requests: {len(requests)} tried ({len(MALFORMED)} crafted, {fuzzed} fuzzed): {counts}; "
        f"5xx {statuses.get('5xx', 0)}; GET / after them {_get(url) * 1000:.1f} ms"
    )


def power_cuts(games: int) -> None:
    expected = [encode_event(e) for e in uninterrupted_events(read_log(GAME)[0])]
    kills = lost = doubled = runs = differ = 0
    started = time.perf_counter()
    for seed in range(games):
        with tempfile.TemporaryDirectory(prefix="jantaku-kills-") as folder:
            report = kill_until_finished(Path(folder), GAME, seed=seed, events_between=(20, 100))
        assert report.finished
        assert report.games == 1
        kills += report.kills
        runs += report.runs
        bodies = [body for _, kind, body in report.final if kind == "event"]
        lost += report.lost + report.unrecorded + max(0, len(expected) - len(bodies))
        doubled += max(0, len(bodies) - len(expected))
        differ += int(bodies != expected)
    print(
        f"power cuts: {kills} kills survived over {games} games of {len(expected)} events "
        f"({runs} runs, {time.perf_counter() - started:.0f} s); rows lost {lost}, doubled {doubled}; "
        f"journals unlike an uninterrupted run's {differ}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=int, default=2000)
    parser.add_argument("--sources", type=int, default=40, help="client addresses the idle sockets come from")
    parser.add_argument("--fuzz", type=int, default=500)
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="jantaku-bench-") as folder:
        process, url, log = _serve(Path(folder))
        try:
            idle_connections(url, log, args.idle, args.sources)
            malformed_requests(url, args.fuzz)
        finally:
            process.terminate()
            process.wait(timeout=30)
    if args.games:
        power_cuts(args.games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
