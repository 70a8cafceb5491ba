"""Hard negatives: scenes with no tile in them, where every tile found is a false one.

    .venv/bin/python bench/bench_hard_negatives.py [--scenes 40] [--detector ONNX] [--pixel-aspect auto|1]

Seat-view scenes (``vision.render.seat_view``) drawn without their tiles: felt of several
colours or wood, point sticks, dice, a hand reaching in, and behind the table shelves of book
spines with letters on them and boxes. Each goes through ``jantaku vision detect``'s pipeline
with no hint (``read_photo``: the pixel aspect chosen unless ``--pixel-aspect`` gives it, finds
far off the typical size dropped). Printed: false finds per scene (mean, max), the share of scenes with none, what
the false finds were read as, and the time a scene.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from pathlib import Path

from vision.classify.classifier import OnnxTileClassifier
from vision.classify.verifier import verifier_option
from vision.detect.photo_reading import read_photo
from vision.detect.pixel_aspect import parse_pixel_aspect
from vision.detect.still_photo import detect_tiles, make_finder
from vision.render.seat_view import render_seat_view

FIRST_SEED = 2_400_000  # apart from training (5 000 000..), the tests and the other benches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", type=int, default=40)
    parser.add_argument("--detector", type=Path, help="tile detector model (default: shipped)")
    parser.add_argument("--verifier", help="tile verifier model (default: shipped; 'none': keep every find)")
    parser.add_argument("--pixel-aspect", default="auto", help="auto (default), 1, 16:9, ... as vision detect's")
    args = parser.parse_args()
    pixel_aspect = parse_pixel_aspect(args.pixel_aspect)
    classifier = OnnxTileClassifier()
    finder = make_finder("learnt", model=args.detector, verifier=verifier_option(args.verifier))
    counts, times = [], []
    read_as: Counter[str] = Counter()
    sure = 0
    for seed in range(FIRST_SEED, FIRST_SEED + args.scenes):
        scene = render_seat_view(seed, tiles=False)
        started = time.perf_counter()
        found = read_photo(
            scene.image, lambda image: detect_tiles(image, classifier, finder=finder), pixel_aspect
        ).detections
        times.append((time.perf_counter() - started) * 1000)
        counts.append(len(found))
        read_as.update(d.reading.name for d in found)
        sure += sum(not d.uncertain for d in found)
    print(f"hard negatives: {args.scenes} seat-view scenes without tiles (seeds from {FIRST_SEED}), 960×720")
    print(
        f"false finds per scene: mean {statistics.mean(counts):.2f}, max {max(counts)}; "
        f"scenes with none {sum(c == 0 for c in counts) / len(counts):.2f}; "
        f"{sure} of {sum(counts)} read as sure"
    )
    print("read as: " + (", ".join(f"{k} ×{v}" for k, v in read_as.most_common(8)) or "nothing"))
    print(f"time a scene: median {statistics.median(times):.0f} ms")


if __name__ == "__main__":
    main()
