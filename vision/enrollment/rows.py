"""Enrolling from a phone photo of tiles laid out in rows, no printed sheet needed.

The layout (``docs/vision.md``, "Enrolling from a phone photo"): one tile of each kind, face
up and upright (tops away from the photographer), in rows from the far side to the near:

    1m 2m 3m 4m 5m 6m 7m 8m 9m
    1p 2p 3p 4p 5p 6p 7p 8p 9p
    1s 2s 3s 4s 5s 6s 7s 8s 9s
    東 南 西 北 白 發 中
    red 5m  red 5p  red 5s        (this row only if the set has red fives)

The tiles are found as ``vision detect`` finds them; finds much smaller than the typical tile
(glyphs) and finds inside another's face (parts of a tile) are dropped; the rest are grouped into rows by their centres' height in the photo and
read left to right. A layout that does not come out as 9, 9, 9, 7 (and 3) tiles is refused
with what was found, row by row, so that the user sees which row to fix.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import cv2
import numpy as np

from vision.enrollment.sheet import CutTile

#: The labels of each row, far to near (label numbers as :mod:`vision.classify.labels`).
ROW_LABELS: Final = (
    tuple(range(0, 9)),
    tuple(range(9, 18)),
    tuple(range(18, 27)),
    tuple(range(27, 34)),
    (34, 35, 36),
)
_ROW_NAMES: Final = ("1m-9m", "1p-9p", "1s-9s", "winds and dragons", "red fives")
_SMALL: Final = 0.5  # a find with less than this share of the median face area is a glyph or a part
_ROW_GAP: Final = 0.6  # a centre this many tile heights below the row's is in the next row


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
    """The corners in face order with the top edge the higher one in the photo (the layout's)."""
    corners = np.asarray(corners, np.float64)
    if corners[:2, 1].mean() > corners[2:, 1].mean():
        corners = np.roll(corners, 2, axis=0)
    return corners


def _area(quad: np.ndarray) -> float:
    x, y = quad[:, 0], quad[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))))


def _rows(quads: Sequence[np.ndarray]) -> list[list[np.ndarray]]:
    """Quads grouped into rows by their centres' height, each row left to right."""
    height = float(np.median([np.linalg.norm(q[0] - q[3]) for q in quads]))
    rows: list[list[np.ndarray]] = []
    for quad in sorted(quads, key=lambda q: float(q[:, 1].mean())):
        centre = float(quad[:, 1].mean())
        if rows and centre - float(np.mean([q[:, 1].mean() for q in rows[-1]])) < _ROW_GAP * height:
            rows[-1].append(quad)
        else:
            rows.append([quad])
    return [sorted(row, key=lambda q: float(q[:, 0].mean())) for row in rows]
