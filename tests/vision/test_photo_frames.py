"""Detector training frames from box-labelled photos (vision/training/photo_frames.py)."""

import cv2
import numpy as np
import pytest

from vision.training.photo_frames import (
    FRAME_PX,
    POSITIVE_LONG_PX,
    box_corners,
    cached_photo_frames,
    context_scenes,
    cut_by_edge,
    frames_of_photo,
    photo_targets,
)
from vision.training.real_photos import tile_free_pictures
from vision.training.seat_view_set import SceneKind, write_set


def test_a_tall_box_stands_upright_and_a_wide_one_lies_across():
    tall = photo_targets((64, 64), [(10.0, 10.0, 20.0, 26.0)], 1.0, loose=False).astype(np.float32)
    wide = photo_targets((64, 64), [(10.0, 10.0, 26.0, 20.0)], 1.0, loose=False).astype(np.float32)
    for maps, cos2 in ((tall, 1.0), (wide, -1.0)):
        peak = np.unravel_index(np.argmax(maps[0]), maps[0].shape)
        assert maps[0][peak] == 1.0
        assert np.exp(maps[3][peak]) == pytest.approx(16.0, rel=0.01)  # long edge (float16 targets)
        assert np.exp(maps[4][peak]) == pytest.approx(10.0, rel=0.01)  # short edge
        assert maps[5][peak] == cos2  # cos of twice the long axis' turn: 0° or 90°
    assert np.allclose(box_corners((10, 10, 26, 20)).mean(axis=0), (18, 15))


def test_a_photo_box_says_nothing_of_sideways_and_a_loose_one_nothing_of_size():
    boxes = [(10.0, 10.0, 20.0, 26.0), (40.0, 40.0, 52.0, 51.0)]  # the second is near square: a turned tile
    maps = photo_targets((64, 64), boxes, 1.0, loose=False).astype(np.float32)
    on_tiles = maps[8] > 0
    assert np.isnan(maps[7][on_tiles]).all()
    assert not np.isnan(maps[7][~on_tiles]).any()
    first = np.unravel_index(np.argmax(maps[0][:, :16]), maps[0][:, :16].shape)
    assert not np.isnan(maps[3][first])
    assert np.isnan(maps[3][23, 23])
    assert np.isnan(maps[5][23, 23])
    assert not np.isnan(maps[1]).any()
    assert not np.isnan(maps[0]).any()
    loose = photo_targets((64, 64), boxes[:1], 1.0, loose=True).astype(np.float32)
    assert np.isnan(loose[3][loose[8] > 0]).all()


def test_a_set_known_upright_teaches_its_tiles_not_sideways():
    boxes = [(10.0, 10.0, 20.0, 26.0), (40.0, 40.0, 56.0, 50.0)]  # the second lies turned, loose on the felt
    maps = photo_targets((64, 64), boxes, 1.0, loose=False, upright=True).astype(np.float32)
    on_tiles = maps[8] > 0
    assert on_tiles[:16, :16].any()  # the first tile's cells (stride 2)
    assert on_tiles[16:, 16:].any()  # the second's
    assert (maps[7][on_tiles] == 0.0).all()
    assert not np.isnan(maps[7]).any()


