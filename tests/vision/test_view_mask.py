"""The table reader's felt mask (``vision.live.table_reader.tile_mask``): small pieces of felt
that tiles enclose are filled, found by their edges; the same pieces as labelling every pixel
of the view finds. The felt's colour and its light nearby, counted in integers, decide as the
float32 steps they stand for. The colour distance, computed a band of lines at a time, is the
whole view's, bit for bit."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.live.table_reader.tile_mask import (
    _MAX_THRESHOLD,
    _MIN_THRESHOLD,
    _OFFSET,
    _felt_colour,
    _fill_holes,
    brighter_than_felt_nearby,
    colour_distance,
    view_mask,
)


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


def test_a_thin_hole_across_a_large_box_is_counted_and_filled():
    """A crack of felt (a 4-connected staircase) whose box is large but which holds few pixels:
    the felt in its box is no proof it is large, so it is counted (flooded), and filled; the
    felt around the tiles, surely large from what its box holds, is not."""
    mask = np.zeros((100, 100), np.uint8)
    mask[10:80, 10:80] = 1
    for step in range(55):
        mask[15 + step, 15 + step : 17 + step] = 0  # each pixel's right neighbour, then the next line's
    filled = _fill_holes(mask, 200)
    assert filled[10:80, 10:80].all()
    assert not filled[:10].any()
    assert np.array_equal(filled, labelled_fill(mask, 200))
    assert np.array_equal(_fill_holes(mask, 100), mask)  # 110 pixels: not fewer than 100


def test_all_felt_and_all_tile():
    assert not _fill_holes(np.zeros((30, 40), np.uint8), 100).any()
    assert _fill_holes(np.ones((30, 40), np.uint8), 100).all()


def float_brighter(gray: np.ndarray, felt_like: np.ndarray) -> np.ndarray:
    """What ``brighter_than_felt_nearby`` stands for: the float32 box means, their quotient, times 1.6 (0/1)."""
    near = (61, 61)
    felt = felt_like.astype(np.float32)
    felt_light = cv2.blur(gray.astype(np.float32) * felt, near) / np.maximum(cv2.blur(felt, near), 1e-3)
    return np.greater(gray.astype(np.float32), felt_light * np.float32(1.6)).view(np.uint8)


@pytest.mark.parametrize("seed", range(6))
def test_brighter_than_the_felt_nearby_decides_as_the_float_steps(seed):
    """Felt of a few grays (ties: a face exactly 1.6 times the felt's light), faces brighter
    and darker, boxes with no felt or only a few felt pixels (the 1e-3 floor): the same 0/1."""
    rng = np.random.default_rng(seed)
    felt_gray = rng.choice([50, 60, 100, 125])
    gray = np.full((160, 220), felt_gray, np.uint8)
    gray += rng.integers(0, 3, gray.shape, dtype=np.uint8)
    felt_like = np.ones(gray.shape, np.uint8)
    for _ in range(12):
        top, left = rng.integers(0, 140), rng.integers(0, 200)
        height, width = rng.integers(5, 90), rng.integers(5, 90)
        gray[top : top + height, left : left + width] = rng.choice([felt_gray * 8 // 5, 160, 200, 30, 255])
        felt_like[top : top + height, left : left + width] = 0
    felt_like[:70, :70] = 0  # a box with no felt at all, and at its edge boxes with a few felt pixels
    felt_like[rng.integers(0, 70, 3), rng.integers(0, 70, 3)] = 1
    expected = float_brighter(gray, felt_like)
    assert np.array_equal(brighter_than_felt_nearby(gray, felt_like), expected)
    assert 0 < np.count_nonzero(expected) < expected.size


@pytest.mark.parametrize(("height", "width"), [(40, 48), (41, 47)])  # an even and an odd count of samples
def test_felt_colour_is_the_float_median_of_the_sample(height, width):
    view = np.random.default_rng(height).integers(0, 256, (height * 8, width * 8, 3), dtype=np.uint8)
    expected = np.median(view[::8, ::8].reshape(-1, 3).astype(np.float32) + _OFFSET, axis=0)
    got = _felt_colour(view)
    assert got.dtype == expected.dtype
    assert np.array_equal(got, expected)


def whole_view_distance(view: np.ndarray, transform: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """What ``colour_distance`` must give: each step over the whole view at once."""
    pixels = view.astype(np.float32)
    differences = np.abs(cv2.transform(pixels, transform))
    spread = cv2.transform(differences, np.ones((1, 3), np.float32))
    total = cv2.transform(pixels, np.array([[1, 1, 1, 3 * _OFFSET]], np.float32))
    return spread, total


def felt_transform(felt: np.ndarray) -> np.ndarray:
    chroma = felt / felt.sum()
    linear = np.eye(3) - chroma[:, None] * np.ones((1, 3))
    return np.hstack([linear, (linear @ np.full(3, _OFFSET))[:, None]]).astype(np.float32)


def random_table_view(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Noisy felt of a random colour with ivory and coloured blocks on it: tiles, symbols, glare."""
    felt = rng.integers(20, 140, 3)
    view = np.clip(felt + rng.normal(0, 6, (height, width, 3)), 0, 255).astype(np.uint8)
    for _ in range(int(rng.integers(5, 40))):
        top, left = int(rng.integers(0, height)), int(rng.integers(0, width))
        size = rng.integers(3, 40, 2)
        view[top : top + size[0], left : left + size[1]] = rng.integers(0, 256, 3)
    return view


@pytest.mark.parametrize(
    ("height", "width"), [(1095, 1095), (1100, 1097), (70, 33), (64, 8), (33, 3), (31, 1), (1, 200), (97, 65)]
)
def test_the_colour_distance_band_by_band_is_the_whole_view_s(height, width):
    """Bands of 32 lines, each with the lines after it, the last one ending at the view's end:
    every pixel, the last ones too, the same float32 as one pass over the whole view (which
    computes its last few pixels apart from the rest)."""
    rng = np.random.default_rng(height * 10_000 + width)
    view = random_table_view(rng, height, width)
    transform = felt_transform(_felt_colour(view))
    spread, total = colour_distance(view, transform)
    expected_spread, expected_total = whole_view_distance(view, transform)
    assert spread.dtype == total.dtype == np.float32
    assert np.array_equal(spread, expected_spread)
    assert np.array_equal(total, expected_total)


def whole_view_mask(view: np.ndarray, hole_area: float) -> tuple[np.ndarray, np.ndarray]:
    """The felt mask (tiles, gray) as one pass of each step over the whole view computes it."""
    felt = _felt_colour(view)
    spread, total = whole_view_distance(view, felt_transform(felt))
    scaled = np.clip(spread[::8, ::8] / total[::8, ::8] * 400.0, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    threshold = float(np.clip(float(otsu) / 400.0, _MIN_THRESHOLD, _MAX_THRESHOLD))
    gray = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)
    coloured = cv2.compare(spread, total * np.float32(threshold), cv2.CMP_GT)
    brighter = brighter_than_felt_nearby(gray, np.equal(coloured, 0).view(np.uint8))
    mask = np.bitwise_and(cv2.bitwise_or(coloured, brighter), np.uint8(1))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    return _fill_holes(mask, hole_area), gray


@pytest.mark.parametrize("seed", range(4))
def test_the_mask_band_by_band_is_the_whole_view_s(seed):
    rng = np.random.default_rng(seed)
    view = random_table_view(rng, int(rng.integers(200, 400)), int(rng.integers(200, 400)))
    masks = view_mask(view, 300)
    tiles, gray = whole_view_mask(view, 300)
    assert np.array_equal(masks.tiles, tiles)
    assert np.array_equal(masks.gray, gray)
    assert 0 < np.count_nonzero(tiles) < tiles.size
