"""The six real fixture photographs (tests/vision/data/real-photos) changed as another camera or
light would change them, and scored as ``vision eval`` scores a reading: the shared helper of
the tests of a photograph's second readings (turned, lit, sharpened)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.detect.still_photo import Detection
from vision.eval.label_eval import outside_ignored, tile_width
from vision.eval.label_file import load_ignored, load_labels
from vision.eval.matching import DetectionScore
from vision.eval.photo_changes import PhotoChange

FIXTURE = Path(__file__).resolve().parent / "data" / "real-photos"


def changed_fixture_score(read: Callable[[np.ndarray], Sequence[Detection]], change: PhotoChange) -> DetectionScore:
    """``read`` (a picture → its detections) scored on every fixture photograph after ``change``
    (labels moved along; centre within 0.4 tile widths, box IoU ≥ 0.3)."""
    labels_path = FIXTURE / "labels.json"
    labels, ignored = load_labels(labels_path), load_ignored(labels_path)
    score = DetectionScore()
    for name, tiles in labels.items():
        changed = change.apply(cv2.imread(str(FIXTURE / name)), tiles, ignored.get(name, ()))
        found = outside_ignored(read(changed.image), changed.ignored)
        score.add(changed.tiles, found, tile_width(changed.tiles), 0.3)
    return score
