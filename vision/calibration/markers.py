"""ArUco corner markers: the printable sheet, and finding the table's corners in a frame.

Dictionary ``DICT_4X4_50`` (OpenCV's ``cv2.aruco``); ids 0-3 mark the corners in
``TableCorner`` order: 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left, as the top-down
view shows the table with seat 0 at the bottom. A marker's *centre* is the corner point, so a
marker may be turned any way when taped down.
"""

from __future__ import annotations

import logging
from typing import Final

import cv2
import numpy as np

from vision.calibration.table import TableCorner

log = logging.getLogger(__name__)

MARKER_DICTIONARY = cv2.aruco.DICT_4X4_50
DICTIONARY_NAME = "DICT_4X4_50"
CORNER_MARKER_IDS = tuple(corner.value for corner in TableCorner)
#: The side of a corner marker on the table (its white border included): centred on the
#: calibration rectangle's corner, 40 mm stays clear of the melds laid along the table's edge.
TABLE_MARKER_MM: Final = 40.0

_A4_MM = (210.0, 297.0)
_SHEET_CELL = {
    TableCorner.TOP_LEFT: (0, 0),
    TableCorner.TOP_RIGHT: (1, 0),
    TableCorner.BOTTOM_RIGHT: (1, 1),
    TableCorner.BOTTOM_LEFT: (0, 1),
}
_MM_PER_INCH = 25.4


class MarkersNotFoundError(ValueError):
    """Not all four corner markers are in the frame."""


def _dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(MARKER_DICTIONARY)


def draw_marker(marker_id: int, side_px: int) -> np.ndarray:
    """One marker, black on white, with a white quiet zone of one cell (the detector needs it)."""
    if marker_id not in CORNER_MARKER_IDS:
        raise ValueError(f"marker id {marker_id} is not a corner marker {CORNER_MARKER_IDS}")
    cells = 4 + 2  # 4×4 data cells and the black border
    inner = side_px * cells // (cells + 2)
    marker = cv2.aruco.generateImageMarker(_dictionary(), marker_id, inner)
    margin = (side_px - inner) // 2
    return np.asarray(
        cv2.copyMakeBorder(
            marker, margin, side_px - inner - margin, margin, side_px - inner - margin, cv2.BORDER_CONSTANT, value=255
        )
    )


def draw_marker_sheet(dpi: int = 300, marker_mm: float = 60.0) -> np.ndarray:
    """An A4 page (grey, ``dpi``) with the four corner markers, each captioned with its id and corner.
    Print at 100 % and cut the four squares apart."""
    if dpi < 50 or not 20 <= marker_mm <= 90:
        raise ValueError(f"marker sheet: dpi {dpi} (≥ 50) and marker size {marker_mm} mm (20-90) out of range")
    px_per_mm = dpi / _MM_PER_INCH
    width, height = (round(side * px_per_mm) for side in _A4_MM)
    sheet = np.full((height, width), 255, np.uint8)
    side = round(marker_mm * px_per_mm)
    for corner in TableCorner:
        # Each marker sits at its own corner of the page: the sheet itself is a table in miniature.
        column, row = _SHEET_CELL[corner]
        x = round((column + 0.5) * width / 2 - side / 2)
        y = round((row + 0.5) * height / 2 - side / 2)
        sheet[y : y + side, x : x + side] = draw_marker(corner.value, side)
        caption = f"id {corner.value}: {corner.name.lower().replace('_', '-')}"
        scale = px_per_mm * 0.18
        cv2.putText(
            sheet,
            caption,
            (x, y + side + round(8 * px_per_mm)),
            cv2.FONT_HERSHEY_SIMPLEX,
            scale,
            0,
            max(1, round(px_per_mm * 0.4)),
            cv2.LINE_AA,
        )
    cv2.putText(
        sheet,
        f"jantaku table corners - ArUco {DICTIONARY_NAME} - seat 0 sits at the bottom edge",
        (round(10 * px_per_mm), round(10 * px_per_mm)),
        cv2.FONT_HERSHEY_SIMPLEX,
        px_per_mm * 0.12,
        0,
        max(1, round(px_per_mm * 0.25)),
        cv2.LINE_AA,
    )
    return sheet


def find_corner_markers(image: np.ndarray) -> np.ndarray:
    """4×2 image pixels of the corner markers' centres, in ``TableCorner`` order.

    Raises ``MarkersNotFoundError`` naming the missing corners."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    detector = cv2.aruco.ArucoDetector(_dictionary(), cv2.aruco.DetectorParameters())
    found_corners, ids, _ = detector.detectMarkers(grey)
    centres: dict[int, list[np.ndarray]] = {}
    for quad, marker_id in zip(found_corners, ids.ravel() if ids is not None else [], strict=True):
        centres.setdefault(int(marker_id), []).append(quad.reshape(4, 2).mean(axis=0))
    log.debug("ArUco markers found: %s", sorted(centres))
    missing = [corner.name.lower() for corner in TableCorner if corner.value not in centres]
    if missing:
        raise MarkersNotFoundError(
            f"corner markers not found: {', '.join(missing)} (ArUco {DICTIONARY_NAME} ids {CORNER_MARKER_IDS}); "
            "is each marker in view, flat and lit without glare?"
        )
    repeated = [corner.name.lower() for corner in TableCorner if len(centres[corner.value]) > 1]
    if repeated:
        raise MarkersNotFoundError(f"corner markers seen more than once: {', '.join(repeated)}")
    return np.array([centres[corner.value][0] for corner in TableCorner])
