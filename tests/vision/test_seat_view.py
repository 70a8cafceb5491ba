"""Seat-view scenes (``vision.render.seat_view``): tiles standing as a player sees their hand,
loose tiles and clutter, and the label set the detector recipe reads like a real source."""

import json

import numpy as np
import pytest

from tests.forked_comparisons import seat_view_sets_written_twice
from tests.fresh_process import in_a_fresh_process
from vision.classify.classifier import DEFAULT_MODEL, OnnxTileClassifier
from vision.classify.labels import BACK_LABEL, is_red_label, kind_of_label
from vision.eval.label_file import load_labels
from vision.render.renderer import TileTruth
from vision.render.seat_view import _unhidden, look_at_camera, render_seat_view, tile_characters
from vision.training.photo_frames import build_photo_frames
from vision.training.real_photos import images_in_split
from vision.training.seat_view_set import SceneKind, write_set

SEEDS = range(11, 17)


@pytest.fixture(scope="module")
def scenes():
    return [render_seat_view(seed) for seed in SEEDS]


def test_a_scene_is_the_same_for_the_same_seed(scenes):
    again = render_seat_view(SEEDS[0])
    assert np.array_equal(again.image, scenes[0].image)
    assert [t.label for t in again.truths] == [t.label for t in scenes[0].truths]
    assert not np.array_equal(scenes[1].image[:100], scenes[0].image[:100])


def test_truths_are_faces_wholly_in_the_frame(scenes):
    for scene in scenes:
        height, width = scene.image.shape[:2]
        assert scene.truths
        for truth in scene.truths:
            assert truth.label != BACK_LABEL
            assert np.all(truth.corners >= 0)
            assert np.all(truth.corners[:, 0] < width)
            assert np.all(truth.corners[:, 1] < height)


def test_the_look_at_camera_puts_its_target_at_the_centre_and_up_on_top():
    camera = look_at_camera((640, 480), np.array([0.0, -300.0, 200.0]), np.array([10.0, 0.0, 0.0]), 500.0)
    centre = camera.project(np.array([[10.0, 0.0, 0.0]]))[0]
    assert centre == pytest.approx([320.0, 240.0], abs=1e-6)
    above = camera.project(np.array([[10.0, 0.0, 30.0]]))[0]
    assert above[1] < centre[1]  # higher on the table is higher in the picture
    right = camera.project(np.array([[40.0, 0.0, 0.0]]))[0]
    assert right[0] > centre[0]


def test_the_shipped_classifier_reads_the_faces_where_the_truth_says(scenes):
    # Corners that missed the drawn faces would read as nothing in particular.
    classifier = OnnxTileClassifier(DEFAULT_MODEL)
    right = total = 0
    for scene in scenes:
        readings = classifier.classify_quads(scene.image, [t.corners for t in scene.truths])
        for truth, reading in zip(scene.truths, readings, strict=True):
            total += 1
            right += kind_of_label(reading.label) == kind_of_label(truth.label)
    assert total >= 30
    assert right / total >= 0.6


def test_the_label_set_is_read_as_a_photo_source(tmp_path):
    counts = write_set(tmp_path, 3, first_seed=40)
    document = json.loads((tmp_path / "labels.json").read_text())
    assert counts["images"] == 3
    assert counts["boxes"] == sum(len(tiles) for tiles in document["images"].values())
    assert images_in_split(document, "train") == sorted(document["images"])
    for tiles in document["images"].values():
        for tile in tiles:
            x0, y0, x1, y1 = tile["box"]
            assert x0 < x1
            assert y0 < y1
    # `vision eval` reads it too, each tile's label as drawn (seed 40 holds a red five).
    read = load_labels(tmp_path / "labels.json")
    for seed in (40, 41, 42):
        drawn = [t.label for t in render_seat_view(seed).truths]
        assert [t.label for t in read[f"images/seat-view-{seed}.jpg"]] == drawn
    assert any(is_red_label(label) for label in (t.label for t in read["images/seat-view-40.jpg"]))
    frames = build_photo_frames(tmp_path / "labels.json", seed=1)
    assert len(frames.inputs) >= 3
    assert np.nanmax(frames.targets[:, 0]) == pytest.approx(1.0, abs=1e-3)  # tile centres in the heat maps
    # No seat-view tile lies across a row: the set says so, and its tiles are taught not sideways.
    assert document["upright"] is True
    on_tiles = frames.targets[:, 8] > 0
    assert on_tiles.any()
    assert not np.isnan(frames.targets[:, 7][on_tiles]).any()
    assert not frames.targets[:, 7][on_tiles].any()


def test_a_set_that_does_not_say_its_tiles_are_upright_teaches_no_sideways(tmp_path):
    write_set(tmp_path, 1, first_seed=40)
    document = json.loads((tmp_path / "labels.json").read_text())
    del document["upright"]
    (tmp_path / "labels.json").write_text(json.dumps(document))
    frames = build_photo_frames(tmp_path / "labels.json", seed=1)
    assert np.isnan(frames.targets[:, 7][frames.targets[:, 8] > 0]).all()
    document["upright"] = "yes"
    (tmp_path / "labels.json").write_text(json.dumps(document))
    with pytest.raises(ValueError, match=r'labels\.json: "upright" must be true or false'):
        build_photo_frames(tmp_path / "labels.json", seed=1)


