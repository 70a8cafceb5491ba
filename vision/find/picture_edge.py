"""Where a picture ends inside its frame.

A frame need not be a picture to its edges: a photograph turned or straightened in an editor,
a phone's picture letterboxed into a video frame, a 4:3 broadcast pillarboxed in 16:9 all leave
a flat black fill beyond the picture's own edge. A tile that picture's edge cuts is as cut as
one the frame's edge cuts, and the finder drops it alike: what the edge leaves of the books on
a shelf behind the felt reads as a row of tiles' faces. (On the held-out Japanese photographs
turned 20° or leaning back, three false finds in four touched the fill, two real tiles in a
thousand; ``docs/vision-history.md``.)

The fill is what is black in every channel (:data:`FILL_AT_MOST`), seen at every
:data:`FILL_STRIDE`-th pixel, in pieces of at least :data:`FILL_LEAST_SHARE` of the frame that
lie where nothing but a picture's edge leaves black: each reaches two or more of the frame's
sides (a corner's wedge, a bar from side to side, the U a picture leaning back leaves) and lies
beyond the convex hull of the rest of the frame (:data:`FILL_OUTSIDE_AT_LEAST`), since a picture
warped or turned is a convex quadrilateral. Black that is part of the scene is a notch in the
picture instead: in the held-out photographs, a gap between books under the frame's top edge and
a black sleeve or lap along the bottom, which a first rule of black alone took for fill.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

from vision.find.finder import FindResult
from vision.find.seams import TileSize

#: A fill pixel's brightest channel is at most this (a warp's fill is 0; a JPEG's bars a few).
FILL_AT_MOST: Final = 6
#: The fill is looked for at every this many pixels each way (at 1920×1080: a frame with no
#: black at its edge 0.05 ms, from the edge's samples alone; one turned 20° about 5 ms).
FILL_STRIDE: Final = 4
#: One piece of black touching the frame's edge is fill when it covers at least this share of
#: the frame (a 1920×1080 frame's 4 000 pixels: a bar 2 px wide along a long side is not).
FILL_LEAST_SHARE: Final = 0.002
#: A piece of fill lies at least this share outside the convex hull of the rest of the frame:
#: the picture a warp or a turn leaves is a convex quadrilateral, and its fill lies beyond it.
FILL_OUTSIDE_AT_LEAST: Final = 0.9
#: A find is looked at this far beyond its own outline (a share of its size from its centre):
#: the picture's edge that cuts a spine's top cuts the find's box a little way above it.
CUT_REACH: Final = 0.15
#: Points looked at along each side of a find's grown outline.
_POINTS_A_SIDE: Final = 16


@dataclass(frozen=True, slots=True)
class PictureFill:
    """The fill beyond a picture's edge inside its frame, seen at every ``stride``-th pixel."""

    mask: np.ndarray  # bool, ceil(H / stride) × ceil(W / stride): True where the frame is fill
    stride: int

    def cuts(self, faces: np.ndarray) -> np.ndarray:
        """Whether the fill reaches each face (N×4×2 frame pixels) or :data:`CUT_REACH` of it
        beyond its outline: a bool per face."""
        faces = np.asarray(faces, np.float64).reshape(-1, 4, 2)
        if not len(faces):
            return np.zeros(0, bool)
        middle = faces.mean(axis=1, keepdims=True)
        grown = middle + (faces - middle) * (1.0 + CUT_REACH)
        steps = np.linspace(0.0, 1.0, _POINTS_A_SIDE, endpoint=False)[None, None, :, None]
        starts = grown[:, :, None, :]
        ends = np.roll(grown, -1, axis=1)[:, :, None, :]
        points = (starts + (ends - starts) * steps).reshape(len(faces), -1, 2)
        height, width = self.mask.shape
        columns = np.clip(np.round(points[:, :, 0] / self.stride).astype(np.intp), 0, width - 1)
        lines = np.clip(np.round(points[:, :, 1] / self.stride).astype(np.intp), 0, height - 1)
        return np.asarray(self.mask[lines, columns].any(axis=1))


