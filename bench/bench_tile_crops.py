"""The tile classifier on crops of single real tiles, per source: 34-kind accuracy and red fives.

    .venv/bin/python bench/bench_tile_crops.py --repo DIR [--source mleague-crops] [--model ONNX] [--enroll N]
        [--rows N]

``DIR`` is a checkout of the source's repository at the commit ``vision.eval.crop_set.CROP_SOURCES``
names (``models/DATA.md``: ``mleague-crops`` is takahasiyouhei/majon-tile-detection, tiles of a
Japanese set with red fives cut from broadcast frames; measured on, never trained on). Every
crop is read as the classifier reads a found tile, the whole crop its quad (no detector).
Prints 34-kind accuracy, red-five recall per suit (red fives read red), plain fives read red,
readings marked uncertain, the commonest confusions, the time a crop, and how many white
dragons read right and sure the live table reader would still call uncertain
(``vision.live.table_reader.washed_out``). ``--enroll N`` enrolls the set (``jantaku vision
enroll``'s head, fitted on the first N crops of each tile laid side by side on one picture)
and prints the figures of the other crops before and after. ``--rows N``
goes through ``jantaku vision enroll --layout rows`` as a user would: the first crop of each tile
laid out in the documented rows on felt (scaled to 84 px, ``crop_set.rows_picture``) is the photo
enrolled from, found by the detector and cut by the layout; the next N crops of each tile, laid
out the same way, are N second photos, each read before and after at the layout's cuts.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from vision.classify.classifier import DEFAULT_MODEL, OnnxTileClassifier, TileReading
from vision.classify.crops import crop_tile
from vision.classify.labels import WHITE_DRAGON_LABEL
from vision.detect.still_photo import detect_tiles
from vision.enrollment.enroll import enroll_tiles, measure
from vision.enrollment.rows import LayoutError, cut_row_layout
from vision.eval.crop_set import (
    CROP_SOURCES,
    CropScore,
    CropSetError,
    LabelledCrop,
    enroll_on_crops,
    rows_picture,
    score_crops,
    source_crops,
    split_for_enrollment,
)
from vision.live.table_reader.washed_out import BLANK_SURE_FROM, blank_doubted
from vision.onnx_models.model_file import ModelFileError


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", type=Path, required=True, help="checkout of the source's repository")
    parser.add_argument("--source", choices=sorted(CROP_SOURCES), default="mleague-crops")
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL, help="classifier model (default: shipped)")
    parser.add_argument("--confusions", type=int, default=8, help="how many of the commonest confusions to print")
    parser.add_argument("--enroll", type=int, default=0, metavar="N", help="enroll on the first N crops of each tile")
    parser.add_argument("--rows", type=int, default=0, metavar="N", help="enroll from a rows photo, check on N more")
    args = parser.parse_args()
    try:
        classifier = OnnxTileClassifier(args.model)
        source = CROP_SOURCES[args.source]
        every_crop = crops = source_crops(source, args.repo)
        enrolled: Sequence[LabelledCrop] = ()
        if args.enroll:
            enrolled, crops = split_for_enrollment(every_crop, args.enroll)
        readings: list[TileReading] = []  # each crop's, in the crops' order, as score_crops reads them

        def classify(picture: np.ndarray, quads: list[np.ndarray]) -> Sequence[TileReading]:
            read = classifier.classify_quads(picture, quads)
            readings.extend(read)
            return read

        started = time.perf_counter()
        score = score_crops(crops, classify)
        elapsed = time.perf_counter() - started
        print(f"{source.name} ({source.repo} @ {source.commit}): {score.crops} crops, classifier {args.model.name}")
        _print_score("as shipped" if args.enroll else "", score, args.confusions)
        print(f"{elapsed * 1000 / max(score.crops, 1):.1f} ms a crop (read one at a time)")
        _print_blank_doubts(crops, readings)
        if enrolled:
            classifier.enrollment = enroll_on_crops(enrolled, classifier).head
            after = score_crops(crops, classifier.classify_quads)
            _print_score(f"enrolled on {len(enrolled)} crops ({args.enroll} of each tile)", after, args.confusions)
        if args.rows:
            # A classifier of its own: the one above may carry the --enroll head.
            _rows_enrollment(every_crop, args.rows, OnnxTileClassifier(args.model))
    except (CropSetError, ModelFileError, ValueError) as error:
        raise SystemExit(f"bench_tile_crops: {error}") from None


def _rows_enrollment(crops: Sequence[LabelledCrop], checks: int, classifier: OnnxTileClassifier) -> None:
    """Enroll from the rows photo of each tile's first crop; read the next ``checks`` photos."""
    by_label: dict[int, list[LabelledCrop]] = {}
    for crop in crops:
        by_label.setdefault(crop.label, []).append(crop)
    photos, refused = [], 0
    for index in range(checks + 1):
        picture, _ = rows_picture([found[index] for found in by_label.values() if index < len(found)], seed=index)
        try:
            photos.append((picture, cut_row_layout([d.corners for d in detect_tiles(picture, classifier)])))
        except LayoutError as error:
            print(f"rows photo {index}: refused: {error}")
            refused += 1
            if index == 0:
                return
    started = time.perf_counter()
    image, tiles = photos[0]
    head = enroll_tiles(image, tiles, classifier).head
    elapsed = time.perf_counter() - started
    print(
        f"rows layout: {len(photos)} of {checks + 1} photos accepted ({refused} refused); enrolled in {elapsed:.1f} s"
    )
    checked = [(picture, tile) for picture, cut in photos[1:] for tile in cut]
    if checked:
        cuts = np.stack([crop_tile(picture, tile.corners) for picture, tile in checked])
        read = measure(classifier, head, cuts, np.array([tile.label for _, tile in checked]))
        figures = f"before {read.before:.3f}, after {read.after:.3f}"
        print(f"second photos' label accuracy (38), {read.crops} tiles: {figures}")
    else:
        print("second photos' label accuracy (38): no second photo accepted")


def _print_blank_doubts(crops: Sequence[LabelledCrop], readings: Sequence[TileReading]) -> None:
    """How many white dragons read right and sure the live table reader would still doubt
    (``vision.live.table_reader.washed_out``: a washed-out back or face reads as one);
    ``readings``: the crops' own, in their order."""
    sure = doubted = 0
    for crop, reading in zip(crops, readings, strict=True):
        if crop.label == reading.label == WHITE_DRAGON_LABEL and not reading.uncertain:
            sure += 1
            doubted += blank_doubted(reading).uncertain
    print(f"white dragons read right and sure: {sure}; of them doubted by the table reader "
          f"(below {BLANK_SURE_FROM}): {doubted}")  # fmt: skip


def _print_score(title: str, score: CropScore, confusions: int) -> None:
    if title:
        print(f"{title}:")
    reds = ", ".join(f"{name} {found}/{count}" for name, (found, count) in sorted(score.reds_by_suit.items()))
    print(f"34-kind {score.kind_accuracy:.3f} ({score.kind_right}/{score.crops}); uncertain {score.uncertain}")
    print(f"red fives read red {score.reds_read_red}/{score.reds} ({reds}); plain fives read red "
          f"{score.plain_fives_read_red}/{score.plain_fives}")  # fmt: skip
    common = ", ".join(f"{truth} → {read} ×{n}" for (truth, read), n in score.confusions.most_common(confusions))
    print(f"commonest confusions: {common or 'none'}")


if __name__ == "__main__":
    main()
