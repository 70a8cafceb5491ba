"""A still photograph read a second time as its first reading calls for
(vision.detect.second_looks): each look's change read again, kept when surer, in order."""

import numpy as np

from vision.classify.classifier import TileReading
from vision.detect.pixel_aspect import AspectReading
from vision.detect.second_looks import SecondLook, with_second_looks
from vision.detect.still_photo import Detection

CORNERS = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 14.0], [0.0, 14.0]])


def _reading(confidence: float) -> AspectReading:
    found = Detection(CORNERS, TileReading(0, confidence, False, confidence < 0.6), False)
    return AspectReading(1.0, (found,), (("far off the photograph's tile size", 1),))


def _read_by_brightness(read_pictures):
    """A reader whose sureness is the picture's mean brightness over 255, recording each picture read."""

    def read(picture):
        read_pictures.append(picture.copy())
        return _reading(float(picture.mean()) / 255.0)

    return read


def _brightened(by):
    return lambda picture, found: np.clip(picture.astype(int) + by, 0, 255).astype(np.uint8)


def test_no_look_called_for_reads_once():
    pictures: list = []
    reading = with_second_looks(_read_by_brightness(pictures), [SecondLook("never", lambda p, f: None)])(
        np.full((8, 8, 3), 100, np.uint8)
    )
    assert len(pictures) == 1
    assert reading.read_again == ()
    assert reading.set_aside == (("far off the photograph's tile size", 1),)


def test_each_look_runs_on_the_picture_kept_and_a_surer_reading_is_kept():
    pictures: list = []
    looks = [SecondLook("brighter", _brightened(50)), SecondLook("brighter still", _brightened(20))]
    reading = with_second_looks(_read_by_brightness(pictures), looks)(np.full((8, 8, 3), 100, np.uint8))
    assert [int(p.mean()) for p in pictures] == [100, 150, 170]  # the second look saw the first's picture
    assert reading.read_again == ("brighter", "brighter still")
    assert reading.detections[0].reading.confidence == 170 / 255


def test_a_second_reading_not_surer_is_dropped_and_the_next_look_sees_the_first_picture():
    pictures: list = []
    looks = [SecondLook("darker", _brightened(-50)), SecondLook("brighter", _brightened(20))]
    reading = with_second_looks(_read_by_brightness(pictures), looks)(np.full((8, 8, 3), 100, np.uint8))
    assert [int(p.mean()) for p in pictures] == [100, 50, 120]
    assert reading.read_again == ("brighter",)
