"""Tile detection on real photographs, per source, with the peer side by side.

    .venv/bin/python bench/bench_real_photos.py --labels DIR/leo-miura/labels-held-out.json \\
        --labels DIR/alanchoi/labels-held-out.json [--detector ONNX] [--model ONNX] [--compare] \\
        [--pixel-aspect auto|1|16:9]

Each ``--labels`` is a label file of photographs never used in training (``models/DATA.md``
says how to build them: ``vision.training.real_photos`` writes ``labels-held-out.json``).
Per source it prints recall, precision, 34-kind accuracy, red-five recall, sideways
recall and how many upright tiles were called sideways (where labelled:
``models/labels/sideways.json``) of ``jantaku vision detect``'s pipeline, with no hint of the tile
size, and with ``--compare`` the PyPI ``mahjong-detector`` (0.0.6) on the same images in
the same run. Both sources' photographs were squeezed to 640×640 by their export: with
``--pixel-aspect auto`` (the default, as ``vision detect``) each is read at the pixel aspect
whose tiles read surest, and the aspects chosen are counted; ``--square`` adds a row read at
square pixels. Matching is ``vision eval``'s: a detection's centre within 0.4 tile widths of
a label's and box IoU at least ``--iou`` (0.3: the labels box the whole visible block, our
quads the face). Last, the time of one 1920×1080 frame (a photograph scaled up), median of
``--repeat`` runs, at square pixels (a camera's frame) and at ``--pixel-aspect``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from vision.classify.classifier import DEFAULT_MODEL, OnnxTileClassifier
from vision.classify.verifier import verifier_option
from vision.detect.aspect_judge import aspect_judge_option
from vision.detect.photo_reading import photo_reader, read_photo
from vision.detect.pixel_aspect import parse_pixel_aspect, pixel_aspect_name
from vision.detect.still_photo import ImageReadError, detect_tiles, make_finder, read_image
from vision.eval.label_eval import score_labelled_images
from vision.eval.label_file import LabelFileError, load_ignored, load_labels
from vision.eval.matching import DetectionScore
from vision.json_file import read_json_object
from vision.onnx_models.model_file import ModelFileError


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--labels", type=Path, action="append", required=True, help="a held-out label file")
    parser.add_argument("--detector", type=Path, help="tile detector model (default: shipped)")
    parser.add_argument("--verifier", help="tile verifier model (default: shipped; 'none': keep every find)")
    parser.add_argument("--aspect-judge", help="aspect model (default: shipped; 'none': the surest reading alone)")
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL, help="classifier model (default: shipped)")
    parser.add_argument("--iou", type=float, default=0.3)
    parser.add_argument("--compare", action="store_true", help="also run the PyPI mahjong-detector")
    parser.add_argument("--repeat", type=int, default=9, help="runs of the 1920×1080 frame to time")
    parser.add_argument("--pixel-aspect", default="auto", help="auto (default), 1, 16:9, ... as vision detect's")
    parser.add_argument("--square", action="store_true", help="also read every photograph at square pixels")
    args = parser.parse_args()

    classifier = OnnxTileClassifier(args.model)
    finder = make_finder("learnt", None, args.detector, verifier_option(args.verifier))
    find_and_read: Callable[[np.ndarray], Sequence[Any]] = lambda image: detect_tiles(image, classifier, finder=finder)  # noqa: E731
    pixel_aspect = parse_pixel_aspect(args.pixel_aspect)
    read = photo_reader(classifier, finder, pixel_aspect, aspect_judge_option(args.aspect_judge))
    aspects: Counter[str] = Counter()

    def ours(image: np.ndarray) -> Sequence[Any]:
        reading = read(image)
        aspects[pixel_aspect_name(reading.pixel_aspect)] += 1
        return reading.detections

    ours_name = f"jantaku, aspect {args.pixel_aspect}"
    detectors: dict[str, Callable[[np.ndarray], Sequence[Any]]] = {ours_name: ours}
    if args.square:
        detectors["jantaku, aspect 1"] = lambda image: read_photo(image, find_and_read, 1.0).detections
    if args.compare:
        import mahjong_detector_runner as peer  # noqa: PLC0415

        reason = peer.available()
        if reason:
            print(f"--compare: {reason}")
        else:
            detectors["mahjong-detector 0.0.6"] = peer.detect_whole

    print(f"{'source':<28} {'detector':<24} {'imgs':>4} {'tiles':>6} {'recall':>7} {'prec':>7} {'kind34':>7} "
          f"{'red5':>11} {'sideways':>11} {'up→side':>9} {'ms/img':>7}")  # fmt: skip
    first_image: np.ndarray | None = None
    for path in args.labels:
        labels = load_labels(path)
        ignored = load_ignored(path)
        if first_image is None and labels:
            first_image = read_image(path.parent / next(iter(labels)))
        for name, detect in detectors.items():
            aspects.clear()
            started = time.perf_counter()
            score, per_image = score_labelled_images(labels, path.parent, detect, args.iou, ignored)
            ms = (time.perf_counter() - started) * 1000 / max(len(per_image), 1)
            print(_row(_source_name(path), name, len(per_image), score, ms, marked=_reds_marked(path)))
            if name == ours_name:
                print(" " * 29 + "pixel aspects chosen: " + ", ".join(f"{a} ×{n}" for a, n in aspects.most_common()))
    if first_image is not None:
        frame = cv2.resize(first_image, (1920, 1080), interpolation=cv2.INTER_LINEAR)
        for name, detect in {"square pixels": find_and_read, f"pixel aspect {args.pixel_aspect}": ours}.items():
            detect(frame)  # warm up
            times = []
            for _ in range(args.repeat):
                started = time.perf_counter()
                detect(frame)
                times.append((time.perf_counter() - started) * 1000)
            print(f"one 1920×1080 frame (a photograph scaled up), {name}: median {statistics.median(times):.0f} ms "
                  f"(min {min(times):.0f}, max {max(times):.0f}, {args.repeat} runs)")  # fmt: skip


def _source_name(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def _reds_marked(path: Path) -> bool:
    """Whether every five of the source was looked at for red (models/labels/red-fives.json)."""
    return bool(read_json_object(path, "labels file", LabelFileError).get("red_fives_marked", False))


def _row(source: str, detector: str, images: int, score: DetectionScore, ms: float, *, marked: bool) -> str:
    # red5: recall where red fives are labelled; on a source looked at and found to have none,
    # how many of its plain fives were read red ("0/47 red"); unknown otherwise.
    if score.red_recall is not None:
        red = f"{score.red_recall:.3f} ({score.red_truths})"
    elif marked:
        red = f"{score.plain_fives_read_red}/{score.plain_fives} red"
    else:
        red = "—"
    # sideways: recall where tiles lying sideways are labelled; up→side: of the matched tiles
    # labelled upright (models/labels/sideways.json), how many were called sideways.
    sideways = f"{score.sideways_recall:.3f} ({score.sideways_truths})" if score.sideways_recall is not None else "—"
    upright = f"{score.upright_called_sideways}/{score.upright_truths}" if score.upright_truths else "—"
    return (
        f"{source:<28} {detector:<24} {images:>4} {score.truths:>6} {score.recall:>7.3f} {score.precision:>7.3f} "
        f"{score.kind_accuracy:>7.3f} {red:>11} {sideways:>11} {upright:>9} {ms:>7.0f}"
    )


if __name__ == "__main__":
    try:
        main()
    except (LabelFileError, ModelFileError, ImageReadError) as error:
        raise SystemExit(f"bench_real_photos: {error}") from None
