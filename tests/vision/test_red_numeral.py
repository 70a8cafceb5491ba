"""A man tile whose numeral is red is read as the red 5m (vision/classify/red_numeral.py), by
the colour of the crop's numeral half, whichever way up the tile was read."""

import cv2
import numpy as np
import pytest

from tests.vision.art_faces import art_face
from vision.classify.crops import crop_tile
from vision.classify.labels import label_name
from vision.classify.red_numeral import RED_FIVE_MAN, RED_NUMERAL_SHARE, is_red_five_man, red_numeral_share
from vision.enrollment.enroll import measure
from vision.enrollment.head import fit_head
from vision.render.tile_art import ArtStyle


def _crop(label: int, style: ArtStyle = ArtStyle.REGULAR) -> np.ndarray:
    """The art of ``label`` over white, cut as the classifier's crop (the face upright)."""
    face = art_face(label, style)
    height, width = face.shape[:2]
    return crop_tile(face, np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32))


def _numeral_painted_red(crop: np.ndarray) -> np.ndarray:
    """The crop with its top half's dark ink painted a dull red (a set's red numeral)."""
    painted = crop.copy()
    top = painted[: crop.shape[0] // 2]
    dark = top.max(axis=2) < 110
    top[dark] = (40, 40, 170)
    return painted


@pytest.mark.parametrize("style", [ArtStyle.REGULAR, ArtStyle.BLACK])
def test_only_the_red_five_s_numeral_is_red(style):
    shares = {label_name(label): red_numeral_share(_crop(label, style)) for label in range(9)}
    assert max(shares.values()) < RED_NUMERAL_SHARE, shares
    assert red_numeral_share(_crop(RED_FIVE_MAN, style)) >= RED_NUMERAL_SHARE


def test_the_numeral_half_follows_the_way_up_the_tile_was_read():
    six = _crop(5)  # 6m: black numeral above a red 萬
    turned = np.ascontiguousarray(six[::-1, ::-1])
    assert red_numeral_share(turned, numeral_on_top=True) >= RED_NUMERAL_SHARE  # the 萬, now on top
    assert red_numeral_share(turned, numeral_on_top=False) < RED_NUMERAL_SHARE
    assert not is_red_five_man(turned, 5, upside_down=True)
    assert is_red_five_man(np.ascontiguousarray(_crop(RED_FIVE_MAN)[::-1, ::-1]), 4, upside_down=True)


def test_only_a_face_a_red_five_is_read_as_is_made_the_red_5m():
    red_numeral = _numeral_painted_red(_crop(5))
    assert is_red_five_man(red_numeral, 5, upside_down=False)  # read as 6m
    assert is_red_five_man(red_numeral, 4, upside_down=False)  # read as a plain 5m
    assert not is_red_five_man(red_numeral, 2, upside_down=False)  # read as 3m: left alone
    assert not is_red_five_man(red_numeral, 31, upside_down=False)  # read as a white dragon
    assert not is_red_five_man(_crop(5), 5, upside_down=False)
    assert not is_red_five_man(_crop(4), 4, upside_down=False)


def test_a_blank_crop_has_no_red_numeral():
    assert red_numeral_share(np.full((42, 32, 3), 230, np.uint8)) == 0.0


def test_the_classifier_reads_a_man_tile_with_a_red_numeral_as_the_red_5m(shipped_classifier):
    crops = np.stack([_numeral_painted_red(_crop(5)), _crop(5), _crop(RED_FIVE_MAN), _crop(4), _crop(35)])
    readings = shipped_classifier.classify(crops)
    read = [(r.name, r.red) for r in readings]
    assert read == [("5m", True), ("6m", False), ("5m", True), ("5m", False), ("5p", True)]


def test_a_red_numeral_read_upside_down_is_the_red_5m_too(shipped_classifier):
    painted = _numeral_painted_red(_crop(5))
    turned = np.ascontiguousarray(painted[::-1, ::-1])
    reading = shipped_classifier.classify(turned[None])[0]
    assert reading.upside_down
    assert (reading.name, reading.red) == ("5m", True)
    assert cv2.countNonZero(cv2.inRange(turned, (0, 0, 150), (60, 60, 190))) > 0  # the paint is there


def test_enrollment_measures_its_readings_as_the_classifier_gives_them(shipped_classifier):
    crops = np.stack([_numeral_painted_red(_crop(5))] * 4)
    base, features = shipped_classifier.outputs(crops, features=True)
    assert [r.label for r in shipped_classifier.readings(base)] == [5] * 4  # the network alone: 6m
    head = fit_head(features, np.full(4, RED_FIVE_MAN), blend=0.5)
    accuracy = measure(shipped_classifier, head, crops, np.full(4, RED_FIVE_MAN))
    assert (accuracy.before, accuracy.after) == (1.0, 1.0)


def test_a_plain_5m_cut_a_little_low_stays_plain():
    # The live table reader cut a hand's plain 5m about a seventh of a face low under glare: its
    # top half then held the top of the red 萬 and read red; its top 40% does not.
    face = art_face(4, ArtStyle.REGULAR)
    height, width = face.shape[:2]
    low = 0.15 * height
    crop = crop_tile(face, np.array([[0, low], [width, low], [width, height + low], [0, height + low]], np.float32))
    assert red_numeral_share(crop, part=0.5) >= RED_NUMERAL_SHARE  # the half would have called it red
    assert red_numeral_share(crop) < RED_NUMERAL_SHARE
    assert not is_red_five_man(crop, 4, upside_down=False)
    red = _crop(RED_FIVE_MAN)
    assert is_red_five_man(crop_tile(red, np.array([[0, 6], [32, 6], [32, 48], [0, 48]], np.float32)), 4, False)
