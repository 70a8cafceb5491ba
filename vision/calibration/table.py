"""The table in millimetres and the top-down view's pixels.

Table frame (as ``vision.render.placement``): origin at the centre, x to the right and y away
from seat 0, who sits at the bottom of the top-down view. The calibration rectangle is the
four corner points (ArUco marker centres, or corners the user picked): ``width_mm`` along x,
``depth_mm`` along y, centred on the table. The top-down view shows exactly that rectangle.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import IntEnum

import numpy as np


class TableCorner(IntEnum):
    """The calibration rectangle's corners as the top-down view shows them (seat 0 at the bottom).
    The value is also the corner's index in every list of corners and its ArUco marker id."""

    TOP_LEFT = 0  # seat 2's right, seat 3's left
    TOP_RIGHT = 1
    BOTTOM_RIGHT = 2  # seat 0's right
    BOTTOM_LEFT = 3  # seat 0's left


@dataclass(frozen=True, slots=True)
class PhysicalTileSize:
    width_mm: float = 20.0
    height_mm: float = 27.0

    def __post_init__(self) -> None:
        if not 0 < self.width_mm < self.height_mm:
            raise ValueError(f"tile size {self.width_mm}×{self.height_mm} mm: want 0 < width < height")


@dataclass(frozen=True, slots=True)
class TableGeometry:
    width_mm: float = 680.0  # between the corner points, along x
    depth_mm: float = 680.0  # between the corner points, along y
    px_per_mm: float = 1.5  # scale of the top-down view

    def __post_init__(self) -> None:
        # NaN compares false with everything, so "not > 0" rather than "<= 0".
        if not all(math.isfinite(v) and v > 0 for v in (self.width_mm, self.depth_mm, self.px_per_mm)):
            raise ValueError(f"table geometry {self}: sizes and scale must be positive numbers")

    @property
    def view_size(self) -> tuple[int, int]:
        """The top-down view's width and height in pixels."""
        return round(self.width_mm * self.px_per_mm), round(self.depth_mm * self.px_per_mm)

    def corners_mm(self) -> np.ndarray:
        """4×2 table millimetres of the corners, in ``TableCorner`` order."""
        half_w, half_d = self.width_mm / 2, self.depth_mm / 2
        return np.array([[-half_w, half_d], [half_w, half_d], [half_w, -half_d], [-half_w, -half_d]])

    def to_view(self, points_mm: np.ndarray) -> np.ndarray:
        """Top-down view pixels (N×2) of table points (N×2 mm)."""
        points = np.asarray(points_mm, np.float64).reshape(-1, 2)
        x = (points[:, 0] + self.width_mm / 2) * self.px_per_mm
        y = (self.depth_mm / 2 - points[:, 1]) * self.px_per_mm  # the view's y grows downwards
        return np.stack([x, y], axis=1)

    def view_corners(self) -> np.ndarray:
        return self.to_view(self.corners_mm())


STANDARD_TILE = PhysicalTileSize()
STANDARD_TABLE = TableGeometry()
