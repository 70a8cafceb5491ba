"""The table reader's felt mask (``vision.live.table_reader.tile_mask``): small pieces of felt
that tiles enclose are filled, found by their edges; the same pieces as labelling every pixel
of the view finds."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.live.table_reader.tile_mask import _fill_holes


def labelled_fill(mask: np.ndarray, largest: float) -> np.ndarray:
    """What the fill must be: every 4-connected piece of felt of fewer than ``largest``
    pixels, labelled over the whole mask, set to tile."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(1 - mask, connectivity=4)
    small = stats[:, cv2.CC_STAT_AREA] < largest
    small[0] = False  # label 0 is the tile
    return np.where(small[labels], 1, mask).astype(np.uint8)


def ring(mask: np.ndarray, left: int, top: int, side: int, wall: int = 3) -> None:
    """A square of tile ``side`` px with a hole inside it, ``wall`` px thick."""
    mask[top : top + side, left : left + side] = 1
    mask[top + wall : top + side - wall, left + wall : left + side - wall] = 0


def test_a_small_hole_is_filled_and_a_large_one_kept():
    mask = np.zeros((120, 200), np.uint8)
    ring(mask, 10, 10, 16)  # a hole of 10×10 px
    ring(mask, 60, 10, 60)  # a hole of 54×54 px
    filled = _fill_holes(mask, 400)
    assert filled[15:21, 15:21].all()
    assert not filled[20:60, 70:110].any()
    assert not filled[100:, :].any()  # the felt around the tiles stays felt
    assert np.array_equal(filled, labelled_fill(mask, 400))


def test_felt_that_tiles_cut_off_at_the_view_s_edge_is_a_hole_too():
    """A small corner of felt between a row of tile and the view's edge is enclosed as far
    as the view shows: filled, as when the whole view is labelled."""
    mask = np.zeros((100, 100), np.uint8)
    mask[6:9, :12] = 1
    mask[:9, 9:12] = 1  # encloses a 6×9 px corner against the top and left edges
    filled = _fill_holes(mask, 100)
    assert filled[:6, :9].all()
    assert np.array_equal(filled, labelled_fill(mask, 100))


def test_a_hole_holding_a_tile_with_a_hole_of_its_own():
    """Nested: felt inside tile inside a large hole inside tile. The large hole keeps its
    felt (its own pixels count, not its island's), the island's small hole is filled."""
    mask = np.zeros((140, 140), np.uint8)
    ring(mask, 10, 10, 120)  # a hole of 114×114 px
    ring(mask, 50, 50, 20)  # an island in it, with a 14×14 hole
    filled = _fill_holes(mask, 1000)
    assert filled[54:66, 54:66].all()
    assert not filled[20:40, 20:40].any()
    assert np.array_equal(filled, labelled_fill(mask, 1000))


@pytest.mark.parametrize("seed", range(12))
def test_random_felt_and_tile_fill_as_labelling_every_pixel_does(seed):
    """Speckled tile of every shape (thin walls, diagonal touches, pieces at every edge),
    several sizes of hole: the same pixels filled as the labelled fill."""
    rng = np.random.default_rng(seed)
    noise = (rng.random((90, 130)) < rng.uniform(0.3, 0.6)).astype(np.uint8)
    mask = cv2.morphologyEx(noise, cv2.MORPH_CLOSE, np.ones((2, 2), np.uint8))
    for largest in (3, 20, 150, 2000):
        assert np.array_equal(_fill_holes(mask, largest), labelled_fill(mask, largest)), largest


def test_all_felt_and_all_tile():
    assert not _fill_holes(np.zeros((30, 40), np.uint8), 100).any()
    assert _fill_holes(np.ones((30, 40), np.uint8), 100).all()
