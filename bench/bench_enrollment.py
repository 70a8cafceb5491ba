"""Tile-set enrollment, before and after, on a style the classifier never saw (``black``).

    .venv/bin/python bench/bench_enrollment.py [--tables 12] [--grid-seed 11] [--style black]

Renders the enrollment sheet with one tile of every label in that style, enrolls it (as
``jantaku vision enroll`` does), then reads held-out tables of the same style: crops at the
exact true corners, and through the detector (finder + classifier). Prints label and kind
accuracy before and after, the commonest misreadings, and the time enrollment took.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np

from vision.classify.classifier import OnnxTileClassifier
from vision.classify.crops import crop_tile
from vision.classify.labels import kind_of_label, label_name
from vision.detect.still_photo import detect_tiles
from vision.enrollment.enroll import DEFAULT_BLEND, enroll_tiles
from vision.enrollment.sheet import cut_enrollment_tiles
from vision.eval.matching import DetectionScore
from vision.render.enrollment_grid import render_enrollment_grid
from vision.render.renderer import RenderOptions, render_table
from vision.render.tile_art import ArtStyle

FIRST_SEED = 2_100_000  # apart from training, its check, bench_vision and the tests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--grid-seed", type=int, default=11)
    parser.add_argument("--style", choices=[s.value for s in ArtStyle], default=ArtStyle.BLACK.value)
    parser.add_argument("--blend", type=float, default=DEFAULT_BLEND, help="the head's share (0.5)")
    args = parser.parse_args()
    style = ArtStyle(args.style)
    classifier = OnnxTileClassifier()
    grid = render_enrollment_grid(style, args.grid_seed)
    started = time.perf_counter()
    tiles = cut_enrollment_tiles(grid.image)
    enrollment = enroll_tiles(grid.image, tiles, classifier, blend=args.blend)
    enroll_s = time.perf_counter() - started
    print(
        f"enrollment: {len(tiles)} tiles cut from the rendered sheet (style {style.value}, "
        f"seed {args.grid_seed}, blend {args.blend:g}) "
        f"in {enroll_s:.1f} s; fresh varied crops {enrollment.fresh.before:.3f} -> {enrollment.fresh.after:.3f}"
    )
    crops, labels = [], []
    scores = {"before": DetectionScore(), "after": DetectionScore()}
    for seed in range(FIRST_SEED, FIRST_SEED + args.tables):
        table = render_table(seed, RenderOptions(size=(1920, 1080), style=style))
        crops += [crop_tile(table.image, t.corners) for t in table.truths]
        labels += [t.label for t in table.truths]
        width = float(np.median([np.linalg.norm(t.corners[1] - t.corners[0]) for t in table.truths]))
        for name, head in (("before", None), ("after", enrollment.head)):
            classifier.enrollment = head
            scores[name].add(table.truths, detect_tiles(table.image, classifier), width)
    classifier.enrollment = None
    truth = np.array(labels)
    stacked = np.stack(crops)
    base, features = classifier.outputs(stacked, features=True)
    assert features is not None
    blended = enrollment.head.blended(base, features)
    read = {  # as classify reads them: the network (and the head), then the red 5m's colour
        "before": np.array([r.label for r in classifier.crop_readings(stacked, base)]),
        "after": np.array([r.label for r in classifier.crop_readings(stacked, blended)]),
    }
    kinds = np.array([kind_of_label(int(v)) for v in truth])
    print(f"held-out tables: {args.tables} at 1920×1080, seeds from {FIRST_SEED}, {len(truth)} tiles in view")
    print(f"{'':44}{'before':>10}{'after':>10}")
    rows = [
        ("true corners: label accuracy (38)", [float((read[n] == truth).mean()) for n in read]),
        (
            "true corners: kind accuracy (34 + back)",
            [float((np.array([kind_of_label(int(v)) for v in read[n]]) == kinds).mean()) for n in read],
        ),
        ("detector: recall", [scores[n].recall for n in scores]),
        ("detector: kind accuracy of found tiles", [scores[n].kind_accuracy for n in scores]),
        ("detector: label accuracy of found tiles", [scores[n].label_accuracy for n in scores]),
    ]
    for title, (before, after) in rows:
        print(f"{title:44}{before:>10.4f}{after:>10.4f}")
    for name in ("before", "after"):
        misses = Counter(f"{label_name(t)}->{label_name(p)}" for t, p in zip(truth, read[name], strict=True) if t != p)
        print(f"true-corner misreadings {name}: " + ", ".join(f"{k} ×{v}" for k, v in misses.most_common(8)))


if __name__ == "__main__":
    main()
