"""The aspect judge's training crops (vision.training.aspect_data, no torch): tiles of rendered
pictures shown stretched by known factors, as the run time cuts a squeezed picture's tiles."""

import cv2
import numpy as np
import pytest

from vision.detect.aspect_judge import INPUT_SIZE, aspect_crop
from vision.training.aspect_data import (
    FRAME_SHAPES,
    SQUEEZED_SIDE,
    STRETCHES,
    TILES_PER_PICTURE,
    AspectSet,
    known_squeezes,
    label_set_crops,
    stretched_crops,
)
from vision.training.real_photos import RealPhotoError
from vision.training.seat_view_set import write_set


def _picture() -> np.ndarray:
    picture = np.full((200, 300, 3), 90, np.uint8)
    for x in (60, 130, 200):
        cv2.rectangle(picture, (x, 70), (x + 39, 129), (230, 230, 230), -1)
    return picture


BOXES = [[60, 70, 100, 130], [130, 70, 170, 130], [200, 70, 240, 130]]


def test_each_tile_is_cut_at_stretches_drawn_from_the_range_the_same_for_a_seed():
    crops = stretched_crops(_picture(), BOXES, np.random.default_rng(4), copies=2)
    again = stretched_crops(_picture(), BOXES, np.random.default_rng(4), copies=2)
    assert len(crops) == 6
    assert crops.crops.shape == (6, INPUT_SIZE, INPUT_SIZE, 3)
    assert np.array_equal(crops.crops, again.crops)
    assert np.array_equal(crops.log_stretches, again.log_stretches)
    stretches = np.exp(crops.log_stretches)
    assert (stretches >= STRETCHES[0]).all()
    assert (stretches <= STRETCHES[1]).all()
    assert len(set(np.round(crops.log_stretches, 6))) == 6
    assert len(stretched_crops(_picture(), [], np.random.default_rng(4), copies=2)) == 0


def test_a_crop_stretched_from_the_true_picture_is_what_the_run_time_cuts_from_a_squeezed_one():
    # A picture squeezed to half its width and read at square pixels shows its tiles at a
    # stretch of 0.5: the training crop of the true picture at 0.5 is the same square.
    picture = _picture()
    squeezed = cv2.resize(picture, (150, 200), interpolation=cv2.INTER_AREA)
    run_time = aspect_crop(squeezed, np.array([40.0, 100.0]), 60.0, 1.0)
    training = aspect_crop(picture, np.array([80.0 * 0.5, 100.0]), 60.0, 0.5)
    assert np.abs(run_time.astype(int) - training.astype(int)).mean() < 6


def test_a_picture_gives_at_most_its_share_of_tiles():
    boxes = [[10 + 9 * i, 20, 17 + 9 * i, 30] for i in range(TILES_PER_PICTURE + 6)]
    assert len(stretched_crops(_picture(), boxes, np.random.default_rng(0), copies=1)) == TILES_PER_PICTURE


def test_sets_join_and_an_empty_join_has_the_crops_shape():
    one = stretched_crops(_picture(), BOXES[:1], np.random.default_rng(1), copies=1)
    joined = AspectSet.joined([one, one])
    assert len(joined) == 2
    assert joined.log_stretches.dtype == np.float32
    assert AspectSet.joined([]).crops.shape == (0, INPUT_SIZE, INPUT_SIZE, 3)


def test_a_seat_view_label_sets_tiles_are_cut(tmp_path):
    write_set(tmp_path, 2, first_seed=5_400_010)
    crops = label_set_crops(tmp_path / "labels.json", seed=0, copies=2)
    assert len(crops) >= 10
    assert len(crops) % 2 == 0


def test_a_label_set_that_is_not_one_is_refused_naming_it(tmp_path):
    broken = tmp_path / "labels.json"
    broken.write_text("[1, 2]")
    with pytest.raises(RealPhotoError, match=r"labels\.json"):
        label_set_crops(broken, seed=0, copies=1)


def test_the_known_squeezes_are_square_pictures_of_common_frame_shapes():
    pictures = known_squeezes(range(5_300_000, 5_300_005))
    assert [p.image.shape for p in pictures] == [(SQUEEZED_SIDE, SQUEEZED_SIDE, 3)] * 5
    assert [p.pixel_aspect for p in pictures] == pytest.approx([w / h for w, h in FRAME_SHAPES])
