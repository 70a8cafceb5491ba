"""Classifier training crops from real photographs with box labels.

A box (:mod:`vision.training.real_photos`) says which tile it holds but not which short edge
of the face is its top, so a crop is cut upright along the box's long axis and trained on
the label's probability whichever way up it reads (the sum of its two outputs, as the run
time reads them). Only boxes that hug one tile are used: originals, not Roboflow's rotated
copies (their boxes are loose and their faces may be mirrored), and boxes clearly longer
than wide (a near-square box is a tile turned about 45°).

No torch here: the recipe's data and its tests run without the ``train`` extra.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.classify.crops import CROP_SIZE, crop_tile, turned_half
from vision.eval.label_file import label_of_name
from vision.training.dataset import jittered_corners
from vision.training.photo_frames import box_corners, is_loose
from vision.training.real_photos import images_in_split, load_source_labels

log = logging.getLogger(__name__)


@dataclass(frozen=True, eq=False)
class PhotoCrops:
    images: np.ndarray  # N×H×W×3 uint8 BGR at the classifier's crop size
    labels: np.ndarray  # N int64 face labels; which way up is unknown


def photo_crops(labels_path: Path, split: str, seed: int, copies: int = 2, jitter: float = 0.06) -> PhotoCrops:
    """``copies`` jittered crops (each turned half at random) of every tight box in ``split``'s
    originals. A label file that cannot be read raises a ``RealPhotoError`` naming it."""
    document = load_source_labels(labels_path)
    augmented = set(document.get("augmented", ()))
    rng = np.random.default_rng(seed)
    images, labels = [], []
    names = [name for name in images_in_split(document, split) if name not in augmented]
    for name in names:
        image = cv2.imread(str(labels_path.parent / name))
        if image is None:
            raise ValueError(f"{labels_path.parent / name}: not a readable image")
        for index, tile in enumerate(document["images"][name]):
            x0, y0, x1, y1 = (float(v) for v in tile["box"])
            if is_loose((x0, y0, x1, y1)):
                continue
            label = label_of_name(tile["tile"], bool(tile.get("red", False)), f"{labels_path}: {name}[{index}]")
            corners = box_corners((x0, y0, x1, y1))
            for _ in range(copies):
                cut = jittered_corners(corners, rng, jitter)
                images.append(crop_tile(image, turned_half(cut) if rng.random() < 0.5 else cut))
                labels.append(label)
    log.info("%s: %d crops of %d %s images", labels_path, len(images), len(names), split)
    if not images:
        return PhotoCrops(np.empty((0, CROP_SIZE[1], CROP_SIZE[0], 3), np.uint8), np.empty(0, np.int64))
    return PhotoCrops(np.stack(images), np.array(labels, np.int64))
