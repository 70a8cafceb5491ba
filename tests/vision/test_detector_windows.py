"""The detector's training windows around sideways tiles (torch-free helpers of the recipe)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.forked_comparisons import detector_frames_drawn_twice
from tests.fresh_process import in_a_fresh_process
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


def test_frames_drawn_by_several_processes_are_the_frames_drawn_by_one():
    same = in_a_fresh_process(detector_frames_drawn_twice)
    assert same == {"inputs": True, "targets": True, "sideways": True, "truths": True}


def test_the_window_stream_in_the_loop_draws_the_recipes_windows_from_its_seed():
    torch = pytest.importorskip("torch")
    from vision.training.train_detector import Recipe, WindowStream, windows

    frames = render_frames(range(3, 4))
    recipe = Recipe(batch=4)
    stream = iter(WindowStream(frames.inputs, frames.targets, recipe))
    rng = np.random.default_rng(recipe.seed)
    sideways = sideways_cells_of(frames.targets)
    for _ in range(2):
        x, target = next(stream)
        expected_x, expected_target = windows(frames.inputs, frames.targets, recipe, rng, sideways)
        assert torch.equal(x, expected_x)
        assert torch.equal(target, expected_target)


def test_a_wider_detector_has_more_channels_and_the_same_outputs():
    torch = pytest.importorskip("torch")
    from vision.find.centres import CHANNELS
    from vision.training.detector_model import TileCentreNet

    def parameters(model):
        return sum(p.numel() for p in model.parameters())

    narrow, wide = TileCentreNet(), TileCentreNet(1.5)
    assert narrow.stem[0].out_channels == 16
    assert wide.stem[0].out_channels == 24
    assert parameters(wide) > 1.8 * parameters(narrow)
    with torch.no_grad():
        assert wide(torch.zeros(1, 3, 64, 96)).shape == (1, len(CHANNELS), 32, 48)