def test_photos_are_scaled_so_their_tiles_are_as_long_as_the_rendered_ones():
    rng = np.random.default_rng(3)
    image = np.full((640, 640, 3), 120, np.uint8)
    boxes = [(x, 300.0, x + 60.0, 380.0) for x in range(40, 560, 62)]
    frames = frames_of_photo(image, boxes, False, rng, crops=4)
    assert 4 <= len(frames) <= 5
    positives = [maps.astype(np.float32) for _, maps in frames if maps[0].max() > 0]
    assert len(positives) >= 4
    for maps in positives:
        assert maps.shape[1:] == (FRAME_PX // 2, FRAME_PX // 2)
        longs = np.exp(maps[3][maps[0] >= 0.999])
        assert (longs >= POSITIVE_LONG_PX[0] - 0.5).all()
        assert (longs <= POSITIVE_LONG_PX[1] + 0.5).all()


def test_a_zoomed_in_frame_has_no_tile_to_find():
    rng = np.random.default_rng(0)
    image = np.full((640, 640, 3), 120, np.uint8)
    boxes = [(100.0, 100.0, 160.0, 180.0)]
    negatives = []
    for _ in range(20):
        negatives += [maps for _, maps in frames_of_photo(image, boxes, False, rng, crops=0)]
    assert negatives  # about one photo in three
    assert all(float(maps.astype(np.float32)[0].max()) == 0.0 for maps in negatives)
    assert all(float(maps.astype(np.float32)[8].max()) == 0.0 for maps in negatives)


def _bright_peaks(maps: np.ndarray) -> int:
    """How many tile centres a target's heat map holds (cells at 1)."""
    return int((maps.astype(np.float32)[0] >= 0.999).sum())


@pytest.mark.parametrize("context", ["black", "mirror"])
def test_a_small_photograph_is_framed_on_black_or_among_its_mirror_images(context):
    """A photograph that comes out smaller than a frame: on black, what lies beyond its edges is
    black and only its own tile is taught; among its mirror images, the frame is photograph
    all over and each mirrored tile whose centre the frame shows is taught as a tile too."""
    rng = np.random.default_rng(5)
    image = np.full((200, 200, 3), (60, 130, 40), np.uint8)  # felt
    image[80:120, 90:120] = 235  # one face, 30×40 px
    boxes = [(90.0, 80.0, 120.0, 120.0)]
    for _ in range(12):
        ((pixels, maps),) = frames_of_photo(image, boxes, False, rng, crops=1, context=context)[:1]
        felt_or_face = (pixels == (60, 130, 40)).all(axis=2) | (pixels == 235).all(axis=2)
        faces = (pixels == 235).all(axis=2)
        if context == "black":
            assert not felt_or_face.all()  # black beyond the photograph's edges
            assert _bright_peaks(maps) <= 1
        else:
            assert felt_or_face.mean() > 0.97  # photograph everywhere (a resized edge blends)
            assert faces.any()
            assert _bright_peaks(maps) >= 1
            assert _bright_peaks(maps) >= _whole_faces(faces)


def _whole_faces(faces: np.ndarray) -> int:
    """The faces' blobs not cut by the frame's edge."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(faces.astype(np.uint8))
    height, width = faces.shape
    whole = 0
    for x, y, w, h, _area in stats[1:count].tolist():
        whole += x > 0 and y > 0 and x + w < width and y + h < height
    return whole


def test_a_tile_the_photographs_edge_cuts_is_taught_neither_way_among_its_mirror_images():
    """A face the photograph's left edge cuts (its box touches the edge) meets its own mirror
    image there: among mirrors its heat is unknown (NaN, no cost) wherever it shows, never a
    tile's centre; the whole face beside it is taught as ever."""
    rng = np.random.default_rng(2)
    image = np.full((200, 200, 3), (60, 130, 40), np.uint8)
    image[80:120, 0:20] = 235  # the right half of a face, cut by the edge
    image[80:120, 90:120] = 235  # a whole face
    boxes = [(0.0, 80.0, 20.0, 120.0), (90.0, 80.0, 120.0, 120.0)]
    assert cut_by_edge(boxes[0], 200, 200)
    assert not cut_by_edge(boxes[1], 200, 200)
    unknown_seen = 0
    for _ in range(12):
        ((pixels, maps),) = frames_of_photo(image, boxes, False, rng, crops=1, context="mirror")[:1]
        heat = maps.astype(np.float32)[0]
        unknown = np.isnan(heat)
        unknown_seen += unknown.any()
        count, blobs, _, _ = cv2.connectedComponentsWithStats((pixels == 235).all(axis=2).astype(np.uint8))
        for blob in range(1, count):
            cells = cv2.resize((blobs == blob).astype(np.uint8), heat.shape[::-1], interpolation=cv2.INTER_NEAREST) > 0
            peak = np.nanmax(np.where(cells, heat, np.nan)) if (cells & ~unknown).any() else np.nan
            # a blob is a whole face (taught: a centre at 1) or the cut face with its mirror (unknown)
            assert (cells & unknown).any() or peak >= 0.999 or not cells.any() or _at_frame_edge(blobs == blob)
    assert unknown_seen  # the cut face showed in some frames, and was not taught there


def _at_frame_edge(blob: np.ndarray) -> bool:
    ys, xs = np.nonzero(blob)
    return bool(ys.min() == 0 or xs.min() == 0 or ys.max() == blob.shape[0] - 1 or xs.max() == blob.shape[1] - 1)


def test_a_small_photograph_is_set_in_a_tile_free_scene():
    """In the scene context a photograph smaller than a frame shows one of the scenes beyond its
    edges (not black), and only its own tile is taught; no scene to set it in is an error."""
    rng = np.random.default_rng(7)
    image = np.full((200, 200, 3), (60, 130, 40), np.uint8)
    image[80:120, 90:120] = 235
    boxes = [(90.0, 80.0, 120.0, 120.0)]
    scene = np.full((400, 500, 3), (200, 40, 160), np.uint8)  # a purple room
    saw_scene = False
    for _ in range(12):
        ((pixels, maps),) = frames_of_photo(image, boxes, False, rng, crops=1, context="scene", scenes=[scene])[:1]
        photo = (pixels == (60, 130, 40)).all(axis=2) | (pixels == 235).all(axis=2)
        room = (pixels == (200, 40, 160)).all(axis=2)
        assert (photo | room).mean() > 0.97  # no black: the photograph, then the scene
        saw_scene |= bool(room.any())
        assert _bright_peaks(maps) <= 1
        assert _bright_peaks(maps) >= _whole_faces((pixels == 235).all(axis=2))
    assert saw_scene
    with pytest.raises(ValueError, match="needs tile-free scenes"):
        frames_of_photo(image, boxes, False, rng, crops=1, context="scene")


def test_a_photo_context_no_frame_knows_is_refused():
    with pytest.raises(ValueError, match="no photo context 'grey'"):
        frames_of_photo(
            np.zeros((50, 50, 3), np.uint8),
            [(10.0, 10.0, 20.0, 24.0)],
            False,
            np.random.default_rng(0),
            1,
            context="grey",
        )


def test_frames_set_in_other_scenes_are_cached_apart(tmp_path):
    """The scenes a photograph is set in are part of what its frames are: frames of one set
    cut among other scenes are another cache file, and the same scenes find the file again."""
    write_set(tmp_path / "hands", 2, first_seed=60)
    write_set(tmp_path / "rooms", 2, first_seed=70, kind=SceneKind(negatives=True))
    write_set(tmp_path / "titled", 2, first_seed=70, kind=SceneKind(negatives=True, spine_glyphs=True))
    labels, cache = tmp_path / "hands" / "labels.json", tmp_path / "cache"
    for scenes in ("rooms", "titled", "rooms"):
        pictures = tile_free_pictures([tmp_path / scenes / "labels.json"])
        frames = cached_photo_frames(labels, 1, str(cache), crops=1, context="scene", scenes=pictures)
        assert len(frames.inputs) >= 2
    assert len(list(cache.glob("*-scene-*.npz"))) == 2


def test_the_scene_context_without_tile_free_pictures_stops_before_drawing(tmp_path):
    write_set(tmp_path / "hands", 1, first_seed=60)
    write_set(tmp_path / "rooms", 1, first_seed=70, kind=SceneKind(negatives=True))
    hands, rooms = tmp_path / "hands" / "labels.json", tmp_path / "rooms" / "labels.json"
    assert context_scenes("black", [hands]) == []
    assert context_scenes("scene", [hands, rooms]) == tile_free_pictures([rooms])
    with pytest.raises(SystemExit, match="none of the --photos sets lists any"):
        context_scenes("scene", [hands])
