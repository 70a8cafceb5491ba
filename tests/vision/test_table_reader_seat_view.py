"""The table reader's seat views (vision/live/table_reader/seat_view.py): the frame warped to a
square top-down view and each seat's part turned upright, at any positive scale."""

import math

import numpy as np
import pytest

from vision.calibration.calibration import Calibration
from vision.calibration.table import TableGeometry
from vision.calibration.zones import SEAT_TURN_DEG
from vision.live.table_reader.seat_view import VIEW_MARGIN_MM, seat_image, view_geometry, view_rect, warp_view

FRAME_PX = 1200
#: The standard 680 mm table seen straight from above, 1000 pixels across, 100 from each edge.
CALIBRATION = Calibration(((100.0, 100.0), (1100.0, 100.0), (1100.0, 1100.0), (100.0, 1100.0)), (FRAME_PX, FRAME_PX))
FRAME_PX_PER_MM = 1000 / 680
REACH_MM = 680 / 2 + VIEW_MARGIN_MM


def frame_point(seat: int, x_mm: float, distance_mm: float) -> tuple[float, float]:
    """The frame pixel of a point in ``seat``'s frame (x to its right, distance from the centre)."""
    turn = math.radians(SEAT_TURN_DEG[seat])
    x = x_mm * math.cos(turn) - distance_mm * math.sin(turn)
    y = -x_mm * math.sin(turn) - distance_mm * math.cos(turn)  # table mm, y away from seat 0
    return 100 + (x + 340) * FRAME_PX_PER_MM, 100 + (340 - y) * FRAME_PX_PER_MM


@pytest.mark.parametrize("px_per_mm", [1.5, 1.25, 1.3, 0.97, 2.0])
def test_a_seat_view_has_a_whole_number_of_pixels_and_its_zones_agree_with_its_warp(px_per_mm):
    view = view_geometry(CALIBRATION, px_per_mm)
    # The side is the whole number of pixels that 2·half·scale is; the half side reaches the
    # table's edge and margin, widened by less than a pixel.
    assert view.side_px == pytest.approx(2 * view.half_mm * px_per_mm, abs=1e-9)
    assert REACH_MM <= view.half_mm < REACH_MM + 1 / px_per_mm
    if px_per_mm == 1.5:
        assert view.half_mm == REACH_MM  # the standard scale's view is as it was
    points = [(-120.0, 200.0), (150.0, 280.0), (40.0, 60.0)]  # seat mm: x to the right, distance
    for seat in range(4):
        frame = np.zeros((FRAME_PX, FRAME_PX), np.uint8)
        for x_mm, distance_mm in points:
            column, line = frame_point(seat, x_mm, distance_mm)
            frame[round(line) - 3 : round(line) + 4, round(column) - 3 : round(column) + 4] = 255
        warped = warp_view(frame, view)
        assert warped.shape == (view.side_px, view.side_px)
        upright = seat_image(warped, view, seat)
        for x_mm, distance_mm in points:
            u, v = (float(c) for c in view.seat_px(np.array(x_mm), np.array(distance_mm)))
            spot = upright[round(v) - 8 : round(v) + 9, round(u) - 8 : round(u) + 9].astype(np.float64)
            assert spot.sum() > 0, f"seat {seat}: nothing near ({u:.1f}, {v:.1f})"
            lines, columns = np.indices(spot.shape)
            found = (
                (columns * spot).sum() / spot.sum() + round(u) - 8,
                (lines * spot).sum() / spot.sum() + round(v) - 8,
            )
            # The quarter turn turns about the last pixel's middle, the seat map about the view's
            # centre: the two differ by at most a pixel.
            assert found == pytest.approx((u, v), abs=1.5), f"seat {seat} at {px_per_mm} px/mm"
            # And the seat image's pixels map back to the frame where the spot was drawn.
            back = view.seat_to_frame(seat) @ np.array([found[0], found[1], 1.0])
            assert back[:2] / back[2] == pytest.approx(frame_point(seat, x_mm, distance_mm), abs=2.0)


@pytest.mark.parametrize("px_per_mm", [0.0, -1.5, math.nan, math.inf])
def test_a_scale_that_is_not_a_positive_number_is_refused_by_value(px_per_mm):
    with pytest.raises(ValueError, match=r"seat view scale .* px/mm: must be a positive number"):
        view_geometry(CALIBRATION, px_per_mm)


@pytest.mark.parametrize("field", ["width_mm", "depth_mm", "px_per_mm"])
@pytest.mark.parametrize("value", [0.0, -2.0, math.nan, math.inf])
def test_the_calibrated_table_s_sizes_and_scale_must_be_positive_numbers(field, value):
    with pytest.raises(ValueError, match="sizes and scale must be positive numbers"):
        TableGeometry(**{field: value})


@pytest.mark.parametrize("px_per_mm", [1.5, 1.3])
def test_a_seat_image_s_part_is_the_view_s_part_under_it_turned(px_per_mm):
    """Every seat, parts at the image's edges and inside it: np.rot90 of the view's rectangle
    that ``view_rect`` names is the seat image's part, pixel for pixel."""
    view = view_geometry(CALIBRATION, px_per_mm)
    side = view.side_px
    image = np.random.default_rng(3).integers(0, 256, (side, side), dtype=np.uint8)
    rng = np.random.default_rng(4)
    parts = [(slice(0, side), slice(0, side)), (slice(0, 7), slice(side - 9, side)), (slice(5, 5), slice(0, 3))]
    parts += [tuple(slice(*sorted(rng.integers(0, side + 1, 2))) for _ in range(2)) for _ in range(20)]
    for seat in range(4):
        upright = seat_image(image, view, seat)
        for columns, lines in parts:
            view_lines, view_columns = view_rect(view, seat, columns, lines)
            turned = np.rot90(image[view_lines, view_columns], view.quarter_turns[seat])
            assert np.array_equal(turned, upright[lines, columns]), (seat, columns, lines)
