"""A photograph's unsure finds count only when enough of its finds read surely; a sure find
always stays. Through ``read_photo`` too, as ``vision detect`` reads a photograph."""

import numpy as np

from vision.classify.classifier import TileReading
from vision.detect.photo_reading import read_photo
from vision.detect.still_photo import Detection
from vision.detect.sure_share import SURE_SHARE_AT_LEAST, without_unsure_noise


def _find(x: float, *, sure: bool) -> Detection:
    corners = np.array([[x, 0], [x + 30, 0], [x + 30, 40], [x, 40]], np.float64)
    reading = TileReading(label=3, confidence=0.95 if sure else 0.2, upside_down=False, uncertain=not sure)
    return Detection(corners, reading, False, 0.9)


def _finds(sure: int, unsure: int) -> list[Detection]:
    return [_find(50 * i, sure=i < sure) for i in range(sure + unsure)]


def test_a_photograph_mostly_read_surely_keeps_its_unsure_finds():
    finds = _finds(sure=7, unsure=3)
    assert without_unsure_noise(finds) == tuple(finds)


def test_a_photograph_mostly_unsure_keeps_only_its_sure_finds():
    finds = _finds(sure=1, unsure=9)
    assert SURE_SHARE_AT_LEAST * len(finds) > 1
    assert without_unsure_noise(finds) == (finds[0],)


def test_a_photograph_with_no_sure_find_keeps_nothing():
    assert without_unsure_noise(_finds(sure=0, unsure=4)) == ()
    assert without_unsure_noise([]) == ()


def test_the_share_is_a_bound_kept_at_it():
    total = 10
    sure = int(np.ceil(SURE_SHARE_AT_LEAST * total))
    finds = _finds(sure=sure, unsure=total - sure)
    assert without_unsure_noise(finds) == tuple(finds)
    fewer = _finds(sure=sure - 1, unsure=total - sure + 1)
    assert len(without_unsure_noise(fewer)) == sure - 1


def test_read_photo_drops_a_mostly_unsure_photographs_unsure_finds():
    frame = np.zeros((72, 128, 3), np.uint8)  # a camera's shape: read once, at square pixels
    noise = _finds(sure=0, unsure=5)
    reading = read_photo(frame, lambda picture: noise)
    assert reading.detections == ()
    assert reading.set_aside == (("read unsurely where most finds are", 5),)
    tiles = _finds(sure=5, unsure=1)
    reading = read_photo(frame, lambda picture: tiles)
    assert reading.detections == tuple(tiles)
    assert reading.set_aside == ()
