"""The detector's training windows around sideways tiles (torch-free helpers of the recipe)."""

from __future__ import annotations

import numpy as np

from vision.find.centres import STRIDE
from vision.training.detector_data import render_frames, sideways_cells_of, window_around


def test_sideways_cells_are_the_centres_of_the_sideways_tiles():
    frames = render_frames(range(3, 4))
    (cells,) = sideways_cells_of(frames.targets)
    sideways = [c for c, s in zip(frames.truths[0], frames.sideways[0], strict=True) if s]
    assert len(cells) == len(sideways) > 0
    centres = sorted((c.mean(axis=0)[::-1] // STRIDE).astype(int).tolist() for c in sideways)
    found = sorted(cells.tolist())
    assert all(abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1 for a, b in zip(found, centres, strict=True))


def test_a_window_around_a_sideways_cell_holds_it_and_lies_on_the_grid_inside_the_frame():
    cells = [np.array([[10, 200], [120, 5]]), np.zeros((0, 2), int)]
    rng = np.random.default_rng(0)
    shape, size = (272, 480), 128
    for _ in range(50):
        y, x = window_around(cells, 0, shape, size, rng=rng, fallback=(0, 0))
        assert y % STRIDE == 0
        assert x % STRIDE == 0
        assert 0 <= y <= shape[0] - size
        assert 0 <= x <= shape[1] - size
        inside = [y <= r * STRIDE < y + size and x <= c * STRIDE < x + size for r, c in cells[0]]
        assert any(inside)
    assert window_around(cells, 1, shape, size, rng=rng, fallback=(8, 16)) == (8, 16)
