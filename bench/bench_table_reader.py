"""The table reader's figures: rendered 1920×1080 frames of random tables (with added kans,
winning tiles and ura indicators) through near-overhead cameras, calibrated from the table's
corners, read with the shipped ONNX classifier.

    .venv/bin/python bench/bench_table_reader.py [--tables 30] [--style regular|black] [--clean] [--model ONNX]

Prints frame → ``TableReading`` time (median, p95), per-tile classification accuracy and
sideways accuracy (over the tiles the reader placed where a drawn tile lies), and the rate of
tables whose structure is read exactly: per part (ponds with the riichi tile, melds, open
hands with the winning tile, dora and ura) and whole. ``--clean`` renders without camera
effects (no blur, glare, noise or JPEG). Seeds 3 000 000+ are apart from training.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from vision.classify.classifier import DEFAULT_MODEL, OnnxTileClassifier
from vision.live.table_reader import TableReader
from vision.live.table_reader.checking import differences, picked_calibration, random_overhead_camera
from vision.render.layout import random_layout
from vision.render.renderer import RenderedTable, RenderOptions, render_table
from vision.render.tile_art import ArtStyle

FIRST_SEED = 3_000_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--style", choices=[s.value for s in ArtStyle], default=ArtStyle.REGULAR.value)
    parser.add_argument("--clean", action="store_true", help="render without camera effects")
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL, help="classifier model (default: the shipped one)")
    args = parser.parse_args()
    classifier = OnnxTileClassifier(args.model)
    times: list[float] = []
    tiles = correct = sideways_right = 0
    exact = {"ponds": 0, "melds": 0, "hands": 0, "indicators": 0, "whole": 0}
    for index in range(args.tables):
        seed = FIRST_SEED + index
        rng = np.random.default_rng(seed)
        camera = random_overhead_camera(rng)
        layout = random_layout(rng, extras=True)
        options = RenderOptions(style=ArtStyle(args.style), effects=not args.clean, camera=camera)
        rendered = render_table(seed, options, layout)
        reader = TableReader(picked_calibration(camera), classifier)
        start = time.perf_counter()
        reading = reader.read_image(rendered.image)
        times.append(time.perf_counter() - start)
        found = differences(layout, reading)
        for part in ("ponds", "melds", "hands", "indicators"):
            exact[part] += not getattr(found, part)
        exact["whole"] += not found.all
        placed = _placed_tiles(reader, rendered)
        tiles += placed[0]
        correct += placed[1]
        sideways_right += placed[2]
    count = args.tables
    print(f"table reader: {count} tables, style {args.style}, {'clean' if args.clean else 'camera effects'}")
    print(
        f"frame → reading: median {statistics.median(times) * 1000:.0f} ms, "
        f"p95 {np.percentile(times, 95) * 1000:.0f} ms"
    )
    print(f"tiles placed on a drawn tile: {tiles}; label right {correct / max(tiles, 1):.4f}")
    print(f"sideways right {sideways_right / max(tiles, 1):.4f}")
    print(
        "exact per table: "
        + ", ".join(f"{part} {hits / count:.2f}" for part, hits in exact.items() if part != "whole")
        + f"; whole table {exact['whole'] / count:.2f}"
    )


def _placed_tiles(reader: TableReader, rendered: RenderedTable) -> tuple[int, int, int]:
    """(tiles whose crop's centre lies inside a drawn tile's face, labels right, sideways right)."""
    placed = reader.placed_tiles(rendered.image)
    faces = [(truth, truth.corners.astype(np.float32).reshape(-1, 1, 2)) for truth in rendered.truths]
    count = right = sideways = 0
    for tile in placed:
        centre = tile.quad.mean(axis=0)
        for truth, outline in faces:
            if cv2.pointPolygonTest(outline, (float(centre[0]), float(centre[1])), measureDist=False) >= 0:
                count += 1
                right += tile.reading.label == truth.label
                sideways += tile.sideways == truth.sideways
                break
    return count, right, sideways


if __name__ == "__main__":
    main()
