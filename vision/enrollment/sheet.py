"""The enrollment sheet: a printed A3 mat with four ArUco markers and a 7×6 grid of green cells,
one tile of the user's set upright in each, and cutting those tiles out of a photo of it.

Sheet coordinates are millimetres from the sheet's top-left corner, x right, y down. Cells are
read row by row from the top-left: 1m..9m, 1p..9p, 1s..9s, 1z..7z (east, south, west, north,
white, green, red dragon), then red 5m, 5p, 5s and a face-down tile; the last four cells stay
empty. Markers are ``DICT_4X4_50`` ids 4 (top-left) 5 (top-right) 6 (bottom-right) 7
(bottom-left), apart from the table-corner ids 0-3.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

from table_app.domain.tile import KIND_COUNT
from vision.calibration.markers import DICTIONARY_NAME, MARKER_DICTIONARY
from vision.classify.labels import BACK_LABEL, label_name

log = logging.getLogger(__name__)

SHEET_MM: Final = (420.0, 297.0)  # A3 landscape
COLUMNS: Final = 7
ROWS: Final = 6
CELL_MM: Final = (40.0, 46.0)
GRID_ORIGIN_MM: Final = ((SHEET_MM[0] - COLUMNS * CELL_MM[0]) / 2, (SHEET_MM[1] - ROWS * CELL_MM[1]) / 2)
MARKER_MM: Final = 40.0
MARKER_IDS: Final = (4, 5, 6, 7)
#: The cells' print colour (BGR): a saturated green that ivory, dark and coloured-back tiles all differ from.
CELL_BGR: Final = (60, 190, 50)
#: Labels in cell order (row by row); ``None`` for the cells left empty.
GRID_LABELS: Final = (*range(KIND_COUNT), 34, 35, 36, BACK_LABEL, None, None, None, None)

_MARKER_GAP_MM: Final = 10.0  # from the grid's side to the marker's edge
_MIN_DISTANCE: Final = 0.05  # chromaticity distance from the cell's green: below, green whatever Otsu says
_MAX_DISTANCE: Final = 0.15
_MIN_FACE_MM2: Final = 12.0 * 16.0  # a blob smaller than this is an empty cell (a label's text, dust)


class SheetNotFoundError(ValueError):
    """The four enrollment markers are not all in the photo."""


@dataclass(frozen=True, eq=False)
class CutTile:
    label: int
    corners: np.ndarray  # 4×2 image pixels, face order (the tile lies upright on the sheet)


def marker_centres_mm() -> np.ndarray:
    """4×2 sheet millimetres of the markers' centres, in id order (left and right of the grid)."""
    x0, y0 = GRID_ORIGIN_MM
    x1, y1 = x0 + COLUMNS * CELL_MM[0], y0 + ROWS * CELL_MM[1]
    left, right = x0 - _MARKER_GAP_MM - MARKER_MM / 2, x1 + _MARKER_GAP_MM + MARKER_MM / 2
    top, bottom = y0 + MARKER_MM / 2, y1 - MARKER_MM / 2
    return np.array([[left, top], [right, top], [right, bottom], [left, bottom]])


def cell_box_mm(index: int) -> tuple[float, float, float, float]:
    """x0, y0, x1, y1 of cell ``index`` (row by row) in sheet millimetres."""
    row, column = divmod(index, COLUMNS)
    x0 = GRID_ORIGIN_MM[0] + column * CELL_MM[0]
    y0 = GRID_ORIGIN_MM[1] + row * CELL_MM[1]
    return x0, y0, x0 + CELL_MM[0], y0 + CELL_MM[1]


def draw_enrollment_sheet(px_per_mm: float = 300 / 25.4) -> np.ndarray:
    """The printable sheet (BGR, A3 landscape at ``px_per_mm``; 300 dpi by default): print at 100 %."""
    width, height = (round(side * px_per_mm) for side in SHEET_MM)
    sheet = np.full((height, width, 3), 255, np.uint8)
    font = cv2.FONT_HERSHEY_SIMPLEX
    for index, label in enumerate(GRID_LABELS):
        x0, y0, x1, y1 = (round(v * px_per_mm) for v in cell_box_mm(index))
        cv2.rectangle(sheet, (x0, y0), (x1, y1), CELL_BGR, -1)
        cv2.rectangle(sheet, (x0, y0), (x1, y1), (255, 255, 255), max(1, round(0.6 * px_per_mm)))
        if label is not None:
            name = ("red " if label in (34, 35, 36) else "") + label_name(label)
            at = (x0 + round(1.5 * px_per_mm), y0 + round(4.5 * px_per_mm))
            cv2.putText(sheet, name, at, font, 0.11 * px_per_mm, (255, 255, 255), max(1, round(0.3 * px_per_mm)))
    side = round(MARKER_MM * px_per_mm)
    dictionary = cv2.aruco.getPredefinedDictionary(MARKER_DICTIONARY)
    for marker_id, (cx, cy) in zip(MARKER_IDS, marker_centres_mm(), strict=True):
        inner = side * 6 // 8  # a white quiet zone of one cell around the 6-cell marker
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, inner)
        x, y = round(cx * px_per_mm - inner / 2), round(cy * px_per_mm - inner / 2)
        sheet[y : y + inner, x : x + inner] = marker[..., None]
    caption = f"jantaku tile enrollment - ArUco {DICTIONARY_NAME} ids 4-7 - one tile upright per cell, top up"
    at = (round(GRID_ORIGIN_MM[0] * px_per_mm), round((GRID_ORIGIN_MM[1] - 2.0) * px_per_mm))
    cv2.putText(sheet, caption, at, font, 0.1 * px_per_mm, (0, 0, 0), max(1, round(0.25 * px_per_mm)))
    return sheet


