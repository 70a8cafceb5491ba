"""Held-out real photographs read again after a change of camera, light or file.

    .venv/bin/python bench/bench_photo_changes.py --labels DIR/leo-miura/labels-held-out.json \\
        --labels DIR/alanchoi/labels-held-out.json [--change NAME ...] [--limit N]

A held-out source is one camera, one light and one export; a source never seen (a table's
camera, another data set) differs in all three. Each change of :mod:`vision.eval.photo_changes`
(turned a quarter, upside down or 20°; a more oblique camera; half or twice the pixels; a
camera closer, the middle half at three times the pixels; a wider view; a camera farther, a
quarter of the pixels among mirror images; defocus, shake, sensor noise, JPEG at quality 15; a
third or twice the light; warm or cool light; glare) is made to every photograph, its labels
moved along, and the picture read as ``jantaku vision detect`` reads it (no hint; the pixel
aspect chosen as for any square picture). Per source and change: recall, precision, 34-kind
accuracy, how many upright tiles were called sideways (where marked), and the time a picture.
Matching is ``vision eval``'s (centre within 0.4 tile widths, box IoU ≥ 0.3).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.classify.classifier import DEFAULT_MODEL, OnnxTileClassifier
from vision.classify.verifier import verifier_option
from vision.detect.aspect_judge import aspect_judge_option
from vision.detect.photo_reading import photo_reader
from vision.detect.pixel_aspect import parse_pixel_aspect
from vision.detect.still_photo import ImageReadError, make_finder, read_image
from vision.eval.label_eval import outside_ignored, tile_width
from vision.eval.label_file import LabelFileError, load_ignored, load_labels
from vision.eval.matching import DetectionScore
from vision.eval.photo_changes import PhotoChangeError, photo_changes, restoring
from vision.onnx_models.model_file import ModelFileError


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--labels", type=Path, action="append", required=True, help="a held-out label file")
    parser.add_argument("--change", action="append", help="a change to make (default: every one); repeat")
    parser.add_argument("--limit", type=int, help="read only the first N photographs of each source")
    parser.add_argument("--detector", type=Path, help="tile detector model (default: shipped)")
    parser.add_argument("--verifier", help="tile verifier model (default: shipped; 'none': keep every find)")
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL, help="classifier model (default: shipped)")
    parser.add_argument("--iou", type=float, default=0.3)
    parser.add_argument(
        "--restore",
        help="a known pixel aspect (e.g. 16:9) to restore before the changes: each picture is then read as a "
        "camera's frame, at square pixels",
    )
    args = parser.parse_args()

    changes = photo_changes(args.change)
    restored = restoring(parse_pixel_aspect(args.restore)) if args.restore else None
    classifier = OnnxTileClassifier(args.model)
    finder = make_finder("learnt", None, args.detector, verifier_option(args.verifier))
    read = photo_reader(classifier, finder, None, aspect_judge_option(None))

    print(f"{'source':<28} {'change':<13} {'imgs':>4} {'tiles':>6} {'recall':>7} {'prec':>7} {'kind34':>7} "
          f"{'up→side':>9} {'ms/img':>7}")  # fmt: skip
    for path in args.labels:
        labels = load_labels(path)
        ignored = load_ignored(path)
        names = list(labels)[: args.limit] if args.limit else list(labels)
        photos = {name: read_image(path.parent / name) for name in names}
        tiles = {name: labels[name] for name in names}
        boxes = {name: ignored.get(name, ()) for name in names}
        if restored is not None:
            for name in names:
                whole = restored.apply(photos[name], tiles[name], boxes[name])
                photos[name], tiles[name], boxes[name] = whole.image, whole.tiles, whole.ignored
        for change in changes:
            score = DetectionScore()
            started = time.perf_counter()
            for name, image in photos.items():
                changed = change.apply(image, tiles[name], boxes[name])
                found = outside_ignored(read(changed.image).detections, changed.ignored)
                score.add(changed.tiles, found, tile_width(changed.tiles), args.iou)
            ms = (time.perf_counter() - started) * 1000 / max(len(photos), 1)
            upright = f"{score.upright_called_sideways}/{score.upright_truths}" if score.upright_truths else "—"
            print(f"{path.parent.name + '/' + path.name:<28} {change.name:<13} {len(photos):>4} {score.truths:>6} "
                  f"{score.recall:>7.3f} {score.precision:>7.3f} {score.kind_accuracy:>7.3f} {upright:>9} {ms:>7.0f}",
                  flush=True)  # fmt: skip


if __name__ == "__main__":
    try:
        main()
    except (LabelFileError, ModelFileError, ImageReadError, PhotoChangeError) as error:
        raise SystemExit(f"bench_photo_changes: {error}") from None