def picture_fill(image: np.ndarray) -> PictureFill | None:
    """The fill beyond the picture's own edge in a BGR (or grey) frame; None where there is
    none (a camera's frame, a photograph as taken: the usual case, settled from the frame's
    edge alone)."""
    seen = image[::FILL_STRIDE, ::FILL_STRIDE]
    # The frame's edge first, alone: most frames have no black there and are settled by it.
    edge = (seen[0], seen[-1], seen[:, 0], seen[:, -1])
    colour = image.ndim == 3
    if not any(_black(side, colour).any() for side in edge):
        return None
    black = _black(seen, colour)
    count, pieces, stats, _ = cv2.connectedComponentsWithStats(black.view(np.uint8), connectivity=8)
    height, width = black.shape
    least = FILL_LEAST_SHARE * height * width
    fill = np.zeros(count, bool)
    for piece in range(1, count):
        left, top, wide, tall, area = (int(v) for v in stats[piece])
        sides = (left == 0) + (top == 0) + (left + wide == width) + (top + tall == height)
        fill[piece] = sides >= 2 and area >= least and _beyond_a_convex_picture(pieces == piece)
    if not fill.any():
        return None
    return PictureFill(fill[pieces], FILL_STRIDE)


def _black(pixels: np.ndarray, colour: bool) -> np.ndarray:
    """Where pixels (BGR in the last axis where ``colour``, else grey) are black in every channel."""
    return np.asarray((pixels.max(axis=-1) if colour else pixels) <= FILL_AT_MOST)


def _beyond_a_convex_picture(piece: np.ndarray) -> bool:
    """Whether a piece of black (a bool mask over the frame) lies beyond the convex hull of the
    rest of the frame, as the fill beyond a warped or turned picture does; black in the scene
    (a gap between books, a dark sleeve) is a notch in the picture, inside that hull."""
    rest = (~piece).view(np.uint8)
    outlines, _ = cv2.findContours(rest, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not outlines:
        return False  # a frame black all over: no picture for the black to lie beyond
    hull = np.zeros(piece.shape, np.uint8)
    cv2.fillPoly(hull, [cv2.convexHull(np.concatenate(outlines))], 1)
    inside = int(np.count_nonzero(piece & hull.view(bool)))
    return inside <= (1.0 - FILL_OUTSIDE_AT_LEAST) * int(np.count_nonzero(piece))


def clear_of_picture_edge(image: np.ndarray, found: FindResult) -> FindResult:
    """``found`` less the tiles the picture's own edge cuts where it ends inside the frame
    (:func:`picture_fill`), their typical size taken again. The learnt finder drops them after
    its own choices (where its pyramids start, which finds stand alone), not inside its looks: so
    it drops tiles and changes nothing else. Dropped inside each look, the cut finds had set no
    pyramid's start, and on a tile-free shelf of spines read again turned (a canvas with black
    corners) the starts left found more spines: 34 false finds on the held-out Japanese
    photographs' 66 tile-free rectangles against 21, dropped after them 23."""
    fill = picture_fill(image)
    if fill is None or not found.tiles:
        return found
    cut = fill.cuts(np.stack([np.asarray(t.corners, np.float64) for t in found.tiles]))
    if not cut.any():
        return found
    kept = tuple(tile for tile, dropped in zip(found.tiles, cut, strict=True) if not dropped)
    if not kept:
        return FindResult((), None)
    corners = np.stack([np.asarray(t.corners, np.float64) for t in kept])
    # Portrait order: the first edge is the face's short one, the last its long one.
    short = np.linalg.norm(corners[:, 1] - corners[:, 0], axis=1)
    long = np.linalg.norm(corners[:, 3] - corners[:, 0], axis=1)
    return FindResult(kept, TileSize(float(np.median(short)), float(np.median(long))))
