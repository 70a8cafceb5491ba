"""How much wider than its true shape a picture shows each found tile: a small network's look.

A picture squeezed to a square by a data set's export (:mod:`vision.detect.pixel_aspect`) is
read at each common squeeze undone, and one reading is kept. How surely the faces read tells
the squeezes apart poorly where the tiles stand seen from a seat: a face squeezed by 4:3 where
16:9 was undone is a face foreshortened a little more, read as surely (on seat-view renders
squeezed by known factors the surest reading was at the true squeeze about half the time). The
shape of a tile's whole block tells it better: a standing tile shows its face and its top, a
lying one its face and its side, and the two are in proportion only at the true squeeze.

The judge cuts a square of the picture :data:`CONTEXT` tile lengths across about each found
tile, as the picture looks at the pixel aspect tried (its width scaled by it), and a small
network (``vision/training/train_aspect.py``) says how much wider than true the tile shows
there: the logarithm of the stretch, 0 at the true squeeze, ``log(2)`` when the picture is
shown twice as wide as it is. Of readings nearly as sure as the surest, the one whose finds
the judge calls least stretched is kept (:func:`vision.detect.pixel_aspect.detect_any_pixel_aspect`:
alone the judge keeps the true squeeze more often but reads the renders worse, since a squeeze
a little off still reads well there).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from models import MODELS_DIR
from vision.geometry import long_edge
from vision.onnx_models.crop_model import CropModel
from vision.onnx_models.model_file import ModelFileError

DEFAULT_ASPECT_JUDGE: Final = MODELS_DIR / "tile-aspect.onnx"
#: The crop's side in tile lengths (a face's long edge as the tried aspect shows it): the tile's
#: whole block and the felt or neighbours around it.
CONTEXT: Final = 2.0
#: The crop's side in pixels.
INPUT_SIZE: Final = 64


class AspectModelError(ModelFileError):
    """The aspect model file or its metadata is missing, damaged or does not match this code."""


def aspect_crop(
    image: np.ndarray, centre: np.ndarray, tile_long: float, pixel_aspect: float, size: int = INPUT_SIZE
) -> np.ndarray:
    """The square :data:`CONTEXT` × ``tile_long`` across about ``centre`` of ``image`` shown at
    ``pixel_aspect`` (its width scaled by it), as ``size``×``size`` BGR. ``centre`` and
    ``tile_long`` are measured in that widened picture; outside the picture is its mirror."""
    if tile_long <= 0 or pixel_aspect <= 0:
        raise ValueError(f"aspect crop: tile length {tile_long} and pixel aspect {pixel_aspect} must be positive")
    scale = size / (CONTEXT * tile_long)  # crop pixels per widened picture pixel
    # Crop pixel (u, v) = scale · (widened point - centre) + size/2, the widened point (a·x, y).
    to_crop = np.array(
        [
            [pixel_aspect * scale, 0.0, size / 2.0 - centre[0] * scale],
            [0.0, scale, size / 2.0 - centre[1] * scale],
        ],
        np.float64,
    )
    crop = cv2.warpAffine(image, to_crop, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return np.asarray(crop)


def crops_at(image: np.ndarray, quads: Sequence[np.ndarray], pixel_aspect: float) -> np.ndarray:
    """Each found tile's :func:`aspect_crop` at ``pixel_aspect``; ``quads`` are in ``image``'s
    own pixels (as :func:`~vision.detect.pixel_aspect.detect_at_pixel_aspect` gives them)."""
    widened = [np.asarray(quad, np.float64) * (pixel_aspect, 1.0) for quad in quads]
    if not widened:
        return np.zeros((0, INPUT_SIZE, INPUT_SIZE, 3), np.uint8)
    return np.stack([aspect_crop(image, quad.mean(axis=0), long_edge(quad), pixel_aspect) for quad in widened])


class OnnxAspectJudge:
    """Judges found tiles' stretch with the shipped (or a given) ONNX aspect model; safe to share."""

    def __init__(self, model_path: Path = DEFAULT_ASPECT_JUDGE, *, threads: int = 1):
        self.model = CropModel(model_path, "aspect model", AspectModelError, INPUT_SIZE, CONTEXT, threads=threads)
        self.sha256, self.mean, self.std = self.model.sha256, self.model.mean, self.model.std

    def log_stretches(self, crops: np.ndarray) -> np.ndarray:
        """How much wider than true each crop (N×size×size×3 uint8 BGR, :func:`aspect_crop`)
        shows its tile: the natural logarithm of the stretch."""
        return self.model.run(crops)

    def stretches_at(self, image: np.ndarray, quads: Sequence[np.ndarray], pixel_aspect: float) -> np.ndarray:
        """:meth:`log_stretches` of the tiles found at ``pixel_aspect`` (quads in ``image``'s pixels)."""
        return self.log_stretches(crops_at(image, quads, pixel_aspect))


def aspect_judge_option(value: str | None) -> OnnxAspectJudge | None:
    """An ``--aspect-judge`` option: the shipped model when not given, none for 'none' (the
    surest reading alone is kept), else the file named; loaded now."""
    if value is None:
        return OnnxAspectJudge()
    return None if value.strip().lower() == "none" else OnnxAspectJudge(Path(value))
