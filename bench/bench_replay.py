"""Replay speed over the whole shared corpus: every four-player game, every event.

Reads every log in ``../shared/data/logs`` (or the folders given), then does for every
event what the referee does: judge it and, if accepted, fold it in (``judged.judge_and_apply``:
the verdict, then state, scoring, payments), timing the two together. Prints the reading
time, the replay time, events per second, and the median, p99 and max latency per event,
split into wins (scored through the ``mahjong`` package) and all other events.

    .venv/bin/python bench/bench_replay.py [PATH ...]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from table_app.logs import log_files, read_log
from table_app.rules.check import profile_for_log
from table_app.rules.events import Hora
from table_app.rules.fold import new_game
from table_app.rules.judged import judge_and_apply
from table_app.rules.profiles import TENHOU
from table_app.rules.record import GameLog

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "logs"


def percentile(sorted_values: list[int], fraction: float) -> int:
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", type=Path, default=[DEFAULT])
    args = parser.parse_args()

    started = time.perf_counter()
    games: list[GameLog] = []
    for path in log_files(args.paths):
        games.extend(g for g in read_log(path) if g.players == 4 and g.rules.unsupported is None)
    read_s = time.perf_counter() - started

    wins: list[int] = []
    others: list[int] = []
    started = time.perf_counter()
    for game in games:
        state = new_game(profile_for_log(TENHOU, game.rules))
        for event in game.events:
            before = time.perf_counter_ns()
            state = judge_and_apply(state, event).state
            elapsed = time.perf_counter_ns() - before
            (wins if isinstance(event, Hora) else others).append(elapsed)
    replay_s = time.perf_counter() - started

    every = sorted(wins + others)
    wins.sort()
    others.sort()
    print(f"games            {len(games)}")
    print(f"events           {len(every)}")
    print(f"read logs        {read_s:.2f} s")
    print(f"replay           {replay_s:.2f} s  ({len(every) / replay_s:,.0f} events/s)")
    print(f"whole corpus     {read_s + replay_s:.2f} s")
    for name, values in (("all events", every), ("wins (hora)", wins), ("other events", others)):
        print(
            f"{name:<16} median {statistics.median(values) / 1000:.1f} us  "
            f"p99 {percentile(values, 0.99) / 1000:.1f} us  max {values[-1] / 1000:.1f} us  (n={len(values)})"
        )


if __name__ == "__main__":
    main()
