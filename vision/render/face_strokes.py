"""Thicker and thinner strokes: a tile art's symbols drawn bolder or finer, their colours kept.

Tile sets differ in how heavily their symbols are drawn as much as in colour: an engraved
set's characters are fine lines, a cheap set's are fat. :func:`stroke_varied` redraws every
face of a :class:`TileArt` with its ink grown or shrunk by a distance in art pixels (the art is
:data:`ART_SIZE`; a stroke of the regular art is 5-10 of them wide).

A face's ink is what differs from its body: the body colour is the median of the face's rim
(symbols are drawn inside a margin; faces such as 9p are mostly ink), and a pixel is ink by
its Lab distance from it, soft between two thresholds, so that antialiased edges stay soft.
The work is done at twice the art's size, so that a change of 1.5 pixels is 1.5 pixels, and
only the difference it makes is scaled back: pixels the change does not reach keep their
exact values.

- Thicker: body pixels within the distance of the ink, and the ink's old soft edge, take the
  colour of the nearest solid ink pixel (a red five's red grows red, a circle's navy ring
  grows navy), except in the middle of a narrow gap between strokes, so that a gap never
  closes to less than :data:`MIN_GAP_PX` (a circle keeps its rings). The face's rim is left
  alone: symbols do not grow onto the tile's edge.
- Thinner: ink pixels within the distance of the body, and the ink's old soft edge, take the
  colour of the nearest clear body pixel (its shading kept), except in the middle of a narrow
  stroke, so that a stroke never thins to less than :data:`MIN_STROKE_PX` and no symbol
  loses a part.
"""

from __future__ import annotations

import functools
from typing import Final

import cv2
import numpy as np

from vision.classify.labels import BACK_LABEL
from vision.render.tile_art import TileArt

#: A stroke thinned to less than this (art pixels) would break apart: its middle is kept.
MIN_STROKE_PX: Final = 1.5
#: Likewise the gaps between strokes (a circle's rings, a character's openings) as they thicken.
MIN_GAP_PX: Final = 1.5
_SUPER: Final = 2  # the work is done at this many times the art's size
_BODY_NEAR: Final = 22.0  # Lab distance from the body colour: below this, body ...
_INK_FAR: Final = 45.0  # ... above this, solid ink; between, an edge's antialiasing
_RIM: Final = 0.05  # the share of the face's width along its edges that is rim, never ink
_OPAQUE: Final = 200  # alpha: pixels of the face at least this opaque are the face
_EDGE_PX: Final = 1.0  # art pixels either side of an ink's edge that are antialiasing, not its colour


@functools.lru_cache(maxsize=8)
def stroke_varied(art: TileArt, change_px: float) -> TileArt:
    """``art`` with every face's strokes ``change_px`` art pixels thicker on each side (negative:
    thinner); the back is left as it is. Cached: a renderer asks for it per table."""
    if change_px == 0:
        return art
    images = tuple(
        image if label == BACK_LABEL else restroked(image, change_px) for label, image in enumerate(art.images)
    )
    return TileArt(art.style, images, red_fives=art.red_fives)


def ink_share(face: np.ndarray) -> float:
    """The share of a face's inner part that is ink (soft edges counted by how much): what
    :func:`restroked` grows or shrinks."""
    inner = _inner(face)
    return float(_inkness(face, inner)[inner].mean()) if inner.any() else 0.0


