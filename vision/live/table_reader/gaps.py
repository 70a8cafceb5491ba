"""Where a zone holds tile but no placed face covers it: faces to cut there and read.

The learnt detector misses about one tile of a table's hundred (a blurred corner of a dense
pond, the turned tile under an added kan's), and a pond one tile short is a wrong pond. The
felt mask says where tiles lie: what of it, inside a seat's zones, no placed face covers is a
gap. Opened by half a face's width (a tile's side, at most 8 mm wide at the table's edge, and
the slivers a face's box leaves along its edges are thinner), each piece of gap at least half
a face in area is cut into faces by its size: as many rows as its depth holds faces' heights,
as many faces along each as its length holds, each face against the row's outer edge (where
a face meets the felt; its side shows on the centre side). A row only a face's width deep
holds sideways faces (a riichi tile, a called tile, an added kan's), and so does a gap in
a meld zone's added row, ending well in from the meld row's outer edge, whatever its depth
(an added tile's side and its parallax on top of the turned tile deepen it). Faces that are not
mostly tile, or have no edges (a lighter patch of felt fades into the felt around it), are
dropped. Faces darker than the placed faces are marked ``dark``: felt in a shadow, or a face in
one, or a dark-bodied face with few marks (a red five); the reader keeps a dark face only where
the classifier reads a face with marks on it, surely. The rest go through the same reading as
the detector's finds: the sideways judge and the classifier settle which way each lies.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

from vision.live.table_reader.outlines import colour_steps
from vision.live.table_reader.seat_tiles import ADDED_IN, FaceScale, Piece

_OPEN: Final = 0.5  # the opening's square, in face widths
_LEAST_AREA: Final = 0.5  # a gap smaller than this many faces' area is no tile
_LEAST_SIDE: Final = 0.7  # ... and one narrower than this many face widths either way
_SOLID: Final = 0.6  # the least part of a face's rectangle that must be tile
#: A face's body (its 80th percentile of grey) under this share of the found faces' own is
#: ``dark``: the felt's darker patches pass the colour test in places, but are no ivory face.
_ALIKE: Final = 0.7
#: A face has edges: the least mean colour step (levels a pixel, ``outlines.colour_steps``) in a
#: band ``_EDGE_BAND`` pixels either side of a gap face's outline. The felt's lighter patches pass
#: the colour test in places, in pieces a face's size, but fade into the felt: on 180 bench
#: tables with camera effects (seeds 3 000 000-089, both styles) the faces cut on them stepped
#: 0.10-0.45, those cut on tiles the detector missed 1.7-16.9.
_EDGE_STEP: Final = 1.0
_EDGE_BAND: Final = 3


@dataclass(frozen=True, slots=True)
class GapFace:
    """A face cut in a gap (seat-image pixels); ``dark``: darker than the found faces (``_ALIKE``)."""

    piece: Piece
    dark: bool


@dataclass(frozen=True, eq=False)
class GapSearch:
    """One zone of one seat's upright image: ``residual`` (uint8 0/1: tile no find covers),
    ``mask`` (uint8 0/1: tile), ``gray`` and ``colour`` (BGR uint8), the part of the seat image whose top-left pixel
    lies at ``origin`` (u, v); ``max_rows``: the most rows the zone holds; ``face_level``: the
    found faces' usual body grey; ``row_edge``: a meld zone's, the line of its part where the
    meld row's faces end (None elsewhere, or where no face of the row was placed)."""

    residual: np.ndarray
    mask: np.ndarray
    gray: np.ndarray
    colour: np.ndarray
    origin: tuple[int, int]
    max_rows: int
    face_level: float
    row_edge: float | None = None


def face_level(gray: np.ndarray, faces: np.ndarray) -> float:
    """The found faces' usual body grey: ``np.percentile(gray[faces > 0], 80)`` (``faces``:
    uint8, nonzero under a placed face, at least one pixel), counted from the grey's histogram
    rather than gathered and partly sorted, then interpolated in numpy's own float64 steps
    (its default method, linear): the same float."""
    counts = cv2.calcHist([gray], [0], faces, [256], [0, 256]).reshape(-1)
    ranks = np.cumsum(counts.astype(np.int64))  # ranks[v]: how many are v or darker
    count = int(ranks[-1])
    place = (count - 1) * np.true_divide(80, 100)  # where the 80th percentile lies, in rank order
    below = int(np.floor(place))
    low, high = (int(np.searchsorted(ranks, min(at, count - 1), side="right")) for at in (below, below + 1))
    weight = float(place - below)
    step = high - low
    # numpy's lerp: from the lower value below half way, from the upper one past it.
    return float(low + step * weight) if weight < 0.5 else float(high - step * (1 - weight))


