"""A still photograph whose tiles are too small for the first look is started from a look twice
as fine (``vision.find.look_scales.FINER_LOOK``): a hand seen from afar in a large frame."""

import cv2
import numpy as np
import pytest

from vision.classify.classifier import OnnxTileClassifier
from vision.detect.aspect_judge import OnnxAspectJudge
from vision.detect.photo_reading import photo_reader
from vision.eval.matching import match_quads
from vision.find import look_scales
from vision.find.learnt import LearntTileFinder
from vision.render.seat_view import render_seat_view

# Seat views apart from training (5 000 000+) and the benches (2 400 000+).
SEAT_SEEDS = range(2_460_000, 2_460_008)
_SHRINK, _COPIES = 0.4, 5


def _seen_from_afar(seed: int) -> tuple[np.ndarray, list[np.ndarray], tuple[int, int, int, int]]:
    """A seat view shrunk and set in the middle of a frame five times as wide and tall, the rest
    its mirror images (no seam: more room, books and felt around the same tiles), its tiles'
    quads and the middle copy's place (left, top, right, bottom)."""
    scene = render_seat_view(seed, spine_glyphs=True)
    image = cv2.resize(scene.image, None, fx=_SHRINK, fy=_SHRINK, interpolation=cv2.INTER_AREA)
    height, width = image.shape[:2]
    side = _COPIES // 2
    frame = cv2.copyMakeBorder(image, side * height, side * height, side * width, side * width, cv2.BORDER_REFLECT)
    origin = np.array([side * width, side * height])
    quads = [t.corners * _SHRINK + origin for t in scene.truths]
    return frame, quads, (side * width, side * height, (side + 1) * width, (side + 1) * height)


def _matched_and_false(scenes, finder) -> tuple[int, int]:
    """Tiles found and false finds in each frame's middle copy (the copies' tiles are tiles too)."""
    read = photo_reader(OnnxTileClassifier(), finder, judge=OnnxAspectJudge())
    matched = false = 0
    for frame, quads, (left, top, right, bottom) in scenes:
        detections = read(frame).detections
        centres = [d.corners.mean(axis=0) for d in detections]
        found = [d for d, (x, y) in zip(detections, centres, strict=True) if left <= x < right and top <= y < bottom]
        width = float(np.median([np.linalg.norm(q[0] - q[1]) for q in quads]))
        pairs = match_quads(quads, [d.corners for d in found], width, 0.3)
        matched += len(pairs)
        false += len(found) - len(pairs)
    return matched, false


@pytest.fixture(scope="module")
def far_seat_views():
    return [_seen_from_afar(seed) for seed in SEAT_SEEDS]


def test_tiles_too_small_for_the_first_look_are_found_from_a_finer_start(far_seat_views, monkeypatch):
    # Tiles ~7 input px long at the first look (1920×1440 frames). Measured on these 8 scenes
    # (74 tiles): 52 found and 6 false finds from the finer start, 44 and 4 without it.
    finer = _matched_and_false(far_seat_views, LearntTileFinder(half_octaves=True))
    monkeypatch.setattr(look_scales, "FINER_LOOK", 10**6)  # no frame has the pixels for it
    once = _matched_and_false(far_seat_views, LearntTileFinder(half_octaves=True))
    assert finer[0] >= once[0] + 6
    assert finer[1] <= once[1] + 3


def _looks_taken(finder, image) -> list[int]:
    taken = []
    look = LearntTileFinder._look

    def counting(self, image, long_side, *args, **kwargs):
        taken.append(long_side)
        return look(self, image, long_side, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(LearntTileFinder, "_look", counting)
        finder.find(image)
    return taken


def test_the_finer_look_is_taken_once_and_only_where_the_frame_has_its_pixels(far_seat_views):
    finder = LearntTileFinder(half_octaves=True)
    frame = far_seat_views[0][0]
    taken = _looks_taken(finder, frame)
    assert taken[0] == finder.long_side
    assert look_scales.FINER_LOOK * finder.long_side in taken
    assert len(taken) == len(set(taken))
    small = cv2.resize(frame, (900, 675), interpolation=cv2.INTER_AREA)  # under twice 480 px
    assert look_scales.FINER_LOOK * finder.long_side not in _looks_taken(finder, small)


def test_a_frame_whose_first_look_starts_coarser_takes_no_finer_look():
    """Tiles longer than training's at the first look (a seat view at twice its pixels: the
    pyramids start coarser) are the frame's tiles: the finer look would find only their glyphs
    and the spines'."""
    finder = LearntTileFinder(half_octaves=True)
    near = cv2.resize(render_seat_view(SEAT_SEEDS[0]).image, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_LINEAR)
    taken = _looks_taken(finder, near)
    assert taken[1] < finder.long_side  # the pyramids' start follows the first look: coarser
    assert look_scales.FINER_LOOK * finder.long_side not in taken


def test_a_finder_on_one_pyramid_takes_no_finer_look(far_seat_views):
    """The training recipes' finder (one pyramid) reads as it did when they ran."""
    finder = LearntTileFinder()
    assert look_scales.FINER_LOOK * finder.long_side not in _looks_taken(finder, far_seat_views[0][0])


def test_a_close_frame_whose_pyramids_find_large_faces_takes_no_finer_look():
    """A seat view's middle quarter at three times its pixels (1440×1080, its tiles ~110 input px
    long at the first look): where the first look leaves the start at its own size (it saw the
    tiles' glyphs, or nothing it took for a face), the pyramids find the tiles, far longer than
    the first look sees well, and the finer look would find only glyphs: it is not taken, and
    the tiles read as with it."""
    finder = LearntTileFinder(half_octaves=True)
    scene = render_seat_view(SEAT_SEEDS[6]).image  # 960×720
    close = cv2.resize(scene[180:540, 240:720], None, fx=3.0, fy=3.0, interpolation=cv2.INTER_LINEAR)
    taken = _looks_taken(finder, close)
    assert taken[1] == finder.long_side // 2  # the pyramid from the first look's own size: no coarser start
    assert look_scales.FINER_LOOK * finder.long_side not in taken
    found = finder.find(close)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(look_scales, "FINER_LOOK_SKIPPED_FOR_LARGE", 10**6)  # the finer look always taken
        assert look_scales.FINER_LOOK * finder.long_side in _looks_taken(finder, close)
        with_it = finder.find(close)
    assert len(found.tiles) >= 4
    np.testing.assert_allclose([t.corners for t in found.tiles], [t.corners for t in with_it.tiles])
