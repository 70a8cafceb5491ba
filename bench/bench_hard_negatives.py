"""Hard negatives: scenes with no tile in them, where every tile found is a false one.

    .venv/bin/python bench/bench_hard_negatives.py [--scenes 40] [--detector ONNX] [--pixel-aspect auto|1]
        [--backgrounds DIR/leo-miura/labels-held-out.json ...]

Seat-view scenes (``vision.render.seat_view``) drawn without their tiles: felt of several
colours or wood, point sticks, dice, a hand reaching in, and behind the table shelves of book
spines with letters on them and boxes; then the same scenes with a keyboard, an automatic
table's score display or a tray of point sticks lying on the felt as well
(``vision.render.table_things``); then the first scenes again with most spines titled in the
tile art's own characters (一-九, 萬, winds, 中, 發: a tile's ink on no tile). Each goes
through ``jantaku vision detect``'s pipeline with no hint (``photo_reader``: the pixel aspect
chosen unless ``--pixel-aspect`` gives it, read again upright when its rows run askew, the
photograph's rules). Printed: false finds per scene (mean, max), the share of scenes with
none, what the false finds were read as, and the time a scene.

``--backgrounds LABELS`` (repeatable) adds real hard negatives: each labelled photograph's
tile-free rectangle (``vision.eval.background_crops``: felt, desks, book shelves, a table's
centre panel, laps), less those ``models/labels/backgrounds.json`` says show a tile nobody
labelled. The photograph's pixel aspect is chosen as ``vision detect`` chooses it, on the whole
photograph; its rectangle is then read at that aspect like a picture of its own.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from vision.classify.classifier import OnnxTileClassifier
from vision.classify.verifier import verifier_option
from vision.detect.aspect_judge import aspect_judge_option
from vision.detect.photo_reading import photo_reader
from vision.detect.pixel_aspect import parse_pixel_aspect
from vision.detect.still_photo import Detection, ImageReadError, make_finder, read_image
from vision.eval.background_crops import background_crop, load_tiles_seen
from vision.eval.label_file import LabelFileError, load_ignored, load_labels, source_name
from vision.json_file import read_json_object
from vision.onnx_models.model_file import ModelFileError
from vision.render.seat_view import render_seat_view

FIRST_SEED = 2_400_000  # apart from training (5 000 000..), the tests and the other benches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", type=int, default=40)
    parser.add_argument("--detector", type=Path, help="tile detector model (default: shipped)")
    parser.add_argument("--verifier", help="tile verifier model (default: shipped; 'none': keep every find)")
    parser.add_argument("--pixel-aspect", default="auto", help="auto (default), 1, 16:9, ... as vision detect's")
    parser.add_argument("--backgrounds", type=Path, action="append", default=[], help="a held-out label file")
    args = parser.parse_args()
    pixel_aspect = parse_pixel_aspect(args.pixel_aspect)
    classifier = OnnxTileClassifier()
    finder = make_finder("learnt", model=args.detector, verifier=verifier_option(args.verifier))

    judge = aspect_judge_option(None)
    read = photo_reader(classifier, finder, pixel_aspect, judge)
    kinds = (  # what the scenes hold besides the felt and the room; the table's things; the spines' titles
        ("", False, False),
        (" and a keyboard, a score display or a stick tray", True, False),
        (", book spines titled in the tiles' characters", False, True),
    )
    for what, things, glyphs in kinds if args.scenes > 0 else ():
        tally = _Tally()
        for seed in range(FIRST_SEED, FIRST_SEED + args.scenes):
            scene = render_seat_view(seed, tiles=False, table_things=things, spine_glyphs=glyphs)
            started = time.perf_counter()
            tally.add(read(scene.image).detections, started)
        tally.report(
            f"hard negatives: {args.scenes} seat-view scenes without tiles{what} (seeds from {FIRST_SEED}), 960×720"
        )
    whole_photo = photo_reader(classifier, finder, pixel_aspect, judge)
    for path in args.backgrounds:
        source = source_name(read_json_object(path, "labels file", LabelFileError), default=path.parent.name)
        tiles_seen = load_tiles_seen(source)
        labels, ignored = load_labels(path), load_ignored(path)
        tally = _Tally()
        for name, truths in labels.items():
            if name in tiles_seen:
                continue
            photograph = read_image(path.parent / name)
            crop = background_crop(name, photograph.shape[:2], truths, ignored.get(name, ()))
            if crop is None:
                continue
            aspect = whole_photo(photograph).pixel_aspect
            started = time.perf_counter()
            tally.add(photo_reader(classifier, finder, aspect)(crop.cut(photograph)).detections, started)
        tally.report(
            f"real hard negatives: {source}, {tally.scenes} tile-free rectangles of {len(labels)} labelled photographs "
            f"({len(tiles_seen)} showing an unlabelled tile left out)"
        )


class _Tally:
    """False finds over tile-free pictures: how many, what they were read as, the time."""

    def __init__(self) -> None:
        self.counts: list[int] = []
        self.times: list[float] = []
        self.read_as: Counter[str] = Counter()
        self.sure = 0

    @property
    def scenes(self) -> int:
        return len(self.counts)

    def add(self, found: Sequence[Detection], started: float) -> None:
        self.times.append((time.perf_counter() - started) * 1000)
        self.counts.append(len(found))
        self.read_as.update(d.reading.name for d in found)
        self.sure += sum(not d.uncertain for d in found)

    def report(self, title: str) -> None:
        print(title)
        if not self.counts:
            print("no tile-free picture")
            return
        print(
            f"false finds per picture: mean {statistics.mean(self.counts):.2f}, max {max(self.counts)}; "
            f"pictures with none {sum(c == 0 for c in self.counts) / len(self.counts):.2f}; "
            f"{self.sure} of {sum(self.counts)} read as sure"
        )
        print("read as: " + (", ".join(f"{k} ×{v}" for k, v in self.read_as.most_common(8)) or "nothing"))
        print(f"time a picture: median {statistics.median(self.times):.0f} ms")


if __name__ == "__main__":
    try:
        main()
    except (LabelFileError, ModelFileError, ImageReadError) as error:
        raise SystemExit(f"bench_hard_negatives: {error}") from None
