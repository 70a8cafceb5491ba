"""Vision figures on a rendered held-out set: the ``black`` tile art, never used in training.

    .venv/bin/python bench/bench_vision.py [--tables 30] [--style black]

Prints detection recall and precision, 34-kind accuracy (the back counted as a 35th class)
with the commonest confusions, sideways accuracy, red-five recall, orientation, the time from
a 1920×1080 frame to detections, and the classifier's time per tile.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

from vision.classifier import DEFAULT_MODEL, OnnxTileClassifier
from vision.crops import crop_tile
from vision.detect import detect_tiles
from vision.evaluation import DetectionScore
from vision.render.renderer import RenderOptions, render_table
from vision.tile_art import ArtStyle

HELD_OUT_FIRST_SEED = 2_000_000  # apart from training (0..) and the training run's own check (1_000_000..)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--style", choices=[s.value for s in ArtStyle], default=ArtStyle.BLACK.value)
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL, help="classifier model (default: the shipped one)")
    args = parser.parse_args()
    classifier = OnnxTileClassifier(args.model)
    options = RenderOptions(size=(1920, 1080), style=ArtStyle(args.style))
    score = DetectionScore()
    frame_ms: list[float] = []
    crops: list[np.ndarray] = []
    for seed in range(HELD_OUT_FIRST_SEED, HELD_OUT_FIRST_SEED + args.tables):
        table = render_table(seed, options)
        started = time.perf_counter()
        detections = detect_tiles(table.image, classifier)
        frame_ms.append((time.perf_counter() - started) * 1000)
        widths = [float(np.linalg.norm(t.corners[1] - t.corners[0])) for t in table.truths]
        score.add(table.truths, detections, float(np.median(widths)) if widths else 1.0)
        crops += [crop_tile(table.image, t.corners) for t in table.truths[:20]]
    print(f"held-out set: {args.tables} tables, style {args.style!r}, 1920×1080, seeds from {HELD_OUT_FIRST_SEED}")
    print(f"tiles in view            {score.truths}")
    print(f"detection recall         {score.recall:.4f}   precision {score.precision:.4f}")
    print(f"34-kind accuracy         {score.kind_accuracy:.4f}   (of matched tiles; back = 35th class)")
    print(f"label accuracy (38)      {score.label_correct / max(score.matched, 1):.4f}")
    sideways = score.sideways_found / max(score.sideways_truths, 1)
    print(
        f"sideways recall          {sideways:.4f}   ({score.sideways_found}/{score.sideways_truths}; "
        f"{score.upright_called_sideways} upright tiles called sideways)"
    )
    red = score.red_found / max(score.red_truths, 1)
    print(f"red-five recall          {red:.4f}   ({score.red_found}/{score.red_truths})")
    print(f"orientation within 20°   {score.angle_within_20 / max(score.matched, 1):.4f}")
    print(f"marked uncertain         {score.uncertain / max(score.matched, 1):.4f}")
    confusions = sorted((score.confusions or {}).items(), key=lambda item: -item[1])[:15]
    print("commonest confusions     " + ", ".join(f"{k} ×{v}" for k, v in confusions))
    tallies = sorted((score.per_kind or {}).items(), key=lambda item: item[1][1] / item[1][0])
    print("per-kind accuracy, worst first (matched tiles):")
    for row in range(0, len(tallies), 7):
        print("  " + "  ".join(f"{k:>4} {c / n:.2f} ({n:3d})" for k, (n, c) in tallies[row : row + 7]))
    print(f"frame → detections       median {statistics.median(frame_ms):.0f} ms, max {max(frame_ms):.0f} ms")
    batch = np.stack(crops)
    classifier.classify(batch[:8])  # warm up
    started = time.perf_counter()
    repeats = 5
    for _ in range(repeats):
        classifier.classify(batch)
    per_tile = (time.perf_counter() - started) * 1000 / (repeats * len(batch))
    started = time.perf_counter()
    for crop in batch[:100]:
        classifier.classify(crop[None])
    single = (time.perf_counter() - started) * 1000 / min(len(batch), 100)
    print(f"classifier               {per_tile:.3f} ms per tile in a batch of {len(batch)}, {single:.3f} ms alone")


if __name__ == "__main__":
    main()
