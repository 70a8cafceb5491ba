"""A strip of tiles its export stretched to a square is read inside a margin
(``vision/detect/strip_margin.py``): on two real photographs never used in training
(``tests/vision/data/real-strips``, CC BY 4.0, see its README), and what the margin does."""

from pathlib import Path

import numpy as np
import pytest

from vision.classify.classifier import OnnxTileClassifier, TileReading
from vision.detect import strip_margin
from vision.detect.aspect_judge import OnnxAspectJudge
from vision.detect.photo_reading import photo_reader
from vision.detect.pixel_aspect import detect_at_pixel_aspect
from vision.detect.still_photo import Detection, make_finder
from vision.detect.strip_margin import MARGIN_BGR, is_strip_squeeze, read_in_margin
from vision.eval.label_eval import score_labelled_images
from vision.eval.label_file import load_labels

FIXTURE = Path(__file__).resolve().parent / "data" / "real-strips"
# Measured with the shipped models as `vision detect` reads them: 26 of the 28 labelled tiles
# found and all 26 read right, in 28 finds; without the margin 2 found, in 3 finds.
FOUND_AT_LEAST = 24
FOUND_WITHOUT_MARGIN_AT_MOST = 4


def test_a_strips_squeeze_is_one_no_common_frame_makes():
    for common in (1.0, 16 / 9, 4 / 3, 3 / 4, 9 / 16):
        assert not is_strip_squeeze(common)
    for strip in (2.4, 5.5, 12.0, 1 / 2.4, 1 / 12):
        assert is_strip_squeeze(strip)


def _found_at(corners: list[list[float]]) -> Detection:
    return Detection(np.array(corners, np.float64), TileReading(0, 0.9, False, False), False)


def test_the_picture_is_read_inside_the_margin_and_its_finds_taken_back_into_it():
    picture = np.full((40, 200, 3), 200, np.uint8)
    framed_pictures = []

    def detect(framed: np.ndarray) -> list[Detection]:
        framed_pictures.append(framed)
        # one face reaching into the margin (as a tile at the picture's edge may), one inside
        return [
            _found_at([[15, 22], [60, 22], [60, 50], [15, 50]]),
            _found_at([[120, 30], [150, 30], [150, 55], [120, 55]]),
        ]

    found = read_in_margin(picture, detect)
    margin = round(strip_margin.MARGIN_SHARE * 40)
    (framed,) = framed_pictures
    assert framed.shape == (40 + 2 * margin, 200 + 2 * margin, 3)
    assert (framed[margin:-margin, margin:-margin] == 200).all()
    assert (framed[:margin] == MARGIN_BGR).all()
    assert (framed[:, -margin:] == MARGIN_BGR).all()
    assert np.array_equal(found[0].corners, [[0, 2], [40, 2], [40, 30], [0, 30]])  # clipped into the picture
    assert np.array_equal(found[1].corners, [[100, 10], [130, 10], [130, 35], [100, 35]])


def test_only_a_strips_squeeze_is_read_inside_a_margin():
    square = np.full((120, 120, 3), 200, np.uint8)
    seen: dict[float, tuple[int, ...]] = {}

    def detect_noting(aspect: float):
        def detect(picture: np.ndarray) -> list[Detection]:
            seen[aspect] = picture.shape[:2]
            return []

        return detect

    for aspect in (16 / 9, 1 / 12):
        detect_at_pixel_aspect(square, detect_noting(aspect), aspect)
    assert seen[16 / 9] == (120, 213)  # restored as it is: 16:9 is a common frame's squeeze
    # 1:12 narrows it under the least width read, so its height is scaled up (120 × 1440), then
    # it is framed by half its width on every side
    assert seen[1 / 12] == (1440 + 120, 120 + 120)


@pytest.fixture(scope="module")
def read():
    return photo_reader(OnnxTileClassifier(), make_finder("learnt"), None, OnnxAspectJudge())


def _score(read):
    return score_labelled_images(
        load_labels(FIXTURE / "labels.json"), FIXTURE, lambda image: read(image).detections, 0.3
    )[0]


def test_a_strips_tiles_are_found_and_read_inside_the_margin(read, monkeypatch):
    score = _score(read)
    assert score.truths == 28
    assert score.matched >= FOUND_AT_LEAST
    assert score.kind_correct >= score.matched - 1
    assert score.detections <= score.truths + 2
    monkeypatch.setattr(strip_margin, "STRIP_AT_LEAST", float("inf"))  # no squeeze is a strip's
    assert _score(read).matched <= FOUND_WITHOUT_MARGIN_AT_MOST
