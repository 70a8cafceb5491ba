"""Which pixels of the top-down view are not felt: chromaticity far from the felt's, or much brighter.

The felt is most of the view, so its colour is the view's median. Chromaticity (each channel
over their sum) is what a shadow or a light gradient leaves alone. The distance is computed as
one linear map of the pixel, ``|p - c·sum(p)| / sum(p)``, so the whole view costs a few
vectorised passes; they go a band of lines at a time (``_BAND``), whose arrays stay in the
processor's cache (over the whole view at once each pass went to memory and back, and the
float steps cost about twice as much).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

_OFFSET: Final = 8.0  # keeps near-black pixels' chromaticity from exploding
_MIN_THRESHOLD: Final = 0.035
_MAX_THRESHOLD: Final = 0.07
_NEARBY_PX: Final = 61
_BRIGHTER: Final = 1.6  # ivory tiles on a pale, unsaturated felt differ in brightness, not colour
_PARENT: Final = 3  # where a contour's parent's index lies in its row of findContours' hierarchy
#: Lines of the view a pass goes at a time (``colour_distance``): a multiple of 32.
_BAND: Final = 32


@dataclass(frozen=True, eq=False)
class ViewMask:
    tiles: np.ndarray  # uint8 0/1: not felt, holes that symbols leave filled
    gray: np.ndarray  # uint8
    felt_bgr: np.ndarray  # (3,) float


def view_mask(view: np.ndarray, hole_area: float) -> ViewMask:
    """``hole_area``: the largest enclosed piece of felt-like pixels (px) taken for a symbol, not felt."""
    felt = _felt_colour(view)
    felt_chroma = felt / felt.sum()
    # Rows: the three chromaticity differences times the sum; the offset rides in the last column.
    linear = np.eye(3) - felt_chroma[:, None] * np.ones((1, 3))
    transform = np.hstack([linear, (linear @ np.full(3, _OFFSET))[:, None]]).astype(np.float32)
    spread, total = colour_distance(view, transform)
    sample_distance = spread[::8, ::8] / total[::8, ::8]
    scaled = np.clip(sample_distance * 400.0, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    threshold = np.float32(np.clip(float(otsu) / 400.0, _MIN_THRESHOLD, _MAX_THRESHOLD))
    gray = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)
    coloured = np.empty(view.shape[:2], np.uint8)
    for top in range(0, len(view), _BAND):
        lines = slice(top, top + _BAND)
        cv2.compare(spread[lines], total[lines] * threshold, cv2.CMP_GT, dst=coloured[lines])
    # Ivory faces are much lighter than the felt around them, whatever colour their symbols are
    # (a blue stroke on blue felt): compare with the felt's own light nearby (lamps, glare and
    # the vignette vary it across the table).
    brighter = brighter_than_felt_nearby(gray, np.equal(coloured, 0).view(np.uint8))
    # 0/1 from here: an opening (a minimum, then a maximum) does not care which.
    mask = np.bitwise_and(cv2.bitwise_or(coloured, brighter), np.uint8(1))
    # Dark felt's colour is noisy: speckles a few pixels across are not tiles (a tile is 30 across).
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    return ViewMask(_fill_holes(mask, hole_area), gray, felt - _OFFSET)


def colour_distance(view: np.ndarray, transform: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's ``|p - c·sum(p)|`` summed over the channels (``transform``: the 3×4 map to
    the three differences) and ``sum(p) + 3·offset``, float32, H×W each: a band of lines at a
    time, the very values of one pass over the whole view.

    ``cv2.transform``'s 3×4 map computes the last few pixels of what it is given apart from the
    rest (its vector loop's remainder: the same steps, rounded differently in the last bit). So
    each band is given with the lines after it (at least 64 pixels), and a band whose lines
    reach the view's end begins a multiple of 32 lines in: what is left over at its end is what
    is left over at the view's end. (Its 1×3 and 1×4 maps compute every pixel alike.)"""
    height, width = view.shape[:2]
    spread = np.empty((height, width), np.float32)
    total = np.empty((height, width), np.float32)
    after = -(-64 // width)  # lines enough for the remainder
    for top in range(0, height, _BAND):
        end = min(top + _BAND, height)
        pixels = view[top : min(end + after, height)].astype(np.float32)
        differences = cv2.transform(pixels, transform)[: end - top]
        np.abs(differences, out=differences)
        cv2.transform(differences, _SUMMED, dst=spread[top:end])
        cv2.transform(pixels[: end - top], _TOTAL, dst=total[top:end])
    return spread, total


_SUMMED: Final = np.ones((1, 3), np.float32)  # |p - c·sum(p)|, summed over the channels
_TOTAL: Final = np.array([[1, 1, 1, 3 * _OFFSET]], np.float32)


def _felt_colour(view: np.ndarray) -> np.ndarray:
    """The median BGR of every 8th pixel each way, plus ``_OFFSET`` (float32): the felt's colour.

    Counted from each channel's histogram, not sorted: the same float32 values as
    ``np.median`` of the float32 sample (the mean of the two middle values of an even count)."""
    sample = view[::8, ::8].reshape(-1, 3)
    count = len(sample)
    medians = []
    for channel in range(3):
        ranks = np.cumsum(np.bincount(sample[:, channel], minlength=256))
        low, high = np.searchsorted(ranks, [(count - 1) // 2, count // 2], side="right")
        medians.append((int(low) + int(high)) / 2 + _OFFSET)
    return np.array(medians, np.float32)


def brighter_than_felt_nearby(gray: np.ndarray, felt_like: np.ndarray) -> np.ndarray:
    """1 where a pixel of ``gray`` is more than ``_BRIGHTER`` times the mean of the
    ``felt_like`` (uint8 0/1) pixels in the ``_NEARBY_PX`` box around it, else 0.

    What it decides is the float32 test ``gray > f32(f32(A / max(B, 1e-3)) · 1.6)`` with A and B
    ``cv2.blur``'s float32 means of the felt's gray and of ``felt_like`` (each the box's exact
    sum times 1/61², rounded once). That test is decided exactly from the boxes' integer sums,
    ``5·felts·gray > 8·felt_gray``, wherever that margin is at least 4: the float32 steps
    cannot move the threshold that far (their relative error is under 3e-7, a few 1e-4 of a
    gray level, and a margin of 4 is at least 4/(5·61²) ≈ 2e-4 of a gray level; with fewer
    than 4 felt pixels in the box the 1e-3 floor decides B, so those go the float way too).
    The few pixels nearer a tie are decided by the float32 steps themselves: the mask is the
    float path's, bit for bit (the integer boxes cost less than the float ones). The margins
    are worked out a band of lines at a time (``_BAND``), in the processor's cache."""
    near = (_NEARBY_PX, _NEARBY_PX)
    felts = cv2.boxFilter(felt_like, cv2.CV_32S, near, normalize=False)
    felt_gray = cv2.boxFilter(gray * felt_like, cv2.CV_32S, near, normalize=False)
    height, width = gray.shape
    brighter = np.empty((height, width), np.uint8)
    margin = np.empty((min(_BAND, height), width), np.int32)
    eight_felt_gray = np.empty_like(margin)
    ties = []
    for top in range(0, height, _BAND):
        lines = slice(top, top + _BAND)
        band, eight = margin[: len(brighter[lines])], eight_felt_gray[: len(brighter[lines])]
        np.multiply(felts[lines], gray[lines], out=band)  # 5·felts·gray - 8·felt_gray, 1.6 = 8/5
        band *= 5
        np.left_shift(felt_gray[lines], 3, out=eight)
        band -= eight
        np.greater(band, 0, out=brighter[lines].view(bool))
        # |margin| < 4, as one unsigned comparison: margin + 3 in 0..6.
        band += 3
        tie = np.less(band.view(np.uint32), 7)
        tie |= felts[lines] < 4
        ties.append(np.flatnonzero(tie) + top * width)
    near_tie = np.concatenate(ties)
    if len(near_tie):
        box_area = 1.0 / (near[0] * near[1])
        felt_light = (felt_gray.ravel()[near_tie] * box_area).astype(np.float32) / np.maximum(
            (felts.ravel()[near_tie] * box_area).astype(np.float32), 1e-3
        )
        above = gray.ravel()[near_tie].astype(np.float32) > felt_light * np.float32(_BRIGHTER)
        brighter.ravel()[near_tie] = above
    return brighter


def _fill_holes(mask: np.ndarray, largest: float) -> np.ndarray:
    """Felt-coloured symbols (green bamboo on green felt) leave holes in a tile: fill the small
    pieces of felt that tiles enclose, each a 4-connected piece (tile is 8-connected) of fewer
    than ``largest`` pixels.

    The pieces are found by their edges (``cv2.findContours``), not by labelling every pixel
    of the view, which took ten times as long. Framed in tile, every piece of felt is a hole
    in tile, also one that the view's edge cuts, and each hole's edge is one contour whose
    parent is the edge of the tile around it."""
    framed = cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=1)
    contours, hierarchy = cv2.findContours(framed, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    # A hole's edge has a parent (an outer edge of tile has none).
    holes = [
        c
        for c, links in zip(contours, hierarchy[0] if hierarchy is not None else (), strict=True)
        if links[_PARENT] >= 0
    ]
    boxes = np.array([cv2.boundingRect(contour) for contour in holes], np.int64).reshape(-1, 4)
    filled = np.zeros_like(framed)  # the holes filled, each drawn in the frame's place
    for index, contour in enumerate(holes):
        width, height = (int(value) for value in boxes[index, 2:])
        if width * height < largest:
            # Its box holds fewer pixels than that, so it does: all the felt inside its edge
            # goes, with any felt inside a tile inside it (smaller still: a hole to fill too).
            cv2.drawContours(filled, [contour], -1, 1, thickness=cv2.FILLED)
        elif _least_pixels(framed, boxes, index) < largest:  # else surely large: the felt around the tiles
            _flood_if_small(filled, framed, contour, largest)
    return cv2.bitwise_or(framed, filled)[1:-1, 1:-1]


def _flood_if_small(filled: np.ndarray, framed: np.ndarray, contour: np.ndarray, largest: float) -> None:
    """Sets to 1 in ``filled`` the piece of felt whose edge is ``contour`` (in ``framed``) when
    it has fewer than ``largest`` pixels, counted by flooding it from the felt pixel right of
    where its edge begins: the border follower starts a hole's edge at a tile pixel whose
    right neighbour is the hole's."""
    x, y = (int(value) for value in contour[0, 0])
    flooded = np.zeros((framed.shape[0] + 2, framed.shape[1] + 2), np.uint8)
    area, *_ = cv2.floodFill(framed, flooded, (x + 1, y), 1, flags=4 | cv2.FLOODFILL_MASK_ONLY | (1 << 8))
    if area < largest:
        filled[flooded[1:-1, 1:-1] > 0] = 1


def _least_pixels(framed: np.ndarray, boxes: np.ndarray, index: int) -> int:
    """At least how many pixels hole ``index`` has: the felt in its box, less all that the
    other holes' boxes share with it (every piece of felt is a hole, inside its own box). The
    felt all around the tiles holds far more than a symbol's hole: no flood over the whole
    view is needed to count it."""
    left, top, width, height = (int(value) for value in boxes[index])
    felt = width * height - cv2.countNonZero(framed[top : top + height, left : left + width])
    along = np.minimum(boxes[:, 0] + boxes[:, 2], left + width) - np.maximum(boxes[:, 0], left)
    across = np.minimum(boxes[:, 1] + boxes[:, 3], top + height) - np.maximum(boxes[:, 1], top)
    shared = np.clip(along, 0, None) * np.clip(across, 0, None)
    return felt - int(shared.sum() - shared[index])
