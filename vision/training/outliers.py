"""Crops that are not one tile: what the classifier must call uncertain, not guess.

A finder's false find, a quad cut across a tile's real axis (a sideways tile taken for an
upright one), a quad halfway between two tiles, bare felt, a corrupt frame: trained only on
tiles, a classifier reads any of these as some tile with confidence. Training pushes its
output on them towards the uniform distribution (outlier exposure), so that their
confidence falls below the uncertain threshold and comparing confidences means something.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.classify.crops import CROP_SIZE, crop_tile, quarter_turned
from vision.classify.labels import BACK_LABEL
from vision.render.renderer import TileTruth

TURNED_PER_TABLE = 4
STRADDLING_PER_TABLE = 4
FELT_PER_TABLE = 2


def outlier_crops(image: np.ndarray, truths: tuple[TileTruth, ...], rng: np.random.Generator) -> list[np.ndarray]:
    """Crops of one rendered table that hold no single whole tile: face-up tiles cut a
    quarter-turn across their axis, quads shifted half a tile or more along a row or column,
    and tile-sized patches of felt. Backs are left out of the first two: a wall's backs
    touch, so a quad across them still shows nothing but back."""
    faces = [t for t in truths if t.label != BACK_LABEL]
    if not faces:
        return []
    crops = []
    for index in rng.choice(len(faces), size=min(TURNED_PER_TABLE, len(faces)), replace=False):
        crops.append(crop_tile(image, quarter_turned(faces[index].corners)))
    for index in rng.choice(len(faces), size=min(STRADDLING_PER_TABLE, len(faces)), replace=False):
        crops.append(crop_tile(image, straddling(faces[index].corners, rng)))
    centres = np.array([t.centre for t in truths])
    for _ in range(FELT_PER_TABLE):
        quad = _felt_quad(image.shape, faces[0].corners, centres, rng)
        if quad is not None:
            crops.append(crop_tile(image, quad))
    return crops


def straddling(corners: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The quad moved 0.55-0.7 of a face along its width or its height, either way."""
    step = corners[1] - corners[0] if rng.random() < 0.5 else corners[3] - corners[0]
    return np.asarray(corners + step * rng.uniform(0.55, 0.7) * rng.choice([-1.0, 1.0]))


def noise_crops(count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` crops of pure noise, smooth blotches and flat colours (a corrupt or
    covered frame)."""
    width, height = CROP_SIZE
    crops = np.empty((count, height, width, 3), np.uint8)
    for i in range(count):
        kind = i % 3
        if kind == 0:
            crops[i] = rng.integers(0, 256, size=(height, width, 3))
        elif kind == 1:
            coarse = rng.integers(0, 256, size=(int(rng.integers(2, 7)), int(rng.integers(2, 7)), 3)).astype(np.uint8)
            crops[i] = _smooth(coarse, width, height)
        else:
            crops[i] = np.clip(rng.integers(0, 256, size=3) + rng.normal(0, 6, (height, width, 3)), 0, 255)
    return crops


def _smooth(coarse: np.ndarray, width: int, height: int) -> np.ndarray:
    return np.asarray(cv2.resize(coarse, (width, height), interpolation=cv2.INTER_CUBIC))


def _felt_quad(
    shape: tuple[int, ...], corners: np.ndarray, centres: np.ndarray, rng: np.random.Generator
) -> np.ndarray | None:
    """A tile-shaped quad over bare felt: no tile's centre within a tile's length."""
    length = float(np.linalg.norm(corners[3] - corners[0]))
    height, width = shape[:2]
    for _ in range(20):
        centre = np.array([rng.uniform(length, width - length), rng.uniform(length, height - length)])
        if np.min(np.linalg.norm(centres - centre, axis=1)) > length:
            return np.asarray(corners - corners.mean(axis=0) + centre)
    return None
