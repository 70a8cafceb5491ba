"""Vision figures on a rendered held-out set: the ``black`` tile art, never used in training.

    .venv/bin/python bench/bench_vision.py [--tables 30] [--style black] [--finder learnt|classic]
                                           [--enrollment FILE] [--judge FILE] [--compare]

Prints detection recall and precision, 34-kind accuracy (the back counted as a 35th class)
with the commonest confusions, sideways accuracy, red-five recall, orientation, the time from
a 1920×1080 frame to detections, and the classifier's time per tile. With ``--compare``, the
PyPI ``mahjong-detector`` package runs on the same frames (whole, as its own entry point does,
and on 480-pixel windows) and a side-by-side table follows: recall (all tiles, face-up tiles,
face-up tiles lying upright), precision, kind accuracy of the face-up tiles found, time.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

from vision.classify.classifier import DEFAULT_MODEL, OnnxTileClassifier
from vision.classify.crops import crop_tile
from vision.classify.verifier import verifier_option
from vision.detect.sideways_judge import OnnxSidewaysJudge
from vision.detect.still_photo import FINDERS, detect_tiles, make_finder, shipped_judge
from vision.eval.matching import DetectionScore
from vision.geometry import angle_difference
from vision.render.renderer import RenderOptions, render_table
from vision.render.tile_art import ArtStyle

HELD_OUT_FIRST_SEED = 2_000_000  # apart from training (0..) and the training run's own check (1_000_000..)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--style", choices=[s.value for s in ArtStyle], default=ArtStyle.BLACK.value)
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL, help="classifier model (default: the shipped one)")
    parser.add_argument("--px-per-mm", default="1.3,2.6", metavar="LO,HI", help="camera scale range (a close-up: 4,5)")
    parser.add_argument("--enrollment", type=Path, help="a tile-set enrollment for the classifier (vision enroll)")
    parser.add_argument("--compare", action="store_true", help="also run the PyPI mahjong-detector, side by side")
    parser.add_argument("--finder", choices=FINDERS, default="learnt", help="how tiles are found (learnt)")
    parser.add_argument("--detector", type=Path, help="tile detector model for --finder learnt (default: shipped)")
    parser.add_argument(
        "--verifier", help="tile verifier for --finder learnt (default: shipped; 'none': keep every find)"
    )
    parser.add_argument("--judge", type=Path, help="sideways judge model (default: shipped)")
    args = parser.parse_args()
    classifier = OnnxTileClassifier(args.model, enrollment=args.enrollment)
    finder = make_finder(args.finder, model=args.detector, verifier=verifier_option(args.verifier))
    judge = OnnxSidewaysJudge(args.judge) if args.judge else shipped_judge()
    finder.find(np.zeros((1080, 1920, 3), np.uint8))  # warm up
    comparison = Comparison() if args.compare else None
    low, high = (float(v) for v in args.px_per_mm.split(","))
    options = RenderOptions(size=(1920, 1080), style=ArtStyle(args.style), px_per_mm=(low, high))
    score = DetectionScore()
    frame_ms: list[float] = []
    find_ms: list[float] = []
    crops: list[np.ndarray] = []
    for seed in range(HELD_OUT_FIRST_SEED, HELD_OUT_FIRST_SEED + args.tables):
        table = render_table(seed, options)
        started = time.perf_counter()
        finder.find(table.image)
        find_ms.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        detections = detect_tiles(table.image, classifier, finder=finder, judge=judge)
        frame_ms.append((time.perf_counter() - started) * 1000)
        widths = [float(np.linalg.norm(t.corners[1] - t.corners[0])) for t in table.truths]
        width = float(np.median(widths)) if widths else 1.0
        score.add(table.truths, detections, width)
        if comparison is not None:
            comparison.add(table.image, table.truths, detections, frame_ms[-1], width)
        crops += [crop_tile(table.image, t.corners) for t in table.truths[:20]]
    print(
        f"held-out set: {args.tables} tables, style {args.style!r}, 1920×1080, {low:g}-{high:g} px/mm, "
        f"seeds from {HELD_OUT_FIRST_SEED}, finder {args.finder!r}"
    )
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
    print(f"orientation within 20°   {score.angle_within_20 / max(score.angle_truths, 1):.4f}")
    print(f"marked uncertain         {score.uncertain / max(score.matched, 1):.4f}")
    confusions = sorted((score.confusions or {}).items(), key=lambda item: -item[1])[:15]
    print("commonest confusions     " + ", ".join(f"{k} ×{v}" for k, v in confusions))
    tallies = sorted((score.per_kind or {}).items(), key=lambda item: item[1][1] / item[1][0])
    print("per-kind accuracy, worst first (matched tiles):")
    for row in range(0, len(tallies), 7):
        print("  " + "  ".join(f"{k:>4} {c / n:.2f} ({n:3d})" for k, (n, c) in tallies[row : row + 7]))
    print(f"frame → detections       median {statistics.median(frame_ms):.0f} ms, max {max(frame_ms):.0f} ms")
    print(f"finding alone            median {statistics.median(find_ms):.0f} ms")
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
    if comparison is not None:
        comparison.print()


class Comparison:
    """jantaku's detector and mahjong-detector's two ways of running, scored by the same matcher."""

    NAMES = ("jantaku", "m-d whole frame", "m-d 480 px windows")

    def __init__(self) -> None:
        from mahjong_detector_runner import available  # noqa: PLC0415 - bench/ sibling, optional package

        missing = available()
        if missing:
            raise SystemExit(f"--compare: {missing}")
        self.all = [DetectionScore() for _ in self.NAMES]
        self.face_up = [DetectionScore() for _ in self.NAMES]
        self.upright = [DetectionScore() for _ in self.NAMES]
        self.ms: list[list[float]] = [[] for _ in self.NAMES]

    def add(self, image: np.ndarray, truths: tuple, ours: tuple, our_ms: float, width: float) -> None:
        from mahjong_detector_runner import detect_whole, detect_windowed  # noqa: PLC0415

        runs: list[tuple[list, float]] = [(list(ours), our_ms)]
        for detect in (detect_whole, detect_windowed):
            started = time.perf_counter()
            found = detect(image)
            runs.append((found, (time.perf_counter() - started) * 1000))
        face_up = [t for t in truths if t.face_up]
        upright = [t for t in face_up if angle_difference(t.angle, 0.0) <= 20 or angle_difference(t.angle, 180.0) <= 20]
        for i, (found, ms) in enumerate(runs):
            self.ms[i].append(ms)
            self.all[i].add(truths, found, width)
            faces = [d for d in found if d.label != 37]  # it has no back class: compare faces with faces
            self.face_up[i].add(face_up, faces, width)
            self.upright[i].add(upright, faces, width)

    def print(self) -> None:
        print()
        print(
            "side by side (m-d: PyPI mahjong-detector 0.0.6; same frames, same matcher: centre within 0.4 tile widths)"
        )
        print(f"{'':34}" + "".join(f"{name:>20}" for name in self.NAMES))
        rows = [
            ("recall, all tiles", [s.recall for s in self.all]),
            ("recall, face-up tiles", [s.recall for s in self.face_up]),
            ("recall, face-up, upright or 180°", [s.recall for s in self.upright]),
            ("precision, all tiles", [s.precision for s in self.all]),
            ("kind accuracy, face-up found", [s.kind_accuracy for s in self.face_up]),
        ]
        for title, values in rows:
            print(f"{title:34}" + "".join(f"{v:>20.3f}" for v in values))
        print(f"{'time per frame, median (ms)':34}" + "".join(f"{statistics.median(m):>20.0f}" for m in self.ms))
        print(
            f"{'tiles (all / face-up / upright)':34}{self.all[0].truths} / {self.face_up[0].truths} / "
            f"{self.upright[0].truths}"
        )


if __name__ == "__main__":
    main()
