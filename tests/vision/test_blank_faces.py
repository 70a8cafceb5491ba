"""A photograph whose every find reads as a blank face (5z) keeps none: a white box, paper or
a die looks like one. Among other faces a white dragon stays. Through ``read_photo`` too."""

import numpy as np

from vision.classify.classifier import TileReading
from vision.classify.labels import WHITE_DRAGON_LABEL, label_name
from vision.detect.blank_faces import without_blanks_alone
from vision.detect.photo_reading import read_photo
from vision.detect.still_photo import Detection


def _find(x: float, label: int) -> Detection:
    corners = np.array([[x, 0], [x + 30, 0], [x + 30, 40], [x, 40]], np.float64)
    return Detection(corners, TileReading(label, 0.97, False, False), False, 0.8)


def test_the_blank_label_is_the_white_dragon():
    assert label_name(WHITE_DRAGON_LABEL) == "5z"


def test_blank_faces_alone_are_no_tiles():
    blanks = [_find(50 * i, WHITE_DRAGON_LABEL) for i in range(3)]
    assert without_blanks_alone(blanks) == ()
    assert without_blanks_alone([]) == ()


def test_a_white_dragon_among_other_faces_stays():
    finds = [_find(0, WHITE_DRAGON_LABEL), _find(50, 3), _find(100, WHITE_DRAGON_LABEL)]
    assert without_blanks_alone(finds) == tuple(finds)


def test_read_photo_drops_a_photographs_lone_blanks():
    frame = np.zeros((72, 128, 3), np.uint8)
    reading = read_photo(frame, lambda picture: [_find(0, WHITE_DRAGON_LABEL)])
    assert reading.detections == ()
    assert [why for why, _ in reading.set_aside] == ["blank faces alone (a white box or paper reads as a white dragon)"]
    mixed = [_find(0, WHITE_DRAGON_LABEL), _find(50, 30)]
    assert read_photo(frame, lambda picture: mixed).detections == tuple(mixed)
