"""Finds far off a photograph's typical tile size are dropped: a piece of a face always, a
large find only when it reads unsurely (a tile close to the camera reads surely)."""

import numpy as np

from vision.classify.classifier import TileReading
from vision.detect.still_photo import Detection
from vision.detect.tile_sizes import LARGER_UNSURE_AT_MOST, SMALLER_AT_MOST, of_one_size
from vision.geometry import long_edge


def _tile(x: float, long: float, *, uncertain: bool = False) -> Detection:
    short = long * 0.75
    corners = np.array([[x, 0], [x + short, 0], [x + short, long], [x, long]], np.float64)
    return Detection(
        corners,
        TileReading(label=0, confidence=0.5 if uncertain else 0.99, upside_down=False, uncertain=uncertain),
        False,
    )


def test_the_long_edge_is_the_longer_of_a_quads_two_edges():
    assert long_edge(_tile(0, 40).corners) == 40
    turned = np.array([[0, 0], [40, 0], [40, 30], [0, 30]], np.float64)
    assert long_edge(turned) == 40


def test_a_piece_of_a_face_is_dropped_and_tiles_of_the_typical_size_stay():
    row = [_tile(60 * i, 40 + i) for i in range(5)]
    glyph = _tile(400, 40 * SMALLER_AT_MOST - 1)
    kept = of_one_size([*row, glyph])
    assert kept == tuple(row)


def test_a_large_find_stays_when_read_surely_and_goes_when_not():
    row = [_tile(60 * i, 40) for i in range(5)]
    close_up = _tile(400, 40 * LARGER_UNSURE_AT_MOST + 5)
    spine = _tile(600, 40 * LARGER_UNSURE_AT_MOST + 5, uncertain=True)
    a_little_large = _tile(800, 40 * LARGER_UNSURE_AT_MOST - 5, uncertain=True)
    kept = of_one_size([*row, close_up, spine, a_little_large])
    assert kept == (*row, close_up, a_little_large)


def test_two_finds_have_no_typical_size_and_are_kept():
    pair = [_tile(0, 40), _tile(60, 10)]
    assert of_one_size(pair) == tuple(pair)
    assert of_one_size([]) == ()
