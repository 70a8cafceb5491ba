"""Enrolling from a phone photo of tiles laid out in rows, no printed sheet needed.

The layout (``docs/vision.md``, "Enrolling from a phone photo"): one tile of each kind, face
up and upright (tops away from the photographer), in rows from the far side to the near:

    1m 2m 3m 4m 5m 6m 7m 8m 9m
    1p 2p 3p 4p 5p 6p 7p 8p 9p
    1s 2s 3s 4s 5s 6s 7s 8s 9s
    東 南 西 北 白 發 中
    red 5m  red 5p  red 5s        (this row only if the set has red fives)

The tiles are found as ``vision detect`` finds them; finds much smaller than the typical tile
(glyphs) and finds inside another's face (parts of a tile) are dropped; the rest are grouped
into rows along the tiles' own up and read left to right. A tile found as two halves is
joined again; a tile the detector missed between two it found is cut halfway between them
(the spacing is even); a wider gap is refused by name (every tile after it would take its
neighbour's label). A layout that does
not come out as 9, 9, 9, 7 (and 3) tiles is refused with what was found, row by row, so that
the user sees which row to fix.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Final

import cv2
import numpy as np

from vision.enrollment.sheet import CutTile

log = logging.getLogger(__name__)

#: The labels of each row, far to near (label numbers as :mod:`vision.classify.labels`).
ROW_LABELS: Final = (
    tuple(range(9)),
    tuple(range(9, 18)),
    tuple(range(18, 27)),
    tuple(range(27, 34)),
    (34, 35, 36),
)
_ROW_NAMES: Final = ("1m-9m", "1p-9p", "1s-9s", "winds and dragons", "red fives")
_SMALL: Final = 0.3  # a find with less than this share of the median face area is a glyph or a part
_ROW_GAP: Final = 0.6  # a centre this many tile heights below the previous one starts the next row
_SPLIT: Final = 0.6  # finds nearer than this share of the rows' spacing are parts of one tile
_MISSING: Final = 1.6  # a gap this many spacings wide has a tile missing ...
_TOO_WIDE: Final = 2.5  # ... and this wide more than one: refused


class LayoutError(ValueError):
    """The photo does not show the documented rows."""


def cut_row_layout(corners: Sequence[np.ndarray]) -> tuple[CutTile, ...]:
    """The tiles of a row-layout photo (the corners of every tile found in it), labelled by their place."""
    quads = [_upright(c) for c in corners]
    if not quads:
        raise LayoutError("no tiles found in the photo: lay the tiles out as documented and photograph them from above")
    areas = np.array([_area(q) for q in quads])
    quads = [q for q, a in zip(quads, areas, strict=True) if a >= _SMALL * float(np.median(areas))]
    quads = _one_per_tile(quads)
    rows = _rows(quads)
    counts = tuple(len(row) for row in rows)
    wanted = tuple(len(labels) for labels in ROW_LABELS)
    if counts not in (wanted[:4], wanted):
        found_rows = ", ".join(str(n) for n in counts)
        raise LayoutError(
            f"found {len(rows)} rows of {found_rows} tiles; want 9, 9, 9, 7 (1m-9m, 1p-9p, 1s-9s, winds and "
            f"dragons) and optionally 3 red fives, in rows far to near" + _first_wrong_row(counts, wanted)
        )
    return tuple(
        CutTile(label, quad)
        for labels, row in zip(ROW_LABELS, rows, strict=False)
        for label, quad in zip(labels, row, strict=True)
    )


def _first_wrong_row(counts: tuple[int, ...], wanted: tuple[int, ...]) -> str:
    for index, (count, want) in enumerate(zip(counts, wanted, strict=False)):
        if count != want:
            return f" (row {index + 1}, {_ROW_NAMES[index]}: {count} found, {want} wanted)"
    if len(counts) > len(wanted):
        return f" ({len(counts) - len(wanted)} rows too many: is something else in the photo?)"
    return ""


def _one_per_tile(quads: list[np.ndarray]) -> list[np.ndarray]:
    """Of finds whose centres lie within each other's faces (a tile and a part of it), the larger."""
    kept: list[np.ndarray] = []
    for quad in sorted(quads, key=_area, reverse=True):
        centre = quad.mean(axis=0)
        if not any(_contains(other, centre) or _contains(quad, other.mean(axis=0)) for other in kept):
            kept.append(quad)
    return kept


