"""The tile verifier's examples (vision/training/verifier_data.py): the detector's finds called a
tile, not a tile, or left out, against the labels."""

import json

import cv2
import numpy as np
import pytest

from tests.forked_comparisons import verifier_crops_mined_twice
from tests.fresh_process import in_a_fresh_process
from vision.classify.crops import CROP_SIZE
from vision.find.finder import FindResult, FoundTile
from vision.training.verifier_data import calls, is_validation_group, mine_label_set, part_quads


def _quad(cx, cy, w=20.0, h=28.0):
    return np.array(
        [[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2], [cx + w / 2, cy + h / 2], [cx - w / 2, cy + h / 2]]
    )


def test_a_matched_find_is_a_tile_a_far_one_or_one_of_another_size_is_not_and_a_second_find_is_left_out():
    truths = [_quad(50, 50), _quad(71, 50)]
    found = [
        _quad(51, 50),  # on the first tile
        _quad(50, 52),  # a second find on the first tile: neither
        _quad(71, 50, 60, 80),  # on the second tile's centre but three times its size: a box over several
        _quad(200, 50),  # far from every tile: a book spine
        _quad(60.5, 50),  # on the seam of the two: a box across both
        _quad(73, 48, 8, 11),  # a glyph of the second tile's face
        _quad(71.5, 50),  # on the second tile
        _quad(70, 50, 24, 33),  # a second find on the second tile, a little longer: neither
    ]
    assert calls(truths, found) == [True, None, False, False, False, False, True, None]


def test_a_find_in_an_ignore_box_is_left_out_and_with_no_tile_every_find_is_not_one():
    found = [_quad(200, 50), _quad(400, 300)]
    assert calls([_quad(50, 50)], found, ignore=[(180.0, 30.0, 220.0, 70.0)]) == [None, False]
    assert calls([], found) == [False, False]
    assert calls([_quad(50, 50)], []) == []


def test_validation_groups_are_a_fixed_share_chosen_by_name():
    groups = [f"photo-{i}" for i in range(2000)]
    share = sum(map(is_validation_group, groups)) / len(groups)
    assert 0.12 < share < 0.18
    assert [is_validation_group(g) for g in groups[:50]] == [is_validation_group(g) for g in groups[:50]]


class _GivenFinder:
    """Finds what it is told to, per image size (the images are told apart by their width)."""

    def __init__(self, quads_by_width):
        self.quads_by_width = quads_by_width

    def find(self, image):
        quads = self.quads_by_width[image.shape[1]]
        return FindResult(tuple(FoundTile(q, False) for q in quads), None)


def _label_set(root):
    (root / "images").mkdir(parents=True)
    cv2.imwrite(str(root / "images" / "a.png"), np.full((120, 300, 3), 100, np.uint8))
    cv2.imwrite(str(root / "images" / "room.png"), np.full((120, 310, 3), 60, np.uint8))
    document = {
        "format": "jantaku-labels",
        "version": 1,
        "images": {"images/a.png": [{"box": [40, 36, 60, 64], "tile": "1m"}], "images/room.png": []},
        "ignore": {},
        "groups": {"images/a.png": "a", "images/room.png": "room"},
        "augmented": [],
        "negatives": ["images/room.png"],
        "split": {"a": "train", "room": "train"},
    }
    (root / "labels.json").write_text(json.dumps(document), encoding="utf-8")


def test_mining_a_label_set_crops_each_called_find_and_every_find_on_a_negative_is_not_a_tile(tmp_path):
    _label_set(tmp_path)
    finder = _GivenFinder({300: [_quad(50, 50), _quad(200, 60)], 310: [_quad(100, 60), _quad(150, 60)]})
    crops = mine_label_set(tmp_path / "labels.json", finder, seed=1, copies=3, parts=2)
    assert crops.images.shape == (14, CROP_SIZE[1], CROP_SIZE[0], 3)
    # the tile's find, the far find, two pieces of the labelled face; then the room's two finds
    assert crops.tiles.tolist() == [True] * 3 + [False] * 3 + [False] * 2 + [False] * 6
    assert crops.validation.tolist() == [is_validation_group("a")] * 8 + [is_validation_group("room")] * 6


def test_pieces_of_a_face_lie_inside_it_and_are_smaller():
    truth = _quad(100, 100, 40, 56)
    pieces = part_quads([truth], np.random.default_rng(3), 50)
    assert len(pieces) == 50
    for piece in pieces:
        assert np.all(piece.min(axis=0) >= truth.min(axis=0) - 1e-6)
        assert np.all(piece.max(axis=0) <= truth.max(axis=0) + 1e-6)
        assert 0.3 * 56 <= np.linalg.norm(piece[3] - piece[0]) <= 0.7 * 56


def test_an_unreadable_image_is_named(tmp_path):
    _label_set(tmp_path)
    (tmp_path / "images" / "a.png").write_bytes(b"broken")
    with pytest.raises(ValueError, match=r"images/a\.png: not a readable image"):
        mine_label_set(tmp_path / "labels.json", _GivenFinder({}), seed=1)


def test_rendered_tables_mined_by_several_processes_give_the_crops_of_one():
    mined = in_a_fresh_process(verifier_crops_mined_twice)
    assert mined["tiles"] > 100  # the detector finds the rendered tiles
    assert mined["not_tiles"] >= mined["tiles"]  # each face gives a piece of itself as a negative
    assert (mined["images"], mined["labels"], mined["validation"]) == (True, True, True)
