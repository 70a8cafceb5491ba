"""The learnt tile finder's input and output conventions, shared by run time and training.

The network sees the frame scaled so that its longer side is ``INPUT_LONG_SIDE`` pixels,
padded (bottom and right, with black pixels) to a multiple of ``PAD_TO``. Its
output grid has one cell per ``STRIDE`` input pixels; per cell it predicts, in this channel
order (:data:`CHANNELS`):

- ``heat``: logit that a tile's face centre lies in this cell;
- ``offset_x``, ``offset_y``: the centre's position relative to the cell's corner, in cells
  (trained on the cells around a centre, so it may leave 0..1);
- ``log_long``, ``log_short``: natural log of the face's long and short edge in input pixels;
- ``cos2``, ``sin2``: cosine and sine of twice the long axis' clockwise turn from the image's
  up (a face's long axis has no head: twice the angle removes the 180° ambiguity; which
  short edge is the top is the classifier's call);
- ``sideways``: logit that the tile lies with its long edge along its row.

No torch here: this module is imported by the ONNX run time and by the training recipe.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

import cv2
import numpy as np

from vision.onnx_models.cpu_session import nchw_input

INPUT_LONG_SIDE: Final = 480
SIDEWAYS_ABOVE: Final = 0.5  # sideways probability above which a tile lies across its row
_ROW_REACH: Final = 1.25  # neighbours in a row lie within this many face lengths, centre to centre
PAD_TO: Final = 8
STRIDE: Final = 2
CHANNELS: Final = ("heat", "offset_x", "offset_y", "log_long", "log_short", "cos2", "sin2", "sideways")
MEAN: Final = 0.5
STD: Final = 0.25


@dataclass(frozen=True, slots=True)
class NetInput:
    """A frame made ready for the network: ``pixels`` (H×W×3 uint8 BGR, padded) and the
    factor from frame pixels to input pixels."""

    pixels: np.ndarray
    scale: float


def input_size(
    height: int, width: int, long_side: int = INPUT_LONG_SIDE
) -> tuple[float, tuple[int, int], tuple[int, int]]:
    """A frame's scale to the network's input, its size scaled (width, height) and padded (height, width)."""
    scale = long_side / max(height, width)
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    return scale, size, (-(-size[1] // PAD_TO) * PAD_TO, -(-size[0] // PAD_TO) * PAD_TO)


def net_input(image: np.ndarray, long_side: int = INPUT_LONG_SIDE, *, columns: int | None = None) -> NetInput:
    """The frame scaled to ``long_side`` on its longer side (area averaging) and padded.

    ``columns``: only the input's columns left of this one are wanted (a window of it,
    ``LearntTileFinder.find_in``); the rest are left black, and the frame's columns right of
    those the wanted ones average are not scaled. ``cv2.resize`` averages each input pixel
    from the frame's pixels under it, laid out from the left by the scale alone (given as
    ``fx``, ``fy``: the very factors a target size gives), so the wanted columns come out as
    they do from the whole frame."""
    height, width = image.shape[:2]
    scale, size, padded = input_size(height, width, long_side)
    pixels = np.zeros((*padded, 3), np.uint8)
    if columns is not None and columns < size[0]:
        # Two frame columns past the last wanted input column's cell: the cells the wanted
        # columns average lie whole inside the part scaled.
        until = min(width, math.ceil((columns + 1) * width / size[0]) + 2)
        part = cv2.resize(image[:, :until], None, fx=size[0] / width, fy=size[1] / height, interpolation=cv2.INTER_AREA)
        if part.shape[0] == size[1] and part.shape[1] >= columns:
            pixels[: size[1], :columns] = part[:, :columns]
            return NetInput(pixels, scale)
    pixels[: size[1], : size[0]] = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return NetInput(pixels, scale)


def normalised(pixels: np.ndarray) -> np.ndarray:
    """N×H×W×3 uint8 BGR → N×3×H×W float32 as the network reads it."""
    return nchw_input(pixels, MEAN, STD)


@dataclass(frozen=True, slots=True)
class Peak:
    """One decoded tile in input pixels: centre, face size, long axis turn and sideways score."""

    centre: tuple[float, float]
    long: float
    short: float
    axis_degrees: float  # clockwise turn of the long axis from the image's up, 0-180
    score: float
    sideways: float


def decode_peaks(output: np.ndarray, threshold: float) -> list[Peak]:
    """Tiles from one frame's output (C×h×w, channels as :data:`CHANNELS`): local maxima of
    the heat map (3×3) above ``threshold`` (a probability)."""
    heat = _sigmoid(output[0])
    local_max = heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero(local_max & (heat > threshold))
    peaks = []
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        cx = (x + float(output[1, y, x])) * STRIDE
        cy = (y + float(output[2, y, x])) * STRIDE
        long, short = float(np.exp(output[3, y, x])), float(np.exp(output[4, y, x]))
        axis = float(np.degrees(np.arctan2(output[6, y, x], output[5, y, x])) / 2.0) % 180.0
        sideways = float(_sigmoid(output[7, y, x]))
        peaks.append(Peak((cx, cy), max(long, short), min(long, short), axis, float(heat[y, x]), sideways))
    return peaks


def turned_across_row(peaks: list[Peak]) -> list[Peak]:
    """The peaks with each sideways tile's long axis set square to its upright neighbours'.

    The network's axis channels follow the tiles around a cell, so a sideways tile in a row
    (a riichi discard, a called tile) comes out with its neighbours' axis; its own sideways
    channel is the better witness: across the row is what sideways means.
    """
    if not peaks:
        return peaks
    centres = np.array([p.centre for p in peaks])
    doubled = np.radians([2 * p.axis_degrees for p in peaks])
    upright = np.array([p.sideways <= SIDEWAYS_ABOVE for p in peaks])
    turned = []
    for i, peak in enumerate(peaks):
        if upright[i]:
            turned.append(peak)
            continue
        near = (np.linalg.norm(centres - centres[i], axis=1) < _ROW_REACH * peak.long) & upright
        if not near.any():
            turned.append(peak)
            continue
        row_axis = np.degrees(np.arctan2(np.sin(doubled[near]).sum(), np.cos(doubled[near]).sum())) / 2
        turned.append(replace(peak, axis_degrees=float(row_axis + 90.0) % 180.0))
    return turned


def portrait_corners(peak: Peak, scale: float) -> np.ndarray:
    """The peak's face as 4×2 frame pixels in portrait order (top-left, top-right,
    bottom-right, bottom-left with the long edges upright; the top may be either short edge)."""
    return np.asarray(portrait_corners_of([peak], scale)[0])


def portrait_corners_of(peaks: Sequence[Peak], scale: float) -> np.ndarray:
    """Each peak's ``portrait_corners`` (N×4×2 float32), all at once: each peak's float64
    steps elementwise, as it takes them alone."""
    turn = np.radians(np.array([peak.axis_degrees for peak in peaks], np.float64))
    sin, cos = np.sin(turn), np.cos(turn)
    up = np.stack([sin, -cos], axis=1)
    right = np.stack([cos, sin], axis=1)
    middle = np.array([peak.centre for peak in peaks], np.float64).reshape(-1, 2)
    half_up = up * np.array([peak.long for peak in peaks], np.float64)[:, None] / 2
    half_right = right * np.array([peak.short for peak in peaks], np.float64)[:, None] / 2
    corners = np.stack(
        [
            middle + half_up - half_right,
            middle + half_up + half_right,
            middle - half_up + half_right,
            middle - half_up - half_right,
        ],
        axis=1,
    )
    return np.asarray(corners.astype(np.float32) / np.float32(scale))


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-x)), np.float32)
