"""Whether each found tile lies across its row (sideways): a second look by a small network.

The detector calls sideways at a single look from its own features, and its axis channels
follow the tiles around a cell, so a riichi discard or a called tile can come out with its
neighbours' axis and the wrong call (``docs/vision.md`` has the figures, ``docs/vision-history.md``
how they got there). The judge looks again at each found tile with its row in view: it cuts a
square of the frame :data:`CONTEXT` tile lengths across around the tile's centre, turned so
that its row's upright axis (the long axis of an upright tile in that row, :func:`row_axes`)
points up, and a small network
(``vision/training/train_sideways.py``) says whether the tile at the centre lies across that
axis. A tile alone, with no row around it, keeps the finder's call: sideways relative to
nothing it can see.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from models import MODELS_DIR
from vision.classify.crops import quarter_turned
from vision.geometry import centre, length, long_edge
from vision.onnx_models.crop_model import CropModel
from vision.onnx_models.model_file import ModelFileError

DEFAULT_JUDGE: Final = MODELS_DIR / "tile-sideways.onnx"
#: The crop's side in tile lengths (a face's long edge): the tile and most of a neighbour each way.
CONTEXT: Final = 2.8
#: The crop's side in pixels.
INPUT_SIZE: Final = 48
#: A tile has a row around it when another found tile's centre lies within this many of the
#: table's tile lengths (a row neighbour lies within 1.25, a tile of the next row within 1.1).
ROW_REACH: Final = 1.6


class SidewaysModelError(ModelFileError):
    """The sideways model file or its metadata is missing, damaged or does not match this code."""


def long_axis_degrees(quad: np.ndarray) -> float:
    """The turn (0-180) of a quad's longer edge clockwise from the image's up."""
    down, across = quad[3] - quad[0], quad[1] - quad[0]
    dx, dy = down if length(down) >= length(across) else across
    return float(np.degrees(np.arctan2(dx, -dy)) % 180.0)


def row_axes(quads: Sequence[np.ndarray], calls: Sequence[bool], tile_long: float) -> tuple[np.ndarray, np.ndarray]:
    """For each tile, its row's upright axis in degrees (0-180) and whether it has a row.

    Each found tile says what its row's axis is (its own long axis, a quarter turned when it
    was called sideways). A tile's row axis is what its neighbours within :data:`ROW_REACH`
    tile lengths say, the nearer weighing more (a row's own neighbours lie nearer than another
    seat's tiles at a corner), itself left out (its own call is what is judged), then set
    square to the tile's own edges: the finder places a face's edges well even when it turns
    the face a quarter wrong, so the row axis is the tile's own axis or a quarter from it,
    whichever is nearer. A tile with no neighbour keeps what it says itself."""
    if len(quads) != len(calls):
        raise ValueError(f"{len(quads)} quads but {len(calls)} sideways calls: one each")
    if not quads:
        return np.zeros(0), np.zeros(0, bool)
    own = np.array([long_axis_degrees(q) for q in quads])
    said = own + np.where(np.asarray(calls, bool), 90.0, 0.0)
    doubled = np.radians(2.0 * said)
    centres = np.array([centre(q) for q in quads])
    distances = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2)
    np.fill_diagonal(distances, np.inf)
    has_row = (distances < ROW_REACH * tile_long).any(axis=1)
    weights = np.where(distances < ROW_REACH * tile_long, 1.0 / np.maximum(distances, 1e-6) ** 2, 0.0)
    # Axes are lines, not directions: average the doubled angles' unit vectors.
    mean = np.degrees(np.arctan2(weights @ np.sin(doubled), weights @ np.cos(doubled))) / 2.0
    quarters = np.round((mean - own) / 90.0)
    axes = np.where(has_row, own + 90.0 * quarters, said) % 180.0
    return axes, has_row


def row_crop(
    image: np.ndarray, centre: np.ndarray, row_axis: float, tile_long: float, size: int = INPUT_SIZE
) -> np.ndarray:
    """The square of ``image`` :data:`CONTEXT` × ``tile_long`` pixels across about ``centre``,
    turned so that ``row_axis`` (degrees clockwise from the image's up) points up, as
    ``size``×``size`` BGR."""
    turn = np.radians(row_axis)
    up = np.array([np.sin(turn), -np.cos(turn)])
    right = np.array([np.cos(turn), np.sin(turn)])
    step = CONTEXT * tile_long / size  # image pixels per crop pixel
    half = size / 2.0
    # Crop pixel (x, y) samples the image at centre + step·(x - half)·right - step·(y - half)·up.
    origin = np.asarray(centre, np.float64) - step * half * right + step * half * up
    to_image = np.array(
        [[step * right[0], -step * up[0], origin[0]], [step * right[1], -step * up[1], origin[1]]], np.float64
    )
    crop = cv2.warpAffine(
        image,
        to_image,
        (size, size),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(crop)


def tile_long_of(quads: Sequence[np.ndarray]) -> float:
    """The table's tile length: the median of the quads' longer edges."""
    return float(np.median([long_edge(q) for q in quads]))


class OnnxSidewaysJudge:
    """Judges found tiles with the shipped (or a given) ONNX sideways model; safe to share."""

    def __init__(self, model_path: Path = DEFAULT_JUDGE, *, threads: int = 1):
        self.model = CropModel(model_path, "sideways model", SidewaysModelError, INPUT_SIZE, CONTEXT, threads=threads)
        self.sha256, self.mean, self.std = self.model.sha256, self.model.mean, self.model.std
        self.sideways_above = float(self.model.metadata["sideways_above"])

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """The probability that each crop (N×size×size×3 uint8 BGR, :func:`row_crop`) has a
        tile lying across its row at its centre."""
        logits = self.model.run(crops)
        return np.asarray(1.0 / (1.0 + np.exp(-logits)), np.float32)

    def judge(
        self,
        image: np.ndarray,
        quads: Sequence[np.ndarray],
        calls: Sequence[bool],
        known_axes: Sequence[float] | None = None,
    ) -> tuple[list[np.ndarray], list[bool]]:
        """The found tiles (portrait quads and the finder's sideways calls) with each call the
        model's, for every tile with a row around it, and its quad turned a quarter about its
        centre where its long axis did not follow that call (along its row's axis when upright,
        across it when sideways). ``known_axes``: each tile's row axis where it is known
        without looking (a calibrated table's seat rows), instead of what its neighbours say."""
        if len(quads) != len(calls):
            raise ValueError(f"{len(quads)} quads but {len(calls)} sideways calls: one each")
        if known_axes is not None and len(known_axes) != len(quads):
            raise ValueError(f"{len(quads)} quads but {len(known_axes)} known row axes: one each")
        if not quads:
            return [], []
        tile_long = tile_long_of(quads)
        if known_axes is None:
            axes, has_row = row_axes(quads, calls, tile_long)
        else:
            axes, has_row = np.asarray(known_axes, np.float64) % 180.0, np.ones(len(quads), bool)
        crops = np.stack([row_crop(image, centre(q), a, tile_long) for q, a in zip(quads, axes, strict=True)])
        sideways = self.probabilities(crops) > self.sideways_above
        judged_quads, judged_calls = [], []
        for quad, call, axis, row, verdict in zip(quads, calls, axes, has_row, sideways, strict=True):
            if not row:
                judged_quads.append(quad)
                judged_calls.append(bool(call))
                continue
            # The tile's own long axis must follow the verdict: across its row when sideways.
            wanted = axis + (90.0 if verdict else 0.0)
            off = _axis_gap(long_axis_degrees(quad), wanted) > 45.0
            judged_quads.append(quarter_turned(quad) if off else quad)
            judged_calls.append(bool(verdict))
        return judged_quads, judged_calls


def _axis_gap(a: float, b: float) -> float:
    """The smaller turn (0-90) between two lines at ``a`` and ``b`` degrees."""
    gap = abs(a - b) % 180.0
    return min(gap, 180.0 - gap)
