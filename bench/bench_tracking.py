"""Tracking's share of the camera's latency: a frame read → its observations posted.

Builds the readings a perfect camera gives of the shipped demo game (every public change held
for two frames, ``tests/vision/perfect_table.py``), then
1. times ``Tracker.update`` on each reading (median, p95, max in µs);
2. runs them through a real ``VisionSource`` thread (the reader stands in: it hands out the
   prepared reading), timing from the reader's return to each observation's ``post``, and the
   pipeline's frames per second without a reader's cost.

    .venv/bin/python bench/bench_tracking.py [--frames-per-change N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the perfect camera is a test helper

from table_app.logs import read_log  # noqa: E402
from table_app.rules.check import profile_for_log  # noqa: E402
from table_app.rules.profiles import TENHOU  # noqa: E402
from tests.vision.perfect_table import perfect_readings  # noqa: E402
from vision.live.pipeline import VisionSource  # noqa: E402
from vision.live.reading import TableReading  # noqa: E402
from vision.live.tracking import Tracker  # noqa: E402
from vision.sources.frame import CameraFrame  # noqa: E402

DEMO = ROOT / "table_app" / "demo_data" / "demo-game.mjlog"


class PreparedFrames:
    """A finite source of tiny frames, one per prepared reading."""

    name = "prepared"

    def __init__(self, count: int) -> None:
        self._left = count
        self._image = np.zeros((4, 4, 3), np.uint8)
        self._image.flags.writeable = False
        self._clock = 0.0

    @property
    def ended(self) -> bool:
        return self._left <= 0

    def read(self) -> CameraFrame | None:
        self._left -= 1
        self._clock += 0.05
        return CameraFrame(self._image, self._clock)

    def close(self) -> None:
        self._left = 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--frames-per-change", type=int, default=2)
    args = parser.parse_args()
    game = read_log(DEMO)[0]
    profile = profile_for_log(TENHOU, game.rules)
    items = perfect_readings(game.events, profile, frames=args.frames_per_change)
    readings = [r for r in items if isinstance(r, TableReading)]

    tracker = Tracker()
    took: list[float] = []
    posted = 0
    for reading in readings:
        started = time.perf_counter()
        posted += len(tracker.update(reading))
        took.append(time.perf_counter() - started)
    us = sorted(1e6 * t for t in took)
    print(f"demo game: {len(readings)} readings, {posted} observations ({len(game.hands)} hands)")
    print(
        f"Tracker.update: median {statistics.median(us):.0f} µs, p95 {us[int(0.95 * len(us))]:.0f} µs, "
        f"max {us[-1]:.0f} µs"
    )

    returned: list[float] = []
    latencies: list[float] = []
    index = iter(readings)

    def read(_frame: CameraFrame) -> TableReading:
        reading = next(index)
        returned.append(time.perf_counter())
        return reading

    def post(_observation: object) -> None:
        latencies.append(time.perf_counter() - returned[-1])

    source = VisionSource(PreparedFrames(len(readings)), read, Tracker())
    started = time.perf_counter()
    source.start(post)
    source.wait()
    elapsed = time.perf_counter() - started
    source.stop()
    ms = sorted(1e3 * t for t in latencies)
    print(
        f"VisionSource: {source.stats.frames} frames in {elapsed:.2f} s ({source.stats.frames / elapsed:.0f} frames/s "
        f"without a reader); read → posted median {statistics.median(ms):.3f} ms, p95 {ms[int(0.95 * len(ms))]:.3f} ms"
    )


if __name__ == "__main__":
    main()
