"""The table reader's figures: rendered 1920×1080 frames of random tables (with added kans,
winning tiles and ura indicators) through near-overhead cameras, calibrated from the table's
corners, read with the shipped ONNX classifier.

    .venv/bin/python bench/bench_table_reader.py [--tables 30] [--first-seed 3000000] [--style regular|black] [--clean]
        [--model ONNX] [--detector ONNX] [--profile] [--differences] [--opencv-threads N] [--riichi-sticks]
        [--change NAME] [--light-meter FRAMES]

Prints frame → ``TableReading`` time (median, p95; wall clock, and the process's CPU time,
which other work on a shared machine disturbs less), per-tile classification accuracy and
sideways accuracy (over the tiles the reader placed where a drawn tile lies; and of those, how
many are read wrong and not marked uncertain: what a referee would act on, and how many are
read right but marked uncertain: what it would ask about for nothing), and the rate of
tables whose structure is read exactly: per part (ponds with the riichi tile, melds, open
hands with the winning tile, dora and ura) and whole. ``--clean`` renders without camera
effects (no blur, glare, noise or JPEG). Seeds 3 000 000+ are apart from training; the
table reader's white dragon threshold (``washed_out``) and the gaps' edge test (``gaps``) were
chosen on 3 000 000-089 and checked on 3 000 100-189 (``--first-seed 3000100``).
``--profile`` reads under cProfile (slower) and prints where a frame's time goes: each stage's
share, the network runs and the crops cut a frame. ``--differences`` prints, table by table,
its seed and where its reading differs from what was drawn (to compare runs table by table).
``--riichi-sticks`` lays a 1 000-point stick before each riichi seat's pond, where a player
puts it (``vision.render.riichi_sticks``); the tables are otherwise the same.
``--change NAME`` makes a change of light or focus to every frame (``vision.eval.photo_changes``:
``warm``, ``cool``, ``defocus``, ``shake``, ...; one that moves the picture is refused).
``--light-meter FRAMES`` reads each table as a live camera's reader does, with a light meter
(``vision.live.light_meter``) that has seen FRAMES frames of it before the one measured.
``--opencv-threads N`` sets OpenCV's thread count for the run (``cv2.setNumThreads``; by
default OpenCV's own, one a core): the networks run on one onnxruntime thread either way.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from vision.classify.classifier import DEFAULT_MODEL, OnnxTileClassifier
from vision.eval.photo_changes import PhotoChangeError, pixel_change
from vision.find.learnt import DEFAULT_DETECTOR
from vision.live.light_meter import LightMeter
from vision.live.table_reader import TableReader
from vision.live.table_reader.checking import bench_table, differences, picked_calibration
from vision.render.renderer import RenderedTable, RenderOptions
from vision.render.tile_art import ArtStyle

FIRST_SEED = 3_000_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument(
        "--first-seed", type=int, default=FIRST_SEED, help=f"the first table's seed (default {FIRST_SEED:_})"
    )
    parser.add_argument("--style", choices=[s.value for s in ArtStyle], default=ArtStyle.REGULAR.value)
    parser.add_argument("--clean", action="store_true", help="render without camera effects")
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL, help="classifier model (default: the shipped one)")
    parser.add_argument(
        "--detector", type=Path, default=DEFAULT_DETECTOR, help="tile detector model (default: the shipped one)"
    )
    parser.add_argument("--profile", action="store_true", help="print where a frame's time goes (reads under cProfile)")
    parser.add_argument("--differences", action="store_true", help="print each table's seed and what it reads wrong")
    parser.add_argument("--opencv-threads", type=int, help="OpenCV's thread count (default: OpenCV's own)")
    parser.add_argument(
        "--riichi-sticks", action="store_true", help="a 1 000-point stick before each riichi seat's pond"
    )
    parser.add_argument(
        "--change",
        help="a change of light or focus made to every frame (vision.eval.photo_changes: warm, cool, defocus, "
        "shake, noise, jpeg-15, dark, bright, hazy)",
    )
    parser.add_argument(
        "--light-meter",
        type=int,
        metavar="FRAMES",
        help="read each table with a light meter, as a live camera's reader, after FRAMES frames of it",
    )
    args = parser.parse_args()
    change = None if args.change is None else pixel_change(args.change)
    if args.opencv_threads is not None:
        cv2.setNumThreads(args.opencv_threads)
    classifier = OnnxTileClassifier(args.model)
    profile = cProfile.Profile() if args.profile else None
    times: list[float] = []
    cpu_times: list[float] = []
    tiles = correct = sideways_right = surely_wrong = doubted_right = 0
    exact = {"ponds": 0, "melds": 0, "hands": 0, "indicators": 0, "whole": 0}
    for index in range(args.tables):
        seed = args.first_seed + index
        options = RenderOptions(style=ArtStyle(args.style), effects=not args.clean, riichi_sticks=args.riichi_sticks)
        table = bench_table(seed, options)
        layout, camera, rendered = table.layout, table.camera, table.rendered
        if change is not None:
            rendered = replace(rendered, image=change(rendered.image, 0.75 * rendered.tile_height_px))
        light = LightMeter() if args.light_meter is not None else None
        reader = TableReader(picked_calibration(camera), classifier, detector=args.detector, light=light)
        for _ in range(args.light_meter or 0):
            reader.read_image(rendered.image)  # the frames the camera saw of this table before
        if profile is not None:
            profile.enable()
        start, cpu_start = time.perf_counter(), time.process_time()
        reading = reader.read_image(rendered.image)
        times.append(time.perf_counter() - start)
        cpu_times.append(time.process_time() - cpu_start)
        if profile is not None:
            profile.disable()
        found = differences(layout, reading)
        for part in ("ponds", "melds", "hands", "indicators"):
            exact[part] += not getattr(found, part)
        exact["whole"] += not found.all
        if args.differences:
            _print_differences(seed, found.all)
        placed = _placed_tiles(reader, rendered)
        tiles += placed[0]
        correct += placed[1]
        sideways_right += placed[2]
        surely_wrong += placed[3]
        doubted_right += placed[4]
    count = args.tables
    print(
        f"table reader: {count} tables, style {args.style}, {'clean' if args.clean else 'camera effects'}, "
        f"{'riichi sticks, ' if args.riichi_sticks else ''}OpenCV threads {cv2.getNumThreads()}"
    )
    print(
        f"frame → reading: median {statistics.median(times) * 1000:.0f} ms, "
        f"p95 {np.percentile(times, 95) * 1000:.0f} ms; "
        f"CPU median {statistics.median(cpu_times) * 1000:.0f} ms, p95 {np.percentile(cpu_times, 95) * 1000:.0f} ms"
    )
    print(
        f"tiles placed on a drawn tile: {tiles}; label right {correct / max(tiles, 1):.4f}; "
        f"read wrong and not marked uncertain {surely_wrong}; read right but marked uncertain {doubted_right}"
    )
    print(f"sideways right {sideways_right / max(tiles, 1):.4f}")
    print(
        "exact per table: "
        + ", ".join(f"{part} {hits / count:.2f}" for part, hits in exact.items() if part != "whole")
        + f"; whole table {exact['whole'] / count:.2f}"
    )
    if profile is not None:
        _print_profile(profile, count)


#: Where a frame's time goes: (what, the function's file ending and name), as cProfile names them.
STAGES = (
    ("top-down view", "seat_view.py", "warp_view"),
    ("felt mask", "tile_mask.py", "view_mask"),
    ("occluders", "occluders.py", "occluder_labels"),
    ("detector and verifier", "learnt.py", "find_in"),
    ("finds re-cut in zones", "reader.py", "_in_zones"),
    ("sideways judge", "sideways_judge.py", "judge"),
    ("finds read, turned, nudged", "tile_lie.py", "settle_lies"),
    ("half-face re-cuts", "tile_phase.py", "rephase"),
    ("seats, rows fitted, nudges", "reader.py", "_fitted"),
    ("gaps cut", "reader.py", "_gaps"),
    ("(the classifier's network, in all)", "classifier.py", "outputs"),
)


def _print_profile(profile: cProfile.Profile, frames: int) -> None:
    """Each stage's time a frame (cumulative, under cProfile), the network runs and crops a frame."""
    # (file, line, function) → (primitive calls, calls, own time, cumulative time, callers)
    stats: dict[tuple[str, int, str], tuple[int, int, float, float, object]] = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    total = sum(row[2] for row in stats.values())
    print(f"where a frame's time goes (under cProfile: {total / frames * 1000:.0f} ms a frame):")
    for what, file, name in STAGES:
        seconds = sum(row[3] for (path, _, function), row in stats.items() if path.endswith(file) and function == name)
        print(f"  {what:36} {seconds / frames * 1000:6.1f} ms  {seconds / total:6.1%}")
    runs = sum(
        row[1] for (_, _, function), row in stats.items() if "onnxruntime" in function and function.endswith(".run>")
    )
    crops = sum(
        row[1] for (path, _, function), row in stats.items() if path.endswith("crops.py") and function == "crop_tile"
    )
    print(f"  network runs {runs / frames:.1f} a frame; crops cut for the verifier and classifier {crops / frames:.0f}")


