"""A picture squeezed to a square (as data-set exports are) is read at its true shape: the
pixel aspect given, or tried and chosen by how surely the tiles read."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.classify.classifier import OnnxTileClassifier, TileReading
from vision.detect.photo_reading import read_photo
from vision.detect.pixel_aspect import (
    COMMON_PIXEL_ASPECTS,
    NEAR_TIE,
    STRIP_PIXEL_ASPECTS,
    AspectReading,
    detect_any_pixel_aspect,
    detect_at_pixel_aspect,
    gradient_spread,
    judged_stretch,
    parse_pixel_aspect,
    pixel_aspect_name,
    pixel_aspects_to_try,
)
from vision.detect.still_photo import Detection, detect_tiles
from vision.eval.label_eval import score_labelled_images
from vision.eval.label_file import load_ignored, load_labels
from vision.find.learnt import LearntTileFinder
from vision.render.renderer import RenderOptions, render_table
from vision.render.tile_art import ArtStyle

FIXTURE = Path(__file__).resolve().parent / "data" / "real-photos"


@pytest.mark.parametrize(
    ("text", "value"),
    [("auto", None), ("AUTO", None), ("1", 1.0), ("16:9", 16 / 9), ("3:4", 0.75), ("1.5", 1.5), (" 4:3 ", 4 / 3)],
)
def test_a_pixel_aspect_is_auto_a_number_or_a_frame_shape(text, value):
    parsed = parse_pixel_aspect(text)
    assert parsed == pytest.approx(value) if value is not None else parsed is None


@pytest.mark.parametrize(
    ("text", "complaint"), [("wide", "give auto"), ("16:0", "give auto"), ("0", "0.25 to 4"), ("9", "0.25 to 4")]
)
def test_a_bad_pixel_aspect_is_refused_naming_it(text, complaint):
    with pytest.raises(ValueError, match=complaint) as error:
        parse_pixel_aspect(text)
    assert repr(text) in str(error.value)


def test_common_aspects_have_their_frame_shapes_names():
    assert [pixel_aspect_name(a) for a in COMMON_PIXEL_ASPECTS] == ["1", "16:9", "4:3", "3:4", "9:16"]
    assert pixel_aspect_name(1.5) == "1.5"
    assert [pixel_aspect_name(a) for a in (5.5, 1 / 12, 12.0)] == ["5.5:1", "1:12", "12:1"]


def _detection(corners: np.ndarray, confidence: float, face_score: float | None = None) -> Detection:
    reading = TileReading(label=0, confidence=confidence, upside_down=False, uncertain=False)
    return Detection(np.asarray(corners, np.float64), reading, False, face_score)


def test_corners_found_on_the_widened_picture_map_back_to_the_given_one():
    seen = []

    def detect(image):
        seen.append(image.shape)
        # a tile at x 160-200 of the widened picture, y 50-100
        return [_detection([[160, 50], [200, 50], [200, 100], [160, 100]], 0.9)]

    image = np.zeros((300, 200, 3), np.uint8)
    (found,) = detect_at_pixel_aspect(image, detect, 2.0)
    assert seen == [(300, 400, 3)]
    assert found.corners.tolist() == [[80, 50], [100, 50], [100, 100], [80, 100]]
    assert found.reading.confidence == 0.9


def test_a_large_picture_is_restored_by_shrinking_its_height_not_by_widening_it():
    shapes = []
    image = np.zeros((3000, 4000, 3), np.uint8)
    detect_at_pixel_aspect(image, lambda picture: shapes.append(picture.shape) or [], 16 / 9)
    assert shapes == [(1688, 4000, 3)]


def test_a_small_picture_is_restored_by_widening_its_height_not_by_narrowing_it():
    shapes = []
    image = np.zeros((60, 80, 3), np.uint8)
    detect_at_pixel_aspect(image, lambda picture: shapes.append(picture.shape) or [], 9 / 16)
    detect_at_pixel_aspect(np.zeros((300, 400, 3), np.uint8), lambda picture: shapes.append(picture.shape) or [], 3 / 4)
    assert shapes == [(107, 80, 3), (300, 300, 3)]


def test_a_small_picture_is_read_at_every_common_aspect_without_an_error(reader):
    # 50 px across: narrowed to 9:16 it would be 28 px, under the finder's 32
    table = render_table(3_300_001, RenderOptions(size=(50, 40), style=ArtStyle.BLACK, px_per_mm=(0.9, 1.0)))
    chosen = detect_any_pixel_aspect(table.image, reader, COMMON_PIXEL_ASPECTS)
    assert chosen.pixel_aspect in COMMON_PIXEL_ASPECTS


@pytest.mark.parametrize(("shape", "tried"), [((640, 640), 5), ((641, 640), 5), ((720, 1280), 1), ((480, 640), 1)])
def test_only_a_square_picture_is_suspected_of_a_squeeze(shape, tried):
    assert len(pixel_aspects_to_try(np.zeros((*shape, 3), np.uint8))) == tried
    widths = []
    detect_any_pixel_aspect(np.zeros((*shape, 3), np.uint8), lambda picture: widths.append(picture.shape[1]) or [])
    assert len(widths) == tried
    assert widths[0] == shape[1]  # square pixels first


def test_square_pixels_pass_the_picture_through_untouched():
    image = np.zeros((40, 60, 3), np.uint8)
    assert detect_at_pixel_aspect(image, lambda picture: [picture], 1.0)[0] is image  # type: ignore[list-item]


def test_the_aspect_whose_tiles_read_surest_is_chosen_and_ties_keep_the_first():
    corners = [[0, 0], [10, 0], [10, 14], [0, 14]]

    def sure_when_twice_as_wide(image):
        return [_detection(corners, 0.95 if image.shape[1] == 200 else 0.6)] * 3

    image = np.zeros((100, 100, 3), np.uint8)
    chosen = detect_any_pixel_aspect(image, sure_when_twice_as_wide, (1.0, 2.0, 0.5))
    assert chosen.pixel_aspect == 2.0
    assert len(chosen.detections) == 3
    assert detect_any_pixel_aspect(image, lambda picture: [], (1.0, 2.0)).pixel_aspect == 1.0
    assert detect_any_pixel_aspect(image, lambda picture: [_detection(corners, 0.7)], (1.0, 2.0)).pixel_aspect == 1.0
    with pytest.raises(ValueError, match="at least one"):
        detect_any_pixel_aspect(image, sure_when_twice_as_wide, ())


def test_finds_that_look_less_like_faces_lose_to_finds_read_a_little_less_surely():
    # A squeezed face's glyphs read surely (a circle as 1p) but look less like faces.
    corners = [[0, 0], [10, 0], [10, 14], [0, 14]]

    def glyphs_at_square_pixels(image):
        if image.shape[1] == 200:  # the true aspect: whole faces
            return [_detection(corners, 0.8, 0.95)] * 3
        return [_detection(corners, 0.9, 0.5)] * 3

    image = np.zeros((100, 100, 3), np.uint8)
    assert detect_any_pixel_aspect(image, glyphs_at_square_pixels, (1.0, 2.0)).pixel_aspect == 2.0
    # with no verifier's score, the surer reading wins
    unverified = lambda picture: [_detection(corners, 0.8 if picture.shape[1] == 200 else 0.9)]  # noqa: E731
    assert detect_any_pixel_aspect(image, unverified, (1.0, 2.0)).pixel_aspect == 1.0


def test_each_finds_confidence_is_weighed_by_its_own_face_score():
    # Both aspects' finds have the same mean confidence and the same mean face score; at the
    # true aspect the surely read find is the one that looks like a face.
    corners = [[0, 0], [10, 0], [10, 14], [0, 14]]

    def paired_at_twice_as_wide(image):
        if image.shape[1] == 200:
            return [_detection(corners, 0.9, 0.9), _detection(corners, 0.3, 0.3)]
        return [_detection(corners, 0.9, 0.3), _detection(corners, 0.3, 0.9)]

    image = np.zeros((100, 100, 3), np.uint8)
    assert detect_any_pixel_aspect(image, paired_at_twice_as_wide, (1.0, 2.0)).pixel_aspect == 2.0


class _StretchJudge:
    """A fake aspect judge: each find's log stretch is a given function of the pixel aspect it
    was found at (the real one is tested in test_aspect_judge.py)."""

    def __init__(self, stretch_at):
        self.stretch_at = stretch_at
        self.asked = []

    def stretches_at(self, image, quads, pixel_aspect):
        self.asked.append(pixel_aspect)
        return np.full(len(quads), self.stretch_at(pixel_aspect))


_TRUE_ASPECT = 2.0
_judge_of_truth = lambda: _StretchJudge(lambda aspect: float(np.log(aspect / _TRUE_ASPECT)))  # noqa: E731


def test_a_near_tie_is_broken_by_the_judge_and_a_clear_lead_is_not():
    corners = [[0, 0], [10, 0], [10, 14], [0, 14]]
    image = np.zeros((100, 100, 3), np.uint8)

    def surer_at_square_pixels_by(margin):
        return lambda picture: [_detection(corners, 0.9 if picture.shape[1] == 100 else 0.9 - margin)] * 3

    near = surer_at_square_pixels_by(NEAR_TIE / 2)
    assert detect_any_pixel_aspect(image, near, (1.0, 2.0)).pixel_aspect == 1.0  # no judge: the surest
    judge = _judge_of_truth()
    assert detect_any_pixel_aspect(image, near, (1.0, 2.0), judge).pixel_aspect == 2.0
    assert sorted(judge.asked) == [1.0, 2.0]
    clear = surer_at_square_pixels_by(NEAR_TIE * 2)
    assert detect_any_pixel_aspect(image, clear, (1.0, 2.0), _judge_of_truth()).pixel_aspect == 1.0
    # an aspect with no finds is in no tie; nothing found anywhere keeps the first
    empty_when_wide = lambda picture: [] if picture.shape[1] == 200 else [_detection(corners, 0.5)]  # noqa: E731
    assert detect_any_pixel_aspect(image, empty_when_wide, (1.0, 2.0), _judge_of_truth()).pixel_aspect == 1.0
    assert detect_any_pixel_aspect(image, lambda picture: [], (2.0, 1.0), _judge_of_truth()).pixel_aspect == 2.0


def test_the_judged_stretch_is_the_median_weighted_by_how_surely_each_find_is_a_tile():
    corners = np.array([[0, 0], [10, 0], [10, 14], [0, 14]], np.float64)
    image = np.zeros((50, 50, 3), np.uint8)

    class PerFind:
        def stretches_at(self, image, quads, pixel_aspect):
            return np.array([0.5, -0.2, 0.1, 0.9])[: len(quads)]

    sure, unsure = _detection(corners, 0.9, 0.9), _detection(corners, 0.2, 0.5)
    # a glyph read unsurely says little: the three sure finds' middle one (0.1) counts
    reading = AspectReading(1.0, (unsure, sure, sure, sure))
    assert judged_stretch(image, reading, PerFind()) == pytest.approx(0.1)
    # all equally sure: the plain median's lower middle
    assert judged_stretch(image, AspectReading(1.0, (sure,) * 4), PerFind()) == pytest.approx(0.1)
    assert judged_stretch(image, AspectReading(1.0, ()), PerFind()) == 0.0

    class Miscounting:
        def stretches_at(self, image, quads, pixel_aspect):
            return np.zeros(len(quads) + 1)

    with pytest.raises(ValueError, match="2 stretches for 1 finds"):
        judged_stretch(image, AspectReading(1.0, (sure,)), Miscounting())


@pytest.fixture(scope="module")
def reader():
    classifier, finder = OnnxTileClassifier(), LearntTileFinder()
    return lambda image: detect_tiles(image, classifier, finder=finder)


def test_a_rendered_table_squeezed_to_a_square_is_read_at_16_9_and_an_unsqueezed_one_at_1(reader):
    table = render_table(3_300_000, RenderOptions(size=(1280, 720), style=ArtStyle.BLACK, px_per_mm=(1.6, 1.8)))
    squeezed = cv2.resize(table.image, (720, 720), interpolation=cv2.INTER_AREA)
    assert detect_any_pixel_aspect(table.image, reader, COMMON_PIXEL_ASPECTS).pixel_aspect == 1.0
    chosen = detect_any_pixel_aspect(squeezed, reader)
    assert chosen.pixel_aspect == pytest.approx(16 / 9)
    # the corners are the squeezed picture's: most tiles are found in their squeezed place, read right
    places = [(np.mean(t.corners, axis=0) * [720 / 1280, 1.0], t.label) for t in table.truths]
    found = [(np.mean(d.corners, axis=0), d.label) for d in chosen.detections]
    read_right = sum(any(np.linalg.norm(c - p) < 8 and k == label for c, k in found) for p, label in places)
    assert read_right >= 0.9 * len(places)
    at_square = detect_at_pixel_aspect(squeezed, reader, 1.0)
    square_right = sum(
        any(np.linalg.norm(np.mean(d.corners, axis=0) - p) < 8 and d.label == label for d in at_square)
        for p, label in places
    )
    assert read_right > square_right


def test_real_16_9_screenshots_squeezed_by_their_export_read_better_at_the_aspect_chosen(reader):
    labels_path = FIXTURE / "labels.json"
    labels = {name: tiles for name, tiles in load_labels(labels_path).items() if "leo-miura" in name}
    assert len(labels) == 3
    chosen = []

    def choosing(image):
        reading = detect_any_pixel_aspect(image, reader)
        chosen.append(reading.pixel_aspect)
        return reading.detections

    as_published, _ = score_labelled_images(labels, FIXTURE, reader, 0.3, load_ignored(labels_path))
    restored, _ = score_labelled_images(labels, FIXTURE, choosing, 0.3, load_ignored(labels_path))
    assert all(aspect > 1.0 for aspect in chosen)  # made 2560×1440, published 640×640
    assert restored.kind_correct > as_published.kind_correct
    assert restored.precision > as_published.precision


def test_a_scenes_gradients_spread_by_about_its_squeeze():
    table = render_table(3_300_000, RenderOptions(size=(1280, 720), style=ArtStyle.BLACK, px_per_mm=(1.6, 1.8)))
    as_shot = gradient_spread(table.image)
    assert 0.5 < as_shot < 2.0
    squeezed = gradient_spread(cv2.resize(table.image, (256, 720), interpolation=cv2.INTER_AREA))  # width ÷ 5
    stretched = gradient_spread(cv2.resize(table.image, (1280, 144), interpolation=cv2.INTER_AREA))  # height ÷ 5
    assert squeezed > 2.5 * as_shot
    assert stretched < as_shot / 2.5
    assert gradient_spread(np.zeros((40, 40, 3), np.uint8)) == 1.0


def test_a_strip_stretched_to_a_square_is_tried_at_a_strips_squeezes():
    table = render_table(3_300_000, RenderOptions(size=(1280, 720), style=ArtStyle.BLACK, px_per_mm=(1.6, 1.8)))
    band = table.image[300:420]  # a band 1280×120: stretched to a square its pixels show 10.7 times as much width
    row = cv2.resize(band, (640, 640), interpolation=cv2.INTER_LINEAR)
    column = cv2.resize(np.ascontiguousarray(band.transpose(1, 0, 2)), (640, 640), interpolation=cv2.INTER_LINEAR)
    assert set(STRIP_PIXEL_ASPECTS) <= set(pixel_aspects_to_try(row))
    assert {1 / a for a in STRIP_PIXEL_ASPECTS} <= set(pixel_aspects_to_try(column))
    whole = cv2.resize(table.image, (640, 640), interpolation=cv2.INTER_AREA)  # a 16:9 frame
    assert pixel_aspects_to_try(whole) == COMMON_PIXEL_ASPECTS


def test_a_hand_row_stretched_to_a_square_is_read_at_a_strips_squeeze(reader):
    table = render_table(3_300_000, RenderOptions(size=(1280, 720), style=ArtStyle.BLACK, px_per_mm=(1.6, 1.8)))
    top, bottom = 300, 420
    inside = [t for t in table.truths if t.corners[:, 1].min() >= top and t.corners[:, 1].max() <= bottom]
    assert len(inside) >= 5
    row = cv2.resize(table.image[top:bottom], (640, 640), interpolation=cv2.INTER_LINEAR)
    chosen = read_photo(row, reader)
    assert chosen.pixel_aspect >= min(STRIP_PIXEL_ASPECTS)
    scale = np.array([640 / 1280, 640 / (bottom - top)])
    places = [(np.mean(t.corners, axis=0) - [0, top]) * scale for t in inside]
    found = [np.mean(d.corners, axis=0) for d in chosen.detections]
    assert sum(any(np.linalg.norm((c - p) / scale) < 10 for c in found) for p in places) >= 0.8 * len(inside)
