"""Referee core latency: a discard posted to the core thread → its update heard by a listener.

Plays a logged game's observations through a real ``RefereeCore`` on a real SQLite journal
(WAL, synchronous=FULL, one fsync'd transaction per decision), one observation at a time,
and prints the median and p95 from ``post`` to ``on_update`` for the updates that carry a
``dahai``, the whole game's time, and the process's peak resident memory.

    .venv/bin/python bench/bench_runtime.py [--log FILE] [--db PATH]
"""

from __future__ import annotations

import argparse
import queue
import resource
import statistics
import tempfile
import time
from pathlib import Path

from table_app.interpret import TableSetup
from table_app.interpret.event_observations import FeedOptions, log_observations
from table_app.journal import GameStore
from table_app.logs import read_log
from table_app.rules.check import profile_for_log
from table_app.rules.events import Dahai, StartKyoku
from table_app.rules.profiles import TENHOU
from table_app.runtime.core import RefereeCore
from table_app.runtime.ports import CoreUpdate

SHARED_LOGS = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "logs"
DEFAULT_LOG = SHARED_LOGS / "tenhou6_json" / "2010081709gm-00a9-0000-fe3371ad.json"


class Timer:
    def __init__(self) -> None:
        self.updates: queue.Queue[tuple[float, CoreUpdate]] = queue.Queue()

    def on_update(self, update: CoreUpdate) -> None:
        self.updates.put((time.perf_counter(), update))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log", type=Path, default=DEFAULT_LOG)
    parser.add_argument("--db", type=Path, help="journal file (default: a temporary one)")
    args = parser.parse_args()
    game = read_log(args.log)[0]
    profile = profile_for_log(TENHOU, game.rules)
    first = next(e.oya for e in game.events if isinstance(e, StartKyoku))
    observations = list(log_observations(game.events, profile, FeedOptions(trays=True)))
    with tempfile.TemporaryDirectory() as folder:
        db = args.db or Path(folder) / "bench.db"
        store = GameStore(db)
        timer = Timer()
        core = RefereeCore(store, TableSetup(profile, first_dealer=first), [timer]).start()
        latencies: list[float] = []
        start = time.perf_counter()
        for observation in observations:
            posted = time.perf_counter()
            core.post(observation)
            heard, update = timer.updates.get(timeout=10)
            if any(isinstance(e, Dahai) for e in update.events):
                latencies.append((heard - posted) * 1000)
        total = time.perf_counter() - start
        core.stop()
        store.close()
    latencies.sort()
    p95 = latencies[int(len(latencies) * 0.95)]
    print(f"{len(observations)} observations, {len(latencies)} discards, whole game {total:.2f} s")
    print(f"discard posted → update heard: median {statistics.median(latencies):.2f} ms, p95 {p95:.2f} ms")
    print(f"peak resident memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
