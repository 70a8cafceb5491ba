"""The demo world's render time per frame over a whole game (the fixed ``TableCamera``).

    .venv/bin/python bench/bench_demo_world.py [--log FILE] [--frames-per-scene 3]

Plays the game's scenes through ``RenderedGameSource`` as the vision pipeline would pull them
(no pacing, no board hold) and prints the camera's start-up time, the number of scenes and
frames, and the milliseconds per frame: median, p95 and the worst (a new hand's first frame
draws its walls' sprites), with ``render_table`` on one frame of the same size for comparison.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from table_app.demo_data import DEMO_LOG
from table_app.logs import read_log
from table_app.rules.check import profile_for_log
from table_app.rules.profiles import TENHOU
from vision.render.game_scene import game_scenes
from vision.render.renderer import RenderOptions, render_table
from vision.render.table_camera import TableCamera
from vision.sources.game_source import RenderedGameSource


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--log", type=Path, default=DEMO_LOG)
    parser.add_argument("--frames-per-scene", type=int, default=3)
    args = parser.parse_args()
    game = read_log(args.log)[0]
    started = time.perf_counter()
    scenes = game_scenes(game.events, profile_for_log(TENHOU, game.rules))
    scenes_s = time.perf_counter() - started
    started = time.perf_counter()
    camera = TableCamera()
    camera_s = time.perf_counter() - started
    source = RenderedGameSource(scenes, camera, frames_per_scene=args.frames_per_scene, board_settle_s=0.0)
    frame_ms: list[float] = []
    while not source.ended:
        started = time.perf_counter()
        source.read()
        frame_ms.append((time.perf_counter() - started) * 1000)
    frame_ms.sort()
    p95 = frame_ms[int(0.95 * (len(frame_ms) - 1))]
    print(f"game {args.log.name}: {len(game.events)} events -> {len(scenes)} scenes in {scenes_s * 1000:.0f} ms")
    print(f"camera start-up (felt, markers, noise fields): {camera_s * 1000:.0f} ms")
    print(
        f"{len(frame_ms)} frames 1920x1080: median {statistics.median(frame_ms):.1f} ms, p95 {p95:.1f} ms, "
        f"worst {frame_ms[-1]:.1f} ms, whole game {sum(frame_ms) / 1000:.1f} s"
    )
    for effects in (False, True):
        started = time.perf_counter()
        render_table(0, RenderOptions(size=(1920, 1080), effects=effects), scenes[len(scenes) // 2].layout)
        print(f"render_table, effects {effects}: {(time.perf_counter() - started) * 1000:.0f} ms for one frame")


if __name__ == "__main__":
    main()
