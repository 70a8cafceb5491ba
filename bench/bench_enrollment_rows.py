"""Enrollment from a phone photo of tiles laid out in rows (``jantaku vision enroll --layout
rows``), on rendered photos of sets in palettes the classifier was not trained on.

    .venv/bin/python bench/bench_enrollment_rows.py [--sets 10]

For each set (a random palette of the regular art): one photo of the rows to enroll from and
a second photo of the same set laid out again to check on. Prints how many photos the layout
accepted (the rest were refused naming the row, as a user would see), the label accuracy on the
second photo before and after enrollment, and the time one enrollment took.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from vision.classify.classifier import OnnxTileClassifier
from vision.classify.crops import crop_tile
from vision.detect.still_photo import detect_tiles
from vision.enrollment.enroll import enroll_tiles, measure
from vision.enrollment.rows import LayoutError, cut_row_layout
from vision.render.enrollment_rows import render_row_layout
from vision.render.tile_palette import palette_of_table

FIRST_SEED = 2_300_000  # apart from training, the other benches and the tests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", type=int, default=10)
    args = parser.parse_args()
    classifier = OnnxTileClassifier()
    accepted = photos = 0
    before, after, times, wrong_places = [], [], [], 0
    for seed in range(FIRST_SEED, FIRST_SEED + args.sets):
        palette = palette_of_table(seed)
        cuts = []
        for photo_seed in (seed, seed + 500_000):
            photos += 1
            rendered = render_row_layout(palette, photo_seed)
            try:
                tiles = cut_row_layout([d.corners for d in detect_tiles(rendered.image, classifier)])
            except LayoutError as error:
                print(f"set {seed} photo {photo_seed}: refused: {error}")
                cuts.append(None)
                continue
            accepted += 1
            wrong_places += sum(
                float(np.linalg.norm(t.corners.mean(axis=0) - truth.corners.mean(axis=0)))
                > 0.5 * float(np.linalg.norm(truth.corners[1] - truth.corners[0]))
                for t, truth in zip(tiles, rendered.truths, strict=True)
            )
            cuts.append((rendered.image, tiles))
        if cuts[0] is None or cuts[1] is None:
            continue
        (image, tiles), (check_image, check_tiles) = cuts
        started = time.perf_counter()
        enrollment = enroll_tiles(image, tiles, classifier)
        times.append(time.perf_counter() - started)
        crops = np.stack([crop_tile(check_image, t.corners) for t in check_tiles])
        accuracy = measure(classifier, enrollment.head, crops, np.array([t.label for t in check_tiles]))
        before.append(accuracy.before)
        after.append(accuracy.after)
        print(f"set {seed}: second photo {accuracy.before:.3f} -> {accuracy.after:.3f}")
    print(f"photos accepted by the layout: {accepted}/{photos}; tiles cut away from their true place: {wrong_places}")
    if before:
        print(
            f"second-photo label accuracy over {len(before)} sets: before {np.mean(before):.4f}, "
            f"after {np.mean(after):.4f}; one enrollment {np.median(times):.1f} s (median)"
        )


if __name__ == "__main__":
    main()
