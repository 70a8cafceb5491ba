"""The frame warped once to a square top-down view, and each seat's part of it turned upright.

In a seat's upright image the seat sits at the bottom and the table's centre is above: image
x runs along the seat's own x (to its right), image y grows with the distance from the centre.
The turn is a whole number of quarter turns of the square view (``np.rot90``), so it copies
nothing and keeps every pixel.

Pixel maps (all 3×3 homogeneous):

- frame → view: the calibration's homography, rescaled to this view;
- seat image → view: the quarter turn;
- seat millimetres (x right, distance d from the centre) → seat image: ``u = (x + R)·s``,
  ``v = (R + d)·s`` with ``R`` the view's half side in mm and ``s`` its px/mm.

The view's side ``2·R·s`` is a whole number of pixels at any scale: the warp's size and the
quarter turn's last pixel are that number, so ``R`` is widened by less than a pixel until it is
(at 1.5 px/mm on the standard table it already is: nothing moves there).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

from vision.calibration.calibration import Calibration
from vision.calibration.zones import SEAT_TURN_DEG, ZoneBox

#: The view reaches this far past the calibration rectangle: melds lie at the table's edge and
#: a tile's top is seen a little further out than its footprint.
VIEW_MARGIN_MM: Final = 25.0


@dataclass(frozen=True, eq=False)
class ViewGeometry:
    """The square view: ``half_mm`` from the centre to each side, ``px_per_mm``; its side is
    ``side_px`` pixels, exactly ``2 · half_mm · px_per_mm``."""

    half_mm: float
    px_per_mm: float
    side_px: int
    frame_to_view: np.ndarray  # 3×3
    quarter_turns: tuple[int, int, int, int]  # np.rot90 turns that bring each seat to the bottom

    def seat_px(self, x_mm: np.ndarray, distance_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Seat image pixels of seat-frame points (x to the owner's right, distance from the centre)."""
        return (x_mm + self.half_mm) * self.px_per_mm, (self.half_mm + distance_mm) * self.px_per_mm

    def seat_mm(self, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return u / self.px_per_mm - self.half_mm, v / self.px_per_mm - self.half_mm

    def seat_to_view(self, seat: int) -> np.ndarray:
        """3×3: seat image pixels → view pixels (undoing the quarter turns)."""
        last = self.side_px - 1
        # One counter-clockwise quarter turn (np.rot90) sends view (x, y) to (y, last - x); undo it k times.
        undo_one = np.array([[0.0, -1.0, last], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
        return np.linalg.matrix_power(undo_one, self.quarter_turns[seat])

    def seat_to_frame(self, seat: int) -> np.ndarray:
        return np.asarray(np.linalg.inv(self.frame_to_view) @ self.seat_to_view(seat))


def view_geometry(calibration: Calibration, px_per_mm: float) -> ViewGeometry:
    """The view of ``calibration``'s table at ``px_per_mm`` (any positive scale)."""
    if not (math.isfinite(px_per_mm) and px_per_mm > 0):
        raise ValueError(f"seat view scale {px_per_mm!r} px/mm: must be a positive number")
    table = calibration.table
    reach = max(table.width_mm, table.depth_mm) / 2 + VIEW_MARGIN_MM
    # A whole number of pixels (a hair of tolerance: 2·365·1.5 may come out as 1095.0000000001),
    # and the half side that gives it exactly, which every map below then uses.
    side = max(math.ceil(2 * reach * px_per_mm - 1e-6), 1)
    half = side / (2 * px_per_mm)
    # Calibration view pixels → table mm → this view's pixels.
    cal_to_mm = np.array(
        [[1 / table.px_per_mm, 0, -table.width_mm / 2], [0, -1 / table.px_per_mm, table.depth_mm / 2], [0, 0, 1]]
    )
    mm_to_view = np.array([[px_per_mm, 0, half * px_per_mm], [0, -px_per_mm, half * px_per_mm], [0, 0, 1]])
    frame_to_view = mm_to_view @ cal_to_mm @ calibration.homography
    turns = tuple(_quarter_turns(seat, half, px_per_mm, side) for seat in range(4))
    return ViewGeometry(half, px_per_mm, side, frame_to_view, (turns[0], turns[1], turns[2], turns[3]))


def _quarter_turns(seat: int, half: float, px_per_mm: float, side: int) -> int:
    """How many np.rot90 turns put ``seat`` at the bottom: checked on a point, not assumed."""
    x_seat, distance = 100.0, 50.0
    radians = np.deg2rad(SEAT_TURN_DEG[seat])
    cos, sin = np.cos(radians), np.sin(radians)
    # The seat frame's y points to the centre: a point ``distance`` from it has y = -distance.
    x = x_seat * cos - distance * sin
    y = -x_seat * sin - distance * cos
    point = np.array([(x + half) * px_per_mm, (half - y) * px_per_mm])
    expected = np.array([(x_seat + half) * px_per_mm, (half + distance) * px_per_mm])
    last = side - 1
    for turns in range(4):
        if np.allclose(point, expected, atol=1.0):
            return turns
        point = np.array([point[1], last - point[0]])
    raise AssertionError(f"no quarter turn brings seat {seat} to the bottom")  # pragma: no cover


def box_slices(view: ViewGeometry, box: ZoneBox) -> tuple[slice, slice]:
    """The columns and lines of a seat's upright image that ``box`` (seat millimetres) covers,
    clipped to the image."""
    u0, v0 = view.seat_px(np.array(box.left), np.array(box.near))
    u1, v1 = view.seat_px(np.array(box.right), np.array(box.far))
    limit = view.side_px
    return (
        slice(max(round(float(u0)), 0), min(round(float(u1)), limit)),
        slice(max(round(float(v0)), 0), min(round(float(v1)), limit)),
    )


def view_rect(geometry: ViewGeometry, seat: int, columns: slice, lines: slice) -> tuple[slice, slice]:
    """The view's lines and columns under a part of ``seat``'s upright image (``columns`` and
    ``lines`` with whole starts and stops inside it, as ``box_slices`` gives): ``np.rot90`` of
    the view's part is the seat image's part, and a pass over the view's part goes along its
    rows in memory order (the turned part's goes across them)."""
    side = geometry.side_px
    x0, x1 = columns.start or 0, side if columns.stop is None else columns.stop
    y0, y1 = lines.start or 0, side if lines.stop is None else lines.stop
    # One np.rot90 turn puts view (line, column) at seat (side - 1 - column, line).
    turns = geometry.quarter_turns[seat] % 4
    if turns == 0:
        return slice(y0, y1), slice(x0, x1)
    if turns == 1:
        return slice(x0, x1), slice(side - y1, side - y0)
    if turns == 2:
        return slice(side - y1, side - y0), slice(side - x1, side - x0)
    return slice(side - x1, side - x0), slice(y0, y1)


def warp_view(frame: np.ndarray, geometry: ViewGeometry) -> np.ndarray:
    side = geometry.side_px
    return np.asarray(
        cv2.warpPerspective(
            frame, geometry.frame_to_view, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
    )


def seat_image(view: np.ndarray, geometry: ViewGeometry, seat: int) -> np.ndarray:
    return np.rot90(view, geometry.quarter_turns[seat])