def gap_faces(search: GapSearch, scale: FaceScale) -> Iterator[GapFace]:
    """Faces (seat-image pixels) for the gaps in a zone: solid tile, with edges; ``dark`` where
    not as light as a face."""
    steps = None  # the zone's colour steps, worked out for its first face that gets that far
    for piece in _gap_pieces(search.residual, search.max_rows, scale, search.row_edge):
        rows = slice(max(round(piece.top), 0), max(round(piece.bottom), 1))
        columns = slice(max(round(piece.left), 0), max(round(piece.right), 1))
        inside = search.mask[rows, columns]
        if not inside.size or float(inside.mean()) < _SOLID:
            continue
        dark = float(np.percentile(search.gray[rows, columns], 80)) < _ALIKE * search.face_level
        if steps is None:
            steps = colour_steps(search.colour)
        if edge_step(steps, piece) < _EDGE_STEP:
            continue
        u, v = search.origin
        yield GapFace(Piece(piece.left + u, piece.right + u, piece.top + v, piece.bottom + v, piece.sideways), dark)


def edge_step(steps: np.ndarray, piece: Piece) -> float:
    """The mean of ``steps`` in the band ``_EDGE_BAND`` pixels either side of ``piece``'s outline
    (clipped to the image; 0 where none of it lies inside)."""
    height, width = steps.shape
    band = _EDGE_BAND

    def box(grow: int) -> tuple[slice, slice]:
        top, bottom = round(piece.top) - grow, round(piece.bottom) + grow
        left, right = round(piece.left) - grow, round(piece.right) + grow
        return slice(min(max(top, 0), height), min(max(bottom, 0), height)), slice(
            min(max(left, 0), width), min(max(right, 0), width)
        )

    outer, inner = steps[box(band)], steps[box(-band)]
    pixels = outer.size - inner.size
    return float((outer.sum() - inner.sum()) / pixels) if pixels > 0 else 0.0


def _gap_pieces(residual: np.ndarray, max_rows: int, scale: FaceScale, row_edge: float | None) -> Iterator[Piece]:
    side = max(round(_OPEN * scale.width), 1)
    opened = cv2.morphologyEx(residual, cv2.MORPH_OPEN, np.ones((side, side), np.uint8))
    if not cv2.countNonZero(opened):
        return  # most zones' residual is slivers along the faces' edges, which the opening removes
    count, _, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=4)
    face_area = scale.width * scale.height
    for label in range(1, count):
        left, top, length, depth, area = (int(v) for v in stats[label, :5])
        if area < _LEAST_AREA * face_area or min(length, depth) < _LEAST_SIDE * scale.width:
            continue
        added_row = row_edge is not None and top + depth < row_edge - ADDED_IN * scale.width
        yield from _faces((left, left + length, top, top + depth), scale, 1 if added_row else max_rows, added_row)


def _faces(
    box: tuple[float, float, float, float], scale: FaceScale, max_rows: int, added_row: bool = False
) -> Iterator[Piece]:
    """A gap's bounding box (left, right, top, bottom) cut into faces; ``added_row``: it lies in
    a meld zone's added row, whose tiles lie sideways."""
    left, right, top, bottom = box
    length, depth = right - left, bottom - top
    rows = min(max(round(depth / scale.height), 1), max_rows)
    pitch = depth / rows
    for row in range(rows):
        outer = bottom - row * pitch
        # A row no deeper than a face is wide holds sideways faces (a riichi tile, a called one).
        sideways = added_row or pitch < (scale.width + scale.height) / 2
        along, across = (scale.height, scale.width) if sideways else (scale.width, scale.height)
        count = max(round(length / along), 1)
        step = length / count
        for index in range(count):
            middle = left + (index + 0.5) * step
            yield Piece(middle - along / 2, middle + along / 2, outer - across, outer, sideways)
