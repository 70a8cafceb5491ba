"""A still photograph read end to end (``vision.detect.photo_reading.read_photo``): the squeeze
chosen on the finds as found when a chooser is given, the reading itself by ``detect``."""

import numpy as np
import pytest

from vision.classify.classifier import TileReading
from vision.detect.photo_reading import read_photo
from vision.detect.still_photo import Detection

CORNERS = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 14.0], [0.0, 14.0]])


def _found(confidence: float, label: int = 0) -> Detection:
    reading = TileReading(label=label, confidence=confidence, upside_down=False, uncertain=confidence < 0.6)
    return Detection(CORNERS, reading, False, None)


def test_the_squeeze_is_chosen_on_the_finds_as_found_and_read_by_detect():
    widths: list[tuple[str, int]] = []

    def as_found(picture):  # reads surest at 16:9
        widths.append(("chooser", picture.shape[1]))
        return [_found(0.9 if picture.shape[1] == 178 else 0.5)]

    def rescued(picture):  # second cuts make every squeeze read surely, square pixels surest
        widths.append(("detect", picture.shape[1]))
        return [_found(0.95 if picture.shape[1] == 100 else 0.9, label=7)]

    square = np.zeros((100, 100, 3), np.uint8)
    reading = read_photo(square, rescued, choose_with=as_found)
    assert reading.pixel_aspect == pytest.approx(16 / 9)
    assert [d.reading.label for d in reading.detections] == [7]  # read by detect, not the chooser
    assert [who for who, _ in widths].count("detect") == 1
    # without a chooser, detect's own surest squeeze
    assert read_photo(square, rescued).pixel_aspect == 1.0


def test_a_picture_of_a_cameras_shape_is_read_once_and_the_chooser_not_asked():
    asked = []
    frame = np.zeros((72, 128, 3), np.uint8)
    reading = read_photo(frame, lambda picture: [_found(0.9)], choose_with=lambda picture: asked.append(1) or [])
    assert reading.pixel_aspect == 1.0
    assert len(reading.detections) == 1
    assert asked == []


def test_a_given_pixel_aspect_needs_no_chooser():
    asked = []
    square = np.zeros((100, 100, 3), np.uint8)
    reading = read_photo(square, lambda picture: [_found(0.9)], 2.0, choose_with=lambda picture: asked.append(1) or [])
    assert reading.pixel_aspect == 2.0
    assert asked == []
