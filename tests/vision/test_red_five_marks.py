"""Red fives marked by eye on real photographs (``vision.training.red_five_marks``)."""

import json

import cv2
import numpy as np
import pytest

from vision.eval.matching import DetectionScore
from vision.training.real_photos import SOURCES
from vision.training.red_five_marks import MarksError, apply_marks, contact_sheet, load_marks


def _images():
    return {
        "images/a.jpg": [{"box": [0, 0, 10, 14], "tile": "5p"}, {"box": [12, 0, 22, 14], "tile": "3s"}],
        "images/b.jpg": [],
    }


def test_marks_make_fives_red_and_name_unnamed_boxes():
    images, ignore = _images(), {"images/b.jpg": [[1, 1, 9, 13], [20, 1, 29, 13]]}
    marks = {"src": {"images/a.jpg": {"red": [0]}, "images/b.jpg": {"unnamed": {"1": "5m"}}}}
    assert apply_marks("src", images, ignore, marks) == 2
    assert images["images/a.jpg"][0]["red"] is True
    assert "red" not in images["images/a.jpg"][1]
    assert images["images/b.jpg"] == [{"box": [20, 1, 29, 13], "tile": "5m", "red": True}]
    assert ignore == {"images/b.jpg": [[1, 1, 9, 13]]}


def test_a_mark_on_a_tile_that_is_not_a_five_is_refused_by_name():
    with pytest.raises(MarksError, match=r"images/a.jpg tile 1 is not a five"):
        apply_marks("src", _images(), {}, {"src": {"images/a.jpg": {"red": [1]}}})
    with pytest.raises(MarksError, match="not an image of the source"):
        apply_marks("src", _images(), {}, {"src": {"images/zz.jpg": {"red": [0]}}})


def test_other_sources_are_untouched():
    images = _images()
    assert apply_marks("other", images, {}, {"src": {"images/a.jpg": {"red": [0]}}}) == 0
    assert images == _images()


def test_the_shipped_marks_name_known_sources_only():
    marks = load_marks()
    assert "leo-miura" in marks
    assert set(marks) <= set(SOURCES)


def test_the_contact_sheet_numbers_every_five_and_unnamed_box(tmp_path):
    (tmp_path / "images").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "a.jpg"), np.full((40, 40, 3), 200, np.uint8))
    cv2.imwrite(str(tmp_path / "images" / "b.jpg"), np.full((40, 40, 3), 100, np.uint8))
    document = {"images": _images(), "ignore": {"images/b.jpg": [[1, 1, 20, 30]]}}
    (tmp_path / "labels.json").write_text(json.dumps(document))
    sheet, found = contact_sheet(tmp_path / "labels.json", columns=4)
    assert [(name, kind, index) for name, kind, index, _ in found] == [
        ("images/a.jpg", "tile", 0),
        ("images/b.jpg", "unnamed", 0),
    ]
    assert sheet.shape[1] == 4 * 72
    assert (sheet < 255).any()


def test_plain_fives_read_red_are_counted():
    class Truth:
        def __init__(self, label, corners):
            self.label, self.corners, self.sideways, self.angle = label, corners, None, None

    class Found(Truth):
        uncertain = False

    square = np.array([[0, 0], [10, 0], [10, 14], [0, 14]], float)
    score = DetectionScore()
    score.add([Truth(13, square)], [Found(35, square)], 10.0)  # a plain 5p read as the red 5p
    assert (score.plain_fives, score.plain_fives_read_red) == (1, 1)
    assert score.kind_accuracy == 1.0  # the kind is right all the same
