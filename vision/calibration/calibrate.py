"""Making a calibration from a frame: the corner markers, or four corners the user picked."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np

from vision.calibration.calibration import Calibration, CornersFrom, Point
from vision.calibration.markers import find_corner_markers
from vision.calibration.table import STANDARD_TABLE, STANDARD_TILE, PhysicalTileSize, TableGeometry

log = logging.getLogger(__name__)


def calibrate(
    image: np.ndarray,
    *,
    picked: Sequence[Point] | None = None,
    table: TableGeometry = STANDARD_TABLE,
    tile: PhysicalTileSize = STANDARD_TILE,
) -> Calibration:
    """From ``picked`` corners (image pixels: top-left, top-right, bottom-right, bottom-left as
    the top-down view should show them) when given, else from the ArUco corner markers in ``image``."""
    height, width = image.shape[:2]
    if picked is not None:
        if len(picked) != 4:
            raise ValueError(f"pick four corners (top-left, top-right, bottom-right, bottom-left), got {len(picked)}")
        outside = [p for p in picked if not (0 <= p[0] < width and 0 <= p[1] < height)]
        if outside:
            raise ValueError(f"picked corners {outside} lie outside the {width}×{height} frame")
        corners = np.asarray(picked, np.float64)
        source = CornersFrom.PICKED
    else:
        corners = find_corner_markers(image)
        source = CornersFrom.ARUCO
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = (tuple(map(float, c)) for c in corners)
    calibration = Calibration(((x0, y0), (x1, y1), (x2, y2), (x3, y3)), (width, height), table, tile, source)
    log.info("calibrated from %s corners %s", source.value, calibration.corners)
    return calibration