def restroked(face: np.ndarray, change_px: float) -> np.ndarray:
    """One BGRA uint8 face with its ink ``change_px`` art pixels thicker (negative: thinner)."""
    if change_px == 0:
        return face
    height, width = face.shape[:2]
    big = (width * _SUPER, height * _SUPER)
    inner = _inner(face)
    inkness = _inkness(face, inner)
    if not (inkness > 0.5).any():
        return face  # a bare face (the white dragon of most sets) has nothing to change
    # Nearest, not linear: scaled back by area, the unchanged pixels come back exactly as they were.
    colours = cv2.resize(face[..., :3], big, interpolation=cv2.INTER_NEAREST).astype(np.float32)
    ink_up = cv2.resize(inkness, big, interpolation=cv2.INTER_LINEAR)
    inner_up = cv2.resize(inner.astype(np.uint8), big, interpolation=cv2.INTER_NEAREST) > 0
    ink = ink_up > 0.5
    inside, outside = _distance_to(~ink), _distance_to(ink)  # to the ink's edge, from within and without
    soft = _EDGE_PX * _SUPER  # either side of the edge, colours are blends of ink and body
    reach = abs(change_px) * _SUPER
    if change_px > 0:
        # Everything within reach of the ink but its solid inside, the old soft edge included,
        # is drawn in the ink's own colour; the middles of narrow gaps between strokes stay.
        solid = ink & (inside > soft)
        changed = inner_up & ~solid & (ink | _within_reach(outside, reach, MIN_GAP_PX))
        pure, near = solid, ink
    else:
        # The old soft edge goes with the ink that is taken off; the middles of narrow strokes stay.
        opaque = cv2.resize(face[..., 3], big, interpolation=cv2.INTER_NEAREST) >= _OPAQUE
        clear = ~ink & (outside > soft) & opaque
        changed = (~ink & ~clear & opaque) | (ink & _within_reach(inside, reach, MIN_STROKE_PX))
        pure, near = clear, ~ink & opaque
    if not changed.any() or not near.any():
        return face
    # Each changed pixel takes the colour of the nearest pure one (solid ink, clear body) or,
    # where there is none close by (a hairline, a thin detail inside a symbol), the nearest of
    # the same kind at all.
    redrawn = colours.copy()
    redrawn[changed] = colours.reshape(-1, 3)[_nearest(pure, near, reach + 2 * soft)[changed]]
    difference = cv2.resize(redrawn - colours, (width, height), interpolation=cv2.INTER_AREA)
    bgr = np.clip(face[..., :3].astype(np.float32) + difference, 0, 255).astype(np.uint8)
    return np.dstack([bgr, face[..., 3]])


def _inner(face: np.ndarray) -> np.ndarray:
    """The face's opaque pixels inside its rim (where symbols are drawn)."""
    width = face.shape[1]
    margin = max(1, round(_RIM * width))
    inner = face[..., 3] >= _OPAQUE
    inner[:margin], inner[-margin:], inner[:, :margin], inner[:, -margin:] = False, False, False, False
    return np.asarray(inner)


def _inkness(face: np.ndarray, inner: np.ndarray) -> np.ndarray:
    """0 (body) to 1 (solid ink) per pixel, float32; the rim and transparent pixels are 0."""
    lab = cv2.cvtColor(np.ascontiguousarray(face[..., :3]), cv2.COLOR_BGR2LAB).astype(np.float32)
    if not inner.any():
        return np.zeros(face.shape[:2], np.float32)
    rim = (face[..., 3] >= _OPAQUE) & ~inner
    body = np.median(lab[rim if rim.sum() > 20 else inner], axis=0)
    distance = np.linalg.norm(lab - body, axis=2)
    inkness = np.clip((distance - _BODY_NEAR) / (_INK_FAR - _BODY_NEAR), 0.0, 1.0)
    return np.asarray(np.where(inner, inkness, 0.0), np.float32)


def _distance_to(mask: np.ndarray) -> np.ndarray:
    """Per pixel, the distance (pixels of this image) to the nearest pixel of ``mask``."""
    return np.asarray(cv2.distanceTransform((~mask).astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_5))


def _nearest(pure: np.ndarray, near: np.ndarray, limit: float) -> np.ndarray:
    """Per pixel, the flat index of the nearest pixel of ``pure`` where one is within ``limit``,
    else of the nearest pixel of ``near``."""
    chosen = _nearest_in(near)
    if pure.any():
        distance, nearest_pure = _distance_to(pure), _nearest_in(pure)
        chosen = np.where(distance <= limit, nearest_pure, chosen)
    return np.asarray(chosen)


def _nearest_in(mask: np.ndarray) -> np.ndarray:
    """Per pixel, the flat index of the nearest pixel of ``mask``."""
    _, labels = cv2.distanceTransformWithLabels(
        (~mask).astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_5, labelType=cv2.DIST_LABEL_PIXEL
    )
    # Each pixel of the mask gets a label of its own; map labels back to where they are.
    where = np.zeros(int(labels.max()) + 1, np.int64)
    flat = np.flatnonzero(mask)
    where[labels.reshape(-1)[flat]] = flat
    return np.asarray(where[labels])


def _within_reach(depth: np.ndarray, reach: float, keep_px: float) -> np.ndarray:
    """The pixels of a region that are ``reach`` or less from its edge (``depth``: each one's
    distance to the edge, 0 outside), where the region is narrow leaving a middle of at least
    ``keep_px`` art pixels: a pixel is within reach only up to the region's local half-width
    (the deepest point near it) less half of that."""
    keep = keep_px / 2 * _SUPER
    radius = int(np.ceil(reach + keep))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    half_width = cv2.dilate(depth, disc)
    return np.asarray(depth <= np.minimum(reach, half_width - keep))