def find_sheet(image: np.ndarray) -> np.ndarray:
    """The 3×3 homography from sheet millimetres to image pixels, from the four markers."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    dictionary = cv2.aruco.getPredefinedDictionary(MARKER_DICTIONARY)
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(grey)
    centres: dict[int, list[np.ndarray]] = {}
    for quad, marker_id in zip(corners, ids.ravel() if ids is not None else [], strict=True):
        centres.setdefault(int(marker_id), []).append(quad.reshape(4, 2).mean(axis=0))
    missing = [str(i) for i in MARKER_IDS if len(centres.get(i, [])) != 1]
    if missing:
        raise SheetNotFoundError(
            f"enrollment sheet markers {', '.join(missing)} not found once each (ArUco {DICTIONARY_NAME} ids "
            f"{MARKER_IDS[0]}-{MARKER_IDS[-1]}); is the whole sheet in view, flat and lit without glare?"
        )
    image_points = np.array([centres[i][0] for i in MARKER_IDS], np.float32)
    return np.asarray(cv2.getPerspectiveTransform(marker_centres_mm().astype(np.float32), image_points))


def cut_enrollment_tiles(image: np.ndarray, view_px_per_mm: float = 4.0) -> tuple[CutTile, ...]:
    """The tile in each labelled cell (empty cells left out), as corners in ``image``.

    The sheet is warped to a top-down view; in each cell the tile is the largest blob whose
    chromaticity differs from the cell's green (sampled along the cell's edge) or that is much
    brighter than it, and its corners are that blob's minimum-area rectangle, upright."""
    to_image = find_sheet(image)
    scale = np.diag([view_px_per_mm, view_px_per_mm, 1.0])
    to_view = scale @ np.linalg.inv(to_image)
    width, height = (round(side * view_px_per_mm) for side in SHEET_MM)
    view = cv2.warpPerspective(image, to_view, (width, height), flags=cv2.INTER_AREA)
    tiles = []
    for index, label in enumerate(GRID_LABELS):
        if label is None:
            continue
        x0, y0, x1, y1 = (round(v * view_px_per_mm) for v in cell_box_mm(index))
        quad = _tile_in_cell(view[y0:y1, x0:x1], view_px_per_mm)
        if quad is None:
            log.info("enrollment cell %d (%s) is empty", index, label_name(label))
            continue
        view_quad = quad + np.array([x0, y0], np.float64)
        image_quad = cv2.perspectiveTransform(view_quad[None].astype(np.float64), np.linalg.inv(to_view))[0]
        tiles.append(CutTile(label, np.asarray(image_quad)))
    return tuple(tiles)


def _tile_in_cell(cell: np.ndarray, px_per_mm: float) -> np.ndarray | None:
    # Smoothed over about a millimetre: a photo's JPEG blocks make chromaticity noisy, more so in the dark.
    values = cv2.GaussianBlur(cell.astype(np.float32), (0, 0), 0.7 * px_per_mm) + 8.0
    chroma = values / values.sum(axis=2, keepdims=True)
    brightness = values.sum(axis=2)
    # The cell's colour is sampled just inside its printed outline, where no tile lies.
    outline = _edge_band(cell.shape[:2], round(1.2 * px_per_mm))
    ring = _edge_band(cell.shape[:2], round(3.0 * px_per_mm)) & ~outline
    green = np.median(chroma[ring], axis=0)
    level = float(np.median(brightness[ring]))
    distance = np.linalg.norm(chroma - green, axis=2)
    otsu, _ = cv2.threshold(
        np.clip(distance * 400, 0, 255).astype(np.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU
    )
    threshold = float(np.clip(otsu / 400, _MIN_DISTANCE, _MAX_DISTANCE))
    mask = ((distance > threshold) | (brightness > 1.6 * level)) & ~outline
    mask = cv2.morphologyEx(mask.astype(np.uint8) * 255, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if count < 2:
        return None
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[largest, cv2.CC_STAT_AREA] < _MIN_FACE_MM2 * px_per_mm**2:
        return None
    points = np.column_stack(np.nonzero(labels == largest)[::-1]).astype(np.float32)
    return _upright(cv2.boxPoints(cv2.minAreaRect(points)))


def _edge_band(shape: tuple[int, ...], width: int) -> np.ndarray:
    """The cell's outermost ``width`` pixels: the printed outline, never a tile laid in the cell."""
    band = np.zeros(shape, bool)
    band[:width, :] = band[-width:, :] = band[:, :width] = band[:, -width:] = True
    return band


def _upright(box: np.ndarray) -> np.ndarray:
    """The rectangle's corners as an upright tile reads them: top-left, top-right, bottom-right,
    bottom-left (the tile lies with its top towards the sheet's top)."""
    centre = box.mean(axis=0)
    # The two corners above the centre are the top; a rectangle turned past 45° means the
    # tile lies across its cell, which the sheet's instructions rule out.
    order = np.argsort(np.arctan2(box[:, 1] - centre[1], box[:, 0] - centre[0]))
    # atan2 in image coordinates (y down) runs top-left (-135°) → top-right (-45°) → bottom-right → bottom-left.
    return np.asarray(box[order], np.float64)