def test_a_scene_without_tiles_is_the_same_room_with_no_truths():
    bare = render_seat_view(SEEDS[0], tiles=False)
    full = render_seat_view(SEEDS[0])
    assert bare.truths == ()
    assert bare.image.shape == full.image.shape
    # The same room and felt: the top rows (the room, or far felt) agree far more than two seeds do.
    same = np.abs(bare.image[:60].astype(int) - full.image[:60].astype(int)).mean()
    other = np.abs(render_seat_view(SEEDS[1], tiles=False).image[:60].astype(int) - bare.image[:60].astype(int)).mean()
    assert same < other


def test_negatives_give_frames_with_empty_heat_maps(tmp_path):
    counts = write_set(tmp_path, 2, first_seed=60, kind=SceneKind(negatives=True))
    assert counts == {"images": 2, "boxes": 0}
    document = json.loads((tmp_path / "labels.json").read_text())
    assert document["negatives"] == sorted(document["images"])
    frames = build_photo_frames(tmp_path / "labels.json", seed=1)
    assert len(frames.inputs) == 4  # two frames a negative
    assert not np.any(frames.targets[:, 0])  # no tile anywhere
    assert frames.inputs.any()  # but a picture in each


def test_a_negative_with_tiles_is_refused(tmp_path):
    write_set(tmp_path, 1, first_seed=60)
    document = json.loads((tmp_path / "labels.json").read_text())
    document["negatives"] = list(document["images"])
    (tmp_path / "labels.json").write_text(json.dumps(document))
    with pytest.raises(ValueError, match="listed as a negative but has tiles"):
        build_photo_frames(tmp_path / "labels.json", seed=1)


def test_a_set_drawn_by_several_processes_is_the_set_drawn_by_one(tmp_path):
    assert in_a_fresh_process(seat_view_sets_written_twice, str(tmp_path)) == {"labels": True, "images": True}


def test_scattered_tiles_stand_apart_nearer_and_farther_and_a_hidden_face_is_no_truth():
    scattered = [render_seat_view(seed, scattered=True) for seed in SEEDS]
    rows = [render_seat_view(seed) for seed in SEEDS]

    # A row's faces differ in size only by perspective along the row; scattered tiles stand
    # nearer and farther, so their faces' sizes spread more.
    def size_spread(scene):
        heights = [float(np.linalg.norm(t.corners[0] - t.corners[3])) for t in scene.truths]
        return max(heights) / min(heights) if len(heights) > 1 else 1.0

    assert np.median([size_spread(s) for s in scattered]) > np.median([size_spread(s) for s in rows]) + 0.15
    classifier = OnnxTileClassifier(DEFAULT_MODEL)
    right = total = 0
    for scene in scattered:
        assert scene.truths
        readings = classifier.classify_quads(scene.image, [t.corners for t in scene.truths])
        for truth, reading in zip(scene.truths, readings, strict=True):
            total += 1
            right += kind_of_label(reading.label) == kind_of_label(truth.label)
    assert right / total >= 0.6  # the truths lie on faces that show, not on ones a nearer tile hides


def test_a_nearer_tiles_outline_hides_the_face_behind_it():
    face = np.array([[10.0, 10.0], [30.0, 10.0], [30.0, 40.0], [10.0, 40.0]])
    behind = TileTruth(0, face, sideways=False)
    covering = face + np.array([5.0, 0.0])  # hides three quarters of it
    aside = face + np.array([100.0, 0.0])
    assert _unhidden([(behind, face), (None, covering)], (200, 100)) == []
    assert _unhidden([(behind, face), (None, aside)], (200, 100)) == [behind]


def test_the_scattered_label_set_says_so(tmp_path):
    write_set(tmp_path, 2, first_seed=40, kind=SceneKind(scattered=True))
    document = json.loads((tmp_path / "labels.json").read_text())
    assert document["source"].endswith("scattered")


def test_spines_titled_in_the_tiles_characters_change_the_room_alone():
    """``spine_glyphs`` writes the tile art's characters down most spines, from a generator of
    its own: the felt, the tiles and their truths are the seed's as before; only rows of the
    room differ, and there they hold pixels of the spines' new titles."""
    changed_rooms = 0
    for seed in SEEDS:
        plain, titled = render_seat_view(seed), render_seat_view(seed, spine_glyphs=True)
        assert len(titled.truths) == len(plain.truths)
        for a, b in zip(plain.truths, titled.truths, strict=True):
            assert a.label == b.label
            np.testing.assert_array_equal(a.corners, b.corners)
        rows = np.nonzero(np.abs(plain.image.astype(int) - titled.image.astype(int)).max(axis=(1, 2)) > 40)[0]
        if rows.size:
            changed_rooms += 1
            below = min(*(t.corners[:, 1].min() for t in plain.truths), plain.image.shape[0])
            assert rows.max() < below  # above every face: the room behind the table
    assert changed_rooms >= len(SEEDS) // 2


def test_the_tiles_characters_are_the_art_s_numerals_man_winds_and_dragons():
    characters = tile_characters()
    assert len(characters) == 9 * 2 + 6  # each man tile's numeral and 萬, 東南西北, 中, 發
    numeral_one, man = characters[0], characters[1]
    assert numeral_one.shape[1] > 2 * numeral_one.shape[0]  # 一 is a flat stroke
    assert 0.6 < man.shape[0] / man.shape[1] < 1.6  # 萬 is about square
    assert all(m.min() >= 0 and m.max() <= 1 and m.max() > 0.9 for m in characters)


def test_a_set_of_titled_spines_says_so(tmp_path):
    write_set(tmp_path, 2, first_seed=40, kind=SceneKind(negatives=True, spine_glyphs=True))
    document = json.loads((tmp_path / "labels.json").read_text())
    assert document["source"].endswith("spines in the tiles' characters")