def _print_differences(seed: int, found: tuple[str, ...]) -> None:
    """One line a table, ``exact`` or what it reads wrong, each difference on its own line."""
    print(f"seed {seed}: {'exact' if not found else f'{len(found)} differences'}")
    for difference in found:
        print(f"  {difference}")


def _placed_tiles(reader: TableReader, rendered: RenderedTable) -> tuple[int, int, int, int, int]:
    """(tiles whose crop's centre lies inside a drawn tile's face, labels right, sideways right,
    labels wrong that the reading does not mark uncertain: what a referee would act on, labels
    right that the reading marks uncertain: what a referee would ask about for nothing)."""
    placed = reader.placed_tiles(rendered.image)
    faces = [(truth, truth.corners.astype(np.float32).reshape(-1, 1, 2)) for truth in rendered.truths]
    count = right = sideways = surely_wrong = doubted = 0
    for tile in placed:
        centre = tile.quad.mean(axis=0)
        for truth, outline in faces:
            if cv2.pointPolygonTest(outline, (float(centre[0]), float(centre[1])), measureDist=False) >= 0:
                count += 1
                right += tile.reading.label == truth.label
                surely_wrong += tile.reading.label != truth.label and not tile.reading.uncertain
                doubted += tile.reading.label == truth.label and tile.reading.uncertain
                sideways += tile.sideways == truth.sideways
                break
    return count, right, sideways, surely_wrong, doubted


if __name__ == "__main__":
    try:
        main()
    except PhotoChangeError as error:
        raise SystemExit(f"bench_table_reader: {error}") from None
