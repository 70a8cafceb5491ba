"""Enrolling a tile set: cut each enrolled tile out of a photo of the sheet, make many slightly
different crops of it, and fit the head on the frozen classifier's features of those crops.

Each crop is cut from the photo itself with its corners moved a little (shift, scale, a turn of
up to 5°) the way the tile finder misplaces them, half of them read upside down, then given a
different brightness, contrast and blur. The figures before and after are measured on fresh
crops of the same kind (another seed), and on the plain crops at the cut corners.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.classify.classifier import OnnxTileClassifier
from vision.classify.crops import crop_tile, turned_half
from vision.classify.labels import LABEL_COUNT
from vision.enrollment.head import EnrolledHead, fit_head
from vision.enrollment.sheet import CutTile

log = logging.getLogger(__name__)

DEFAULT_BLEND = 0.5  # measured: 0.7 read the held-out style as well but the trained one worse
DEFAULT_COPIES = 24  # crops per enrolled tile and orientation
#: What :func:`enroll_tiles` reports as done, in order (a progress bar's steps).
ENROLL_STAGES = ("crops", "features", "fit", "measure")


@dataclass(frozen=True, slots=True)
class Accuracy:
    before: float
    after: float
    crops: int


@dataclass(frozen=True, eq=False)
class Enrollment:
    head: EnrolledHead
    labels: tuple[int, ...]  # the enrolled labels, in sheet order
    fresh: Accuracy  # on new varied crops (another seed) of the enrolled tiles
    plain: Accuracy  # on the crops at the cut corners themselves


def enroll_tiles(
    image: np.ndarray,
    tiles: Sequence[CutTile],
    classifier: OnnxTileClassifier,
    *,
    copies: int = DEFAULT_COPIES,
    blend: float = DEFAULT_BLEND,
    seed: int = 0,
    finished: Callable[[str], None] | None = None,
) -> Enrollment:
    """Fit a head for ``tiles``; ``finished`` is told each of the :data:`ENROLL_STAGES` as it is done."""
    done = finished if finished is not None else (lambda _stage: None)
    if not tiles:
        raise ValueError("no tiles to enroll: every cell of the sheet is empty")
    if not classifier.has_features:
        raise ValueError("this classifier model has no features output; enrollment needs one")
    crops, targets = varied_crops(image, tiles, copies, np.random.default_rng(seed))
    done("crops")
    _, features = classifier.outputs(crops, features=True)
    assert features is not None
    done("features")
    head = fit_head(features, targets, blend=blend)
    done("fit")
    fresh_crops, fresh_targets = varied_crops(image, tiles, max(4, copies // 4), np.random.default_rng(seed + 1))
    fresh = measure(classifier, head, fresh_crops, fresh_targets % LABEL_COUNT)
    plain = np.stack([crop_tile(image, tile.corners) for tile in tiles])
    labels = np.array([tile.label for tile in tiles])
    result = Enrollment(head, tuple(int(v) for v in labels), fresh, measure(classifier, head, plain, labels))
    done("measure")
    log.info("enrolled %d tiles: fresh crops %.3f -> %.3f", len(tiles), fresh.before, fresh.after)
    return result


def measure(classifier: OnnxTileClassifier, head: EnrolledHead, crops: np.ndarray, labels: np.ndarray) -> Accuracy:
    """Label accuracy (38 labels) of the base model and of the model with ``head``, each read as
    ``OnnxTileClassifier.classify`` reads (the red 5m's colour rule after the network)."""
    base, features = classifier.outputs(crops, features=True)
    assert features is not None
    before = np.array([r.label for r in classifier.crop_readings(crops, base)])
    after = np.array([r.label for r in classifier.crop_readings(crops, head.blended(base, features))])
    return Accuracy(float((before == labels).mean()), float((after == labels).mean()), len(labels))


def varied_crops(
    image: np.ndarray, tiles: Sequence[CutTile], copies: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """``copies`` crops of each tile read upright and as many upside down; targets are the
    model's outputs (label, plus 38 when upside down)."""
    crops, targets = [], []
    for tile in tiles:
        for turned in (False, True):
            for _ in range(copies):
                corners = moved_corners(tile.corners, rng)
                crop = crop_tile(image, turned_half(corners) if turned else corners)
                crops.append(relit(crop, rng))
                targets.append(tile.label + LABEL_COUNT * turned)
    return np.stack(crops), np.array(targets, np.int64)


def moved_corners(corners: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The corners shifted (up to ~6% of the tile's height), scaled (0.94-1.08) and turned (±5°)."""
    height = float(np.linalg.norm(corners[0] - corners[3]))
    centre = corners.mean(axis=0)
    turn = np.deg2rad(rng.uniform(-5, 5))
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    scale = rng.uniform(0.94, 1.08)
    shift = rng.uniform(-0.06, 0.06, size=2) * height
    return np.asarray((corners - centre) @ rotation.T * scale + centre + shift)


def relit(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Another exposure and focus: contrast 0.8-1.2, brightness ±25, a blur of up to 1 pixel."""
    values = np.asarray(crop.astype(np.float32) * rng.uniform(0.8, 1.2) + rng.uniform(-25, 25), np.float32)
    sigma = rng.uniform(0.0, 1.0)
    if sigma > 0.3:
        values = np.asarray(cv2.GaussianBlur(values, (0, 0), sigma), np.float32)
    return np.asarray(np.clip(values, 0, 255).astype(np.uint8))