def _contains(quad: np.ndarray, point: np.ndarray) -> bool:
    contour = np.round(quad).astype(np.int32).reshape(-1, 1, 2)
    return bool(cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), measureDist=False) >= 0)


def _upright(corners: np.ndarray) -> np.ndarray:
    """A tile's four corners in face order (top-left, top-right, bottom-right, bottom-left), its
    long edges the sides and its top the higher short edge in the photo (the layout's tops)."""
    corners = np.asarray(corners, np.float64)
    centre = corners.mean(axis=0)
    clockwise = corners[np.argsort(np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0]))]
    ways = [np.roll(clockwise, -k, axis=0) for k in range(4)]
    portrait = [q for q in ways if np.linalg.norm(q[1] - q[0]) <= 1.05 * np.linalg.norm(q[3] - q[0])]
    return min(portrait or ways, key=lambda q: float(q[0, 1] + q[1, 1]))


def _area(quad: np.ndarray) -> float:
    x, y = quad[:, 0], quad[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))))


def _rows(quads: Sequence[np.ndarray]) -> list[list[np.ndarray]]:
    """Quads grouped into rows, far to near, each row left to right. Positions are measured
    along the tiles' own up and right (a photo a little turned leaves the rows slanted)."""
    ups = np.array([(q[0] + q[1] - q[2] - q[3]) / 2 for q in quads])
    up = ups.sum(axis=0) / max(float(np.linalg.norm(ups.sum(axis=0))), 1e-9)
    right = np.array([-up[1], up[0]])
    height = float(np.median(np.linalg.norm(ups, axis=1)))
    rows: list[list[np.ndarray]] = []
    last = None
    for quad in sorted(quads, key=lambda q: -float(q.mean(axis=0) @ up)):
        level = float(quad.mean(axis=0) @ up)
        if last is None or last - level > _ROW_GAP * height:
            rows.append([])
        rows[-1].append(quad)
        last = level
    rows = [sorted(row, key=lambda q: float(q.mean(axis=0) @ right)) for row in rows]
    gaps = [g for row in rows for g in np.diff([float(q.mean(axis=0) @ right) for q in row])]
    pitch = float(np.median(gaps)) if gaps else 0.0
    return [_evenly_spaced(row, right, pitch, index) for index, row in enumerate(rows)]


def _evenly_spaced(row: list[np.ndarray], right: np.ndarray, pitch: float, index: int) -> list[np.ndarray]:
    """A row's tiles one per place: two finds much nearer than the layout's spacing are one tile
    cut in two (joined again); a gap of two spacings is one tile not found, cut halfway between
    its neighbours; a wider gap is refused by name (every tile after it would take its
    neighbour's label)."""
    out: list[np.ndarray] = []
    for quad in row:
        if out and float((quad.mean(axis=0) - out[-1].mean(axis=0)) @ right) < _SPLIT * pitch:
            points = np.vstack([out[-1], quad]).astype(np.float32)
            out[-1] = _upright(cv2.boxPoints(cv2.minAreaRect(points)))
        else:
            out.append(quad)
    filled: list[np.ndarray] = out[:1]
    for quad in out[1:]:
        gap = float((quad.mean(axis=0) - filled[-1].mean(axis=0)) @ right)
        if gap > _MISSING * pitch:
            if gap > _TOO_WIDE * pitch:
                name = _ROW_NAMES[index] if index < len(_ROW_NAMES) else "an extra row"
                raise LayoutError(
                    f"row {index + 1} ({name}): no tiles found between its tile {len(filled)} and the next; "
                    "are tiles missing, covered or too dark to find? Retake the photo with them in place"
                )
            # One tile the detector missed between two it found: it lies halfway (the layout's
            # spacing is even), the size of its neighbours.
            filled.append((filled[-1] + quad) / 2)
            log.info("row %d: tile %d not found, cut halfway between its neighbours", index + 1, len(filled))
        filled.append(quad)
    return filled
