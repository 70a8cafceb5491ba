"""The aspect judge (vision.detect.aspect_judge): each found tile cut as the picture looks at
a tried pixel aspect, and the shipped network's word on how much wider than true it shows."""

import json
import shutil

import cv2
import numpy as np
import pytest

from vision.detect.aspect_judge import (
    DEFAULT_ASPECT_JUDGE,
    INPUT_SIZE,
    AspectModelError,
    OnnxAspectJudge,
    aspect_crop,
    aspect_judge_option,
    crops_at,
)
from vision.render.seat_view import render_seat_view


def _tile_picture() -> np.ndarray:
    """A 240×240 felt with a 40×60 light face and a dark mark in its top left, centred at (120, 120)."""
    picture = np.full((240, 240, 3), (40, 110, 40), np.uint8)
    cv2.rectangle(picture, (100, 90), (139, 149), (235, 235, 235), -1)
    cv2.rectangle(picture, (104, 94), (115, 109), (20, 20, 160), -1)
    return picture


def test_a_squeezed_picture_cut_at_its_pixel_aspect_shows_the_tile_as_the_unsqueezed_one_does():
    picture = _tile_picture()
    squeezed = cv2.resize(picture, (120, 240), interpolation=cv2.INTER_AREA)  # pixel aspect 2
    as_is = aspect_crop(picture, np.array([120.0, 120.0]), 60.0, 1.0)
    restored = aspect_crop(squeezed, np.array([120.0, 120.0]), 60.0, 2.0)
    assert as_is.shape == restored.shape == (INPUT_SIZE, INPUT_SIZE, 3)
    assert np.abs(as_is.astype(int) - restored.astype(int)).mean() < 6
    # read at square pixels the squeezed tile is half as wide: a different crop
    unrestored = aspect_crop(squeezed, np.array([60.0, 120.0]), 60.0, 1.0)
    assert np.abs(as_is.astype(int) - unrestored.astype(int)).mean() > 10


def test_the_crop_spans_two_tile_lengths_about_the_centre():
    crop = aspect_crop(_tile_picture(), np.array([120.0, 120.0]), 60.0, 1.0)
    light = (crop.mean(axis=2) > 180).astype(np.uint8)
    ys, xs = np.nonzero(light)
    # the face is 60 px tall in a crop 120 px across: half the crop's height, and 40/60 of that wide
    assert ys.max() - ys.min() + 1 == pytest.approx(INPUT_SIZE / 2, abs=2)
    assert xs.max() - xs.min() + 1 == pytest.approx(INPUT_SIZE / 2 * 40 / 60, abs=2)


def test_crops_at_take_quads_in_the_pictures_own_pixels():
    squeezed = cv2.resize(_tile_picture(), (120, 240), interpolation=cv2.INTER_AREA)
    quad = np.array([[50.0, 90.0], [70.0, 90.0], [70.0, 150.0], [50.0, 150.0]])  # the face, squeezed
    crops = crops_at(squeezed, [quad], 2.0)
    assert crops.shape == (1, INPUT_SIZE, INPUT_SIZE, 3)
    assert np.array_equal(crops[0], aspect_crop(squeezed, np.array([120.0, 120.0]), 60.0, 2.0))
    assert crops_at(squeezed, [], 2.0).shape == (0, INPUT_SIZE, INPUT_SIZE, 3)


@pytest.mark.parametrize(("tile_long", "aspect"), [(0.0, 1.0), (-3.0, 1.0), (20.0, 0.0)])
def test_a_crop_of_no_size_or_aspect_is_refused(tile_long, aspect):
    with pytest.raises(ValueError, match="must be positive"):
        aspect_crop(_tile_picture(), np.array([120.0, 120.0]), tile_long, aspect)


@pytest.fixture(scope="module")
def judge():
    return OnnxAspectJudge()


def test_the_judge_reads_only_crops_of_its_size(judge):
    assert judge.log_stretches(np.zeros((0, INPUT_SIZE, INPUT_SIZE, 3), np.uint8)).shape == (0,)
    with pytest.raises(ValueError, match="64×64×3 uint8"):
        judge.log_stretches(np.zeros((2, 48, 48, 3), np.uint8))
    with pytest.raises(ValueError, match="uint8"):
        judge.log_stretches(np.zeros((2, INPUT_SIZE, INPUT_SIZE, 3), np.float32))


def test_the_option_loads_the_shipped_judge_none_or_another_file(tmp_path):
    assert aspect_judge_option("none") is None
    assert aspect_judge_option(" None ") is None
    assert aspect_judge_option(None).sha256 == OnnxAspectJudge(DEFAULT_ASPECT_JUDGE).sha256
    with pytest.raises(AspectModelError, match=r"missing\.onnx"):
        aspect_judge_option(str(tmp_path / "missing.onnx"))


def test_a_model_for_other_crops_is_refused_naming_both(tmp_path):
    model = tmp_path / "tile-aspect.onnx"
    shutil.copy(DEFAULT_ASPECT_JUDGE, model)
    metadata = json.loads(DEFAULT_ASPECT_JUDGE.with_suffix(".json").read_text())
    metadata["input"]["context"] = 3.0
    model.with_suffix(".json").write_text(json.dumps(metadata))
    with pytest.raises(AspectModelError, match=r"3\.0 tile lengths; this code cuts 64 px of 2\.0"):
        OnnxAspectJudge(model)


def test_a_seat_views_tiles_shown_at_their_true_width_are_judged_unstretched_and_squeezed_ones_narrow(judge):
    # Seeds apart from the recipe's seat-view sets (5 000 000+, 5 200 000+) and its check (5 300 000+).
    at_true, at_square = [], []
    for seed in (5_400_000, 5_400_001, 5_400_002):
        scene = render_seat_view(seed, (960, 720), scattered=seed % 2 == 1)
        quads = [np.asarray(t.corners, np.float64) for t in scene.truths]
        squeezed = cv2.resize(scene.image, (480, 720), interpolation=cv2.INTER_AREA)  # pixel aspect 2
        half_wide = [q * (0.5, 1.0) for q in quads]
        at_true.extend(judge.stretches_at(squeezed, half_wide, 2.0))
        at_square.extend(judge.stretches_at(squeezed, half_wide, 1.0))
    assert len(at_true) >= 15
    assert abs(np.median(at_true)) < 0.2
    assert np.median(at_square) < np.log(0.5) + 0.25  # shown half as wide as they are
