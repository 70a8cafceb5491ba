"""``Calibration``: four image points of the table's corners → a homography to the top-down view."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import StrEnum

import cv2
import numpy as np

from vision.calibration.table import STANDARD_TABLE, STANDARD_TILE, PhysicalTileSize, TableGeometry

log = logging.getLogger(__name__)


class CornersFrom(StrEnum):
    ARUCO = "aruco"
    PICKED = "picked"  # the user clicked or typed them


Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Calibration:
    corners: tuple[Point, Point, Point, Point]  # image pixels, in ``TableCorner`` order
    image_size: tuple[int, int]  # width, height of the frames it was made from
    table: TableGeometry = STANDARD_TABLE
    tile: PhysicalTileSize = STANDARD_TILE
    corners_from: CornersFrom = CornersFrom.PICKED

    def __post_init__(self) -> None:
        corners = np.asarray(self.corners, np.float64)
        if corners.shape != (4, 2) or not np.all(np.isfinite(corners)):
            raise ValueError(f"calibration corners must be four (x, y) points, got {self.corners!r}")
        # The corners must go round the table one way without crossing: a convex quadrilateral.
        if not cv2.isContourConvex(corners.astype(np.float32).reshape(-1, 1, 2)):
            raise ValueError(
                f"calibration corners {self.corners!r} do not make a convex quadrilateral "
                "(give them as top-left, top-right, bottom-right, bottom-left)"
            )
        if cv2.contourArea(corners.astype(np.float32)) < 100:
            raise ValueError(f"calibration corners {self.corners!r} enclose almost no area")

    @property
    def homography(self) -> np.ndarray:
        """3×3: image pixels → top-down view pixels."""
        source = np.asarray(self.corners, np.float32)
        return cv2.getPerspectiveTransform(source, self.table.view_corners().astype(np.float32))

    def to_view(self, image_points: np.ndarray) -> np.ndarray:
        """Top-down view pixels (N×2) of image pixels (N×2)."""
        points = np.asarray(image_points, np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(points, self.homography).reshape(-1, 2))

    def to_image(self, view_points: np.ndarray) -> np.ndarray:
        """Image pixels (N×2) of top-down view pixels (N×2)."""
        points = np.asarray(view_points, np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(points, np.linalg.inv(self.homography)).reshape(-1, 2))

    def warp(self, image: np.ndarray) -> np.ndarray:
        """The top-down view of a frame: the calibration rectangle, ``table.px_per_mm`` pixels a mm."""
        height, width = image.shape[:2]
        if (width, height) != self.image_size:
            # A homography is only valid for the resolution it was made at.
            raise ValueError(f"frame is {width}×{height} but the calibration was made for {self.image_size}")
        return np.asarray(cv2.warpPerspective(image, self.homography, self.table.view_size, flags=cv2.INTER_LINEAR))
