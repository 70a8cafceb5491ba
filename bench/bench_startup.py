"""Start-up time: how long ``jantaku hand`` takes to answer, beside a bare ``python -c pass``.

Runs each command ``--runs`` times in a fresh interpreter (this checkout first on the path) and
prints the median and the fastest wall time of each, the median CPU time (user + system: what a
busy machine's wall time hides), and ``jantaku hand``'s time above Python's own start. The aim is
``jantaku hand`` in 0.3 s or less.

    .venv/bin/python bench/bench_startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AIM_S = 0.3
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "jantaku hand 123m456p789s11z22z": [sys.executable, "-m", "table_app", "hand", "123m456p789s11z22z"],
    "jantaku games (empty journal)": [sys.executable, "-m", "table_app", "games", "--db", "{db}"],
}


def timed_runs(command: list[str], runs: int, environment: dict[str, str]) -> tuple[list[float], list[float]]:
    """Wall times and CPU times (user + system) of ``runs`` runs."""
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(command, env=environment, stdout=subprocess.DEVNULL, check=True)
        walls.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return walls, cpus


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (default 15)")
    args = parser.parse_args()
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    db = ROOT / "out" / "bench-startup.db"
    db.parent.mkdir(exist_ok=True)
    db.unlink(missing_ok=True)
    from table_app.journal.store import GameStore  # noqa: PLC0415 (only to make the empty journal `games` reads)

    GameStore(db).close()
    medians = {}
    print(f"{'command':<36} {'median s':>9} {'fastest s':>10} {'CPU s':>7}   ({args.runs} runs each)")
    for name, command in COMMANDS.items():
        walls, cpus = timed_runs([word.format(db=db) for word in command], args.runs, environment)
        medians[name] = statistics.median(walls)
        print(f"{name:<36} {medians[name]:9.3f} {min(walls):10.3f} {statistics.median(cpus):7.3f}")
    hand = medians["jantaku hand 123m456p789s11z22z"]
    print(f"jantaku hand above python's own start: {hand - medians['python -c pass']:.3f} s")
    print(f"aim: jantaku hand <= {AIM_S} s: {'met' if hand <= AIM_S else 'NOT met'}")
    db.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
