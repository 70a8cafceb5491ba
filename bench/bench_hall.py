"""The hall at 32 tables: every event once, through broker kills and a network cut; latency; cost.

``--tables`` (32) simulated tables in this process, each exactly what ``jantaku run`` builds
for a ``[feed]`` + ``[hall]`` config (``build_runtime``: the demo's log camera playing the
shipped game at ``--pace`` s per act into a real ``RefereeCore`` and SQLite journal, and a
``HallPublisher`` with its own MQTT connection), started a few seconds apart, publishing
through one local Mosquitto to ``jantaku hall`` in a process of its own. Mid-game the broker
is SIGKILLed and restarted twice, and one table's network (a TCP proxy between it and the
broker) is cut for ``--cut`` s. Headless Chromium keeps the hall page open.

Printed: rows journaled and rows in the hall's journal (lost, doubled, different: each should
be 0), the duplicates the hall dropped, event → hall page latency (from the row's journal time
to the page drawing a card at or past it: p50, p95, p99, max; rows journaled during an outage
reported apart), and the hall process's CPU and peak memory.

    .venv/bin/python bench/bench_hall.py [--tables 32] [--pace 0.05] [--cut 30]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from table_app.demo_data import DEMO_LOG
from table_app.runtime.app import build_runtime
from table_app.runtime.config import parse_config
from tests.hall.broker import Mosquitto, free_port, require_mosquitto
from tests.hall.tables import journal_rows
from tests.web.browser import chromium_missing, headless_chromium

HALL = "bench"
ROOT = Path(__file__).resolve().parent.parent


class CuttableProxy:
    """A TCP proxy to the broker whose line can be cut (every connection dropped, new ones refused)."""

    def __init__(self, upstream: int) -> None:
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.cut = threading.Event()
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            client, _ = self.listener.accept()
            if self.cut.is_set():
                client.close()
                continue
            try:
                server = socket.create_connection(("127.0.0.1", self.upstream), timeout=2)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.pairs.append((client, server))
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, target: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                target.sendall(data)
        for end in (source, target):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def cut_for(self, seconds: float) -> None:
        self.cut.set()
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for client, server in pairs:
            for end in (client, server):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
                    end.close()
        time.sleep(seconds)
        self.cut.clear()


def table_config(folder: Path, name: str, port: int, pace: float) -> str:
    return (
        f'[table]\ndb = "{folder / name}.db"\nnames = ["{name}-a", "{name}-b", "{name}-c", "{name}-d"]\n\n'
        f'[feed]\nlog = "{DEMO_LOG}"\npace_s = {pace}\n\n'
        f'[hall]\nbroker = "mqtt://127.0.0.1:{port}"\nhall = "{HALL}"\ntable = "{name}"\n'
    )


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=32)
    parser.add_argument("--pace", type=float, default=0.05, help="seconds per act of the log camera")
    parser.add_argument("--cut", type=float, default=30.0, help="seconds one table's network is cut")
    parser.add_argument("--no-browser", action="store_true", help="measure latency at the hall's WebSocket instead")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-hall-"))
    broker = Mosquitto(require_mosquitto(), folder).start()
    proxy = CuttableProxy(broker.port)
    hall_port = free_port()
    hall = subprocess.Popen(
        [sys.executable, "-m", "table_app", "hall", "--hall", HALL, "--broker", broker.url,
         "--db", str(folder / "hall.db"), "--port", str(hall_port), "--log-level", "warning"],
        env={**os.environ, "PYTHONPATH": str(ROOT), "JANTAKU_CONSOLE_TOKEN": "bench"},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{hall_port}"
    for _ in range(100):
        with contextlib.suppress(OSError):
            urllib.request.urlopen(url + "/api/hall", timeout=1).close()
            break
        time.sleep(0.1)
    browser = None
    if not args.no_browser and chromium_missing() is None:
        browser_context = headless_chromium()
        browser = browser_context.__enter__()  # type: ignore[attr-defined]
        browser.get(url + "/")
    names = [f"t{i:02d}" for i in range(1, args.tables + 1)]
    cut_table = names[len(names) // 3]
    runtimes = []
    cpu_before = cpu_s(hall.pid)
    started = time.time()
    outages: list[tuple[str | None, float, float]] = []  # (table or None for all, from, to)
    for name in names:
        port = proxy.port if name == cut_table else broker.port
        config = parse_config(table_config(folder, name, port, args.pace), folder)
        runtime = build_runtime(config, out=io.StringIO())
        runtimes.append(runtime.start())
        time.sleep(random.uniform(0.05, 0.15))
    game_s = 1768 * args.pace
    took = time.time() - started
    print(f"{len(names)} tables started in {took:.1f} s; a game takes ~{game_s:.0f} s at {args.pace} s/act")

    def outage_plan() -> None:
        for fraction in (0.25, 0.55):
            time.sleep(max(0.0, started + fraction * game_s - time.time()))
            down = time.time()
            broker.kill()
            time.sleep(2.0)
            broker.start()
            outages.append((None, down, time.time()))
            print(f"broker killed at {down - started:.0f} s, back after {time.time() - down:.1f} s")
        time.sleep(max(0.0, started + 0.35 * game_s - time.time()))

    def cut_plan() -> None:
        time.sleep(0.35 * game_s)
        down = time.time()
        proxy.cut_for(args.cut)
        outages.append((cut_table, down, time.time()))
        print(f"table {cut_table}'s network cut at {down - started:.0f} s for {args.cut:.0f} s")

    plans = [threading.Thread(target=plan) for plan in (outage_plan, cut_plan)]
    for plan in plans:
        plan.start()
    for runtime in runtimes:
        assert runtime.finished is not None
        runtime.finished.wait(3600)
    for plan in plans:
        plan.join()
    for runtime in runtimes:
        runtime.stop()
    played = time.time() - started
    # Wait for the hall to hold every row (it asks for what it misses).
    expected = {name: journal_rows(folder / f"{name}.db") for name in names}
    total = sum(len(rows) for rows in expected.values())
    deadline = time.time() + 120
    held: dict[str, list[tuple[object, ...]]] = {}
    while time.time() < deadline:
        db = sqlite3.connect(f"file:{folder / 'hall.db'}?mode=ro", uri=True)
        count = db.execute("SELECT count(*) FROM hall_rows").fetchone()[0]
        if count >= total:
            for name in names:
                held[name] = db.execute(
                    "SELECT game, seq, at, kind, body, undoes FROM hall_rows WHERE tbl = ? ORDER BY game, seq", (name,)
                ).fetchall()
            db.close()
            break
        db.close()
        time.sleep(0.5)
    settled = time.time() - started
    cpu = cpu_s(hall.pid) - cpu_before
    memory = peak_mb(hall.pid)
    drawn = browser.execute_script("return window.jantakuHallDrawn") if browser is not None else []
    if browser is not None:
        browser_context.__exit__(None, None, None)
    hall.send_signal(signal.SIGTERM)
    out, _err = hall.communicate(timeout=30)
    broker.kill()

    lost = doubled = different = 0
    for name in names:
        want = [(r.game, r.seq, r.at, r.kind, r.body, r.undoes) for r in expected[name]]
        got = held.get(name, [])
        keys = [(g, s) for g, s, *_ in got]
        doubled += len(keys) - len(set(keys))
        lost += len({(g, s) for g, s, *_ in want} - set(keys))
        different += sum(1 for a, b in zip(sorted(want), sorted(got), strict=False) if a != b)
    print(f"rows journaled by {len(names)} tables: {total}; in the hall journal: {sum(len(v) for v in held.values())}")
    print(f"lost {lost}, doubled {doubled}, different {different}   (hall: {out.strip()})")
    print(f"all games over in {played:.0f} s; the hall held everything {settled - played:.1f} s later")

    if drawn:
        firsts: dict[str, list[tuple[int, float]]] = {}
        for table, _game, seq, at_ms in drawn:
            if seq is not None:
                firsts.setdefault(table, []).append((seq, at_ms / 1000))
        steady, during, hall_side = [], [], []
        received = {name: {} for name in names}
        db = sqlite3.connect(f"file:{folder / 'hall.db'}?mode=ro", uri=True)
        for name, game, seq, at_received in db.execute("SELECT tbl, game, seq, received FROM hall_rows"):
            received[name][(game, seq)] = at_received
        arrival = sorted((r - a) * 1000 for r, a in db.execute("SELECT received, at FROM hall_rows"))
        db.close()
        for name in names:
            marks = sorted(firsts.get(name, []), key=lambda m: m[1])
            for row in expected[name]:
                shown = next((t for s, t in marks if s >= row.seq), None)
                if shown is None:
                    continue
                late = shown - row.at
                hall_side.append((shown - received[name].get((row.game, row.seq), shown)) * 1000)
                out_of_line = any((t is None or t == name) and a - 1 <= row.at <= b + 3 for t, a, b in outages)
                (during if out_of_line else steady).append(late * 1000)
        if steady:
            print(
                f"event -> hall page (headless Chromium), {len(steady)} rows:"
                f" median {statistics.median(steady):.0f} ms,"
                f" p95 {percentile(steady, 0.95):.0f} ms, p99 {percentile(steady, 0.99):.0f} ms,"
                f" max {max(steady):.0f} ms"
            )
            print(
                f"  of it, journal -> hall journal (the tables' publishers, the broker): median"
                f" {statistics.median(arrival):.0f} ms, p99 {percentile(arrival, 0.99):.0f} ms (outages included);"
                f" hall journal -> page drawn: median {statistics.median(hall_side):.0f} ms,"
                f" p95 {percentile(hall_side, 0.95):.0f} ms, p99 {percentile(hall_side, 0.99):.0f} ms"
            )
        if during:
            print(
                f"  rows journaled during an outage (to 3 s after), {len(during)}:"
                f" median {statistics.median(during):.0f} ms,"
                f" max {max(during):.0f} ms"
            )
    print(
        f"hall process: {cpu:.1f} s CPU over {settled:.0f} s ({100 * cpu / settled:.0f}% of one core),"
        f" peak RSS {memory:.0f} MB"
    )
    print(f"tables' process (32 referee cores, feeds, publishers): peak RSS {peak_mb(os.getpid()):.0f} MB")
    print(f"(files in {folder})")


if __name__ == "__main__":
    main()
