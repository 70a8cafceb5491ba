"""``vision.geometry.rectangle_corners``: a rectangle about a centre, its length along a unit
vector (the riichi sticks, the table's things and the seat views' point sticks use it)."""

import numpy as np
import pytest

from vision.geometry import rectangle_corners


def test_an_axis_aligned_rectangle_has_its_corners_in_order():
    corners = rectangle_corners(np.array([10.0, 20.0]), np.array([1.0, 0.0]), 5.0, 2.0)
    assert corners.tolist() == [[5.0, 18.0], [15.0, 18.0], [15.0, 22.0], [5.0, 22.0]]


@pytest.mark.parametrize("turn", [0.3, 1.2, 2.8])
def test_a_turned_rectangle_keeps_its_sides_and_centre(turn):
    along = np.array([np.cos(turn), np.sin(turn)])
    corners = rectangle_corners(np.array([3.0, -4.0]), along, 42.5, 4.0)
    assert corners.mean(axis=0) == pytest.approx([3.0, -4.0])
    assert np.linalg.norm(corners[1] - corners[0]) == pytest.approx(85.0)
    assert np.linalg.norm(corners[2] - corners[1]) == pytest.approx(8.0)
    assert (corners[1] - corners[0]) @ (corners[2] - corners[1]) == pytest.approx(0.0, abs=1e-9)
    assert (corners[1] - corners[0]) / 85.0 == pytest.approx(along)
