"""Which pixels are tiles: everything whose colour is not the felt's.

Works on chromaticity (each channel over their sum), which a shadow or a light gradient
leaves alone, so a darker patch of felt is still felt. The felt colour is the image's median
chromaticity: on a photo of a table the felt is most of the picture. Light tiles, dark tiles
and coloured backs all differ from it; a back the colour of the felt would not (tables pair
contrasting colours).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import cv2
import numpy as np

log = logging.getLogger(__name__)

_MIN_THRESHOLD = 0.035  # chromaticity distance below which a pixel is felt whatever Otsu says


@dataclass(frozen=True, eq=False)
class Foreground:
    mask: np.ndarray  # uint8 0/255, tiles
    felt_chromaticity: np.ndarray  # (3,) b, g, r over their sum
    threshold: float


def tile_mask(image: np.ndarray) -> Foreground:
    """The tile mask of a BGR uint8 image."""
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError(f"expected a BGR uint8 image, got shape {image.shape} dtype {image.dtype}")
    small = cv2.resize(image, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA) if image.shape[1] > 800 else image
    felt = np.median(_chromaticity(small).reshape(-1, 3), axis=0)
    distance = np.linalg.norm(_chromaticity(image) - felt, axis=2)
    # Dark pixels have noisy chromaticity; a dark grey tile is still far from a saturated felt.
    scaled = np.clip(distance * 400.0, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    threshold = max(float(otsu) / 400.0, _MIN_THRESHOLD)
    mask = (distance > threshold).astype(np.uint8) * 255
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
    log.debug("felt chromaticity %s, threshold %.3f", np.round(felt, 3), threshold)
    return Foreground(mask, felt, threshold)


def _chromaticity(image: np.ndarray) -> np.ndarray:
    values = image.astype(np.float32) + 8.0  # the offset keeps near-black pixels from exploding
    return np.asarray(values / values.sum(axis=2, keepdims=True))
