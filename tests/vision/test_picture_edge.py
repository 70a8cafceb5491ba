"""Where a picture ends inside its frame (vision/find/picture_edge.py): the black fill beyond it
found, and the learnt finder dropping the tiles that edge cuts as it drops those the frame's
edge cuts, on the real fixture photographs (tests/vision/data/real-photos)."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.eval.label_file import load_labels
from vision.eval.photo_changes import restoring
from vision.find import picture_edge
from vision.find.learnt import LearntTileFinder
from vision.find.picture_edge import CUT_REACH, FILL_STRIDE, PictureFill, picture_fill

FIXTURE = Path(__file__).resolve().parent / "data" / "real-photos"


def _felt(height: int = 480, width: int = 640, seed: int = 0) -> np.ndarray:
    """A noisy green felt: no pixel black."""
    rng = np.random.default_rng(seed)
    felt = np.empty((height, width, 3), np.uint8)
    felt[:] = (40, 120, 50)
    return np.clip(felt.astype(np.int16) + rng.integers(-12, 13, felt.shape), 0, 255).astype(np.uint8)


def _face(left: float, top: float, wide: float = 30.0, tall: float = 40.0) -> np.ndarray:
    return np.array([[left, top], [left + wide, top], [left + wide, top + tall], [left, top + tall]], np.float64)


def test_a_camera_frame_with_no_black_at_its_edge_has_no_fill():
    assert picture_fill(_felt()) is None


def test_black_inside_the_picture_is_no_fill():
    # A black die or sleeve in the middle of the scene is part of the picture.
    frame = _felt()
    frame[200:300, 250:350] = 0
    assert picture_fill(frame) is None


def test_a_black_speck_at_the_frame_edge_is_no_fill():
    frame = _felt()
    frame[0:8, 0:8] = 0  # 4 samples of ~19 000: under FILL_LEAST_SHARE
    assert picture_fill(frame) is None


def test_a_frame_black_all_over_has_no_fill_and_no_tiles(finder):
    # A camera's first frame, a lens cap: no picture for the black to lie beyond.
    black = np.zeros((1080, 1920, 3), np.uint8)
    assert picture_fill(black) is None
    assert finder.find(black).tiles == ()


def test_a_pillarboxed_picture_has_its_bars_as_fill():
    frame = _felt()
    frame[:, :80] = 0
    frame[:, -80:] = 3  # a JPEG's bars are a few levels above black
    fill = picture_fill(frame)
    assert isinstance(fill, PictureFill)
    assert fill.mask.shape == (480 // FILL_STRIDE, 640 // FILL_STRIDE)
    assert fill.mask[:, : 80 // FILL_STRIDE].all()
    assert fill.mask[:, -(80 // FILL_STRIDE) :].all()
    assert not fill.mask[:, 100 // FILL_STRIDE : 540 // FILL_STRIDE].any()


def test_a_face_the_fill_reaches_is_cut_and_one_clear_of_it_is_not():
    frame = _felt()
    frame[:, :80] = 0
    fill = picture_fill(frame)
    assert fill is not None
    across_the_edge = _face(70, 100)
    at_the_edge = _face(80, 100)  # inside the picture, its outline on the edge: grown, it reaches the fill
    clear = _face(80 + 30 * CUT_REACH + 12, 100)
    far = _face(300, 100)
    assert fill.cuts(np.stack([across_the_edge, at_the_edge, clear, far])).tolist() == [True, True, False, False]
    assert fill.cuts(np.zeros((0, 4, 2))).shape == (0,)


def test_a_turned_pictures_wedges_are_fill():
    picture = _felt()
    matrix = cv2.getRotationMatrix2D((320, 240), 20.0, 0.8)
    turned = cv2.warpAffine(picture, matrix, (640, 480), flags=cv2.INTER_LINEAR)  # black beyond it
    fill = picture_fill(turned)
    assert fill is not None
    assert fill.mask[0, 0]
    assert fill.mask[-1, -1]
    assert not fill.mask[240 // FILL_STRIDE, 320 // FILL_STRIDE]


def test_a_picture_leaning_back_leaves_one_u_of_fill():
    # The top edge drawn in and down: a bar along the top joined to a wedge down each side, one
    # piece of black that is far from convex but lies wholly beyond the picture.
    picture = _felt()
    corners = np.float32([[0, 0], [640, 0], [640, 480], [0, 480]])
    leaning = np.float32([[110, 60], [530, 60], [640, 480], [0, 480]])
    warped = cv2.warpPerspective(picture, cv2.getPerspectiveTransform(corners, leaning), (640, 480))
    fill = picture_fill(warped)
    assert fill is not None
    assert fill.mask[0, 0]
    assert fill.mask[0, -1]
    assert fill.mask[0, 320 // FILL_STRIDE]
    assert fill.mask[200 // FILL_STRIDE, 4 // FILL_STRIDE]
    assert not fill.mask[240 // FILL_STRIDE, 320 // FILL_STRIDE]


def test_black_in_the_scene_at_the_frames_edge_is_no_fill():
    # A gap between books under the frame's top edge, and a dark sleeve across a bottom corner
    # with a ragged edge: each a notch in the picture, not black beyond it.
    gap = _felt()
    gap[:120, 300:340] = 0
    assert picture_fill(gap) is None
    sleeve = _felt()
    for column in range(400):
        reach = 480 - int(90 + 40 * np.sin(column / 25.0) + column * 0.2)
        sleeve[reach:, column] = 0
    sleeve[300:, :60] = 0
    assert picture_fill(sleeve) is None


def _cut_pictures() -> list[tuple[np.ndarray, int, float, list[np.ndarray]]]:
    """Each fixture photograph cut through the middle of a labelled tile: the picture blacked out
    right of that line (as a picture turned, warped or pillarboxed ends inside its frame), the
    line, the photograph's median tile width and the centres of its labelled tiles left of the
    line by a tile's width or more. The Japanese photographs, exported squeezed to a square, are
    given back their 16:9 first (as ``vision detect`` reads them)."""
    labels = load_labels(FIXTURE / "labels.json")
    cuts = []
    for name, labelled in labels.items():
        image = cv2.imread(str(FIXTURE / name))
        tiles = labelled
        if "leo-miura" in name:
            restored = restoring(16 / 9).apply(image, labelled)
            image, tiles = restored.image, list(restored.tiles)
        width = float(np.median([np.linalg.norm(np.subtract(t.corners[1], t.corners[0])) for t in tiles]))
        for tile in tiles[:: max(1, len(tiles) // 3)]:
            line = int(np.asarray(tile.corners)[:, 0].mean())
            if line < 0.3 * image.shape[1]:
                continue
            cut = image.copy()
            cut[:, line:] = 0
            inside = [
                np.asarray(t.corners).mean(axis=0) for t in tiles if np.asarray(t.corners)[:, 0].max() < line - width
            ]
            cuts.append((cut, line, width, inside))
    return cuts


@pytest.fixture(scope="module")
def cut_pictures():
    return _cut_pictures()


@pytest.fixture(scope="module")
def finder():
    return LearntTileFinder()


def _crossing(found, line: int) -> int:
    return sum(1 for tile in found if np.asarray(tile.corners)[:, 0].max() > line - 2)


def _found_of(found, truths: list[np.ndarray], width: float) -> int:
    centres = np.array([np.asarray(t.corners).mean(axis=0) for t in found]).reshape(-1, 2)
    return sum(1 for truth in truths if len(centres) and np.min(np.linalg.norm(centres - truth, axis=1)) < 0.4 * width)


def test_no_find_runs_past_the_pictures_edge_inside_the_frame(cut_pictures, finder, monkeypatch):
    with_fill = [finder.find(cut).tiles for cut, *_ in cut_pictures]
    assert sum(_crossing(found, line) for found, (_, line, *_) in zip(with_fill, cut_pictures, strict=True)) == 0
    # Without the fill the same finder finds halves of the cut tiles (8 across the 15 cuts when
    # this was written): the fill is what drops them.
    monkeypatch.setattr(picture_edge, "picture_fill", lambda image: None)
    without = [finder.find(cut).tiles for cut, *_ in cut_pictures]
    assert sum(_crossing(found, line) for found, (_, line, *_) in zip(without, cut_pictures, strict=True)) >= 3
    # The fill drops tiles after the finder's own choices and changes nothing else: the finds
    # with it are those without it less the ones it cuts, and the labelled tiles well inside
    # the picture are found as often (71 of 74 either way when this was written).
    for kept, every, (cut, *_) in zip(with_fill, without, cut_pictures, strict=True):
        fill = picture_fill(cut)
        assert fill is not None
        dropped = fill.cuts(np.stack([np.asarray(t.corners) for t in every])) if every else np.zeros(0, bool)
        left = [t.corners.tolist() for t, cut_off in zip(every, dropped, strict=True) if not cut_off]
        assert [t.corners.tolist() for t in kept] == left
    inside = [(truths, width) for _, _, width, truths in cut_pictures]
    found_with = sum(_found_of(found, truths, width) for found, (truths, width) in zip(with_fill, inside, strict=True))
    found_without = sum(_found_of(found, truths, width) for found, (truths, width) in zip(without, inside, strict=True))
    assert found_with == found_without >= 65
