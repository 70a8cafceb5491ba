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

_OFFSET = 8.0  # added to every channel: keeps near-black pixels' chromaticity from exploding
_MIN_THRESHOLD = 0.035  # chromaticity distance below which a pixel is felt whatever Otsu says
_MAX_THRESHOLD = 0.07  # Otsu on a table of strongly coloured backs would set it too high for ivory tiles
_BRIGHTER = 1.8  # a light tile is at least this much brighter than the felt beside it


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
    distance = _distance_from(image, felt)
    # Dark pixels have noisy chromaticity; a dark grey tile is still far from a saturated felt.
    scaled = np.clip(distance * 400.0, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    threshold = float(np.clip(float(otsu) / 400.0, _MIN_THRESHOLD, _MAX_THRESHOLD))
    mask = ((distance > threshold) | _brightness_differs(image, distance < threshold * 0.6)).astype(np.uint8) * 255
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
    log.debug("felt chromaticity %s, threshold %.3f", np.round(felt, 3), threshold)
    return Foreground(mask, felt, threshold)


def _brightness_differs(image: np.ndarray, surely_felt: np.ndarray) -> np.ndarray:
    """Pixels much brighter than the felt around them (ivory tiles on a greyish felt).

    The felt's brightness is interpolated from pixels that are surely felt by colour, so a
    light gradient across the table does not count.
    """
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    height, width = gray.shape
    scale = 16
    small_gray = cv2.resize(gray, (width // scale + 1, height // scale + 1), interpolation=cv2.INTER_AREA)
    small_felt = cv2.resize(surely_felt.astype(np.float32), small_gray.shape[::-1], interpolation=cv2.INTER_AREA)
    sigma = max(small_gray.shape) / 12
    weight = cv2.GaussianBlur(small_felt, (0, 0), sigma) + 1e-3
    felt_level = cv2.GaussianBlur(small_gray * small_felt, (0, 0), sigma) / weight
    felt_level = cv2.resize(felt_level, (width, height), interpolation=cv2.INTER_LINEAR)
    ratio = (gray + 8.0) / (felt_level + 8.0)
    # Only brighter: darker-than-felt is what shadows are; dark tiles differ from felt by colour.
    return np.asarray(ratio > _BRIGHTER)


def _distance_from(image: np.ndarray, felt: np.ndarray) -> np.ndarray:
    """Per pixel, the distance of its chromaticity from ``felt`` (OpenCV's vectorised ops: this
    runs on every pixel of every frame)."""
    # With v = pixel + offset and s = sum(v): v/s - felt = (I - felt·1ᵀ) v / s, one linear map.
    linear = np.eye(3, dtype=np.float32) - np.outer(felt, np.ones(3)).astype(np.float32)
    affine = np.hstack([linear, (linear @ np.full(3, _OFFSET, np.float32))[:, None]])
    values = image.astype(np.float32)
    difference = cv2.transform(values, affine)
    total = cv2.transform(values, np.array([[1, 1, 1, 3 * _OFFSET]], np.float32))
    squared = cv2.transform(cv2.multiply(difference, difference), np.array([[1, 1, 1]], np.float32))
    return np.asarray(cv2.sqrt(squared) / total)


def _chromaticity(image: np.ndarray) -> np.ndarray:
    values = image.astype(np.float32) + _OFFSET
    return np.asarray(values / values.sum(axis=2, keepdims=True))
