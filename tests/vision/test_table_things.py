"""Things on the table that are not tiles (``vision.render.table_things``): a keyboard, a
score display and a stick tray, drawn flat and laid on the felt through the camera; seat-view
scenes with them (``render_seat_view(table_things=True)``) and label sets of them."""

import json

import numpy as np
import pytest

from vision.render.camera import Camera
from vision.render.seat_view import look_at_camera, render_seat_view
from vision.render.table_things import PX_PER_MM, THINGS, draw_table_things
from vision.training.seat_view_set import SceneKind, write_set


@pytest.mark.parametrize("name", sorted(THINGS))
def test_each_thing_is_an_opaque_texture_with_marks_on_it_the_same_from_the_same_seed(name):
    texture = THINGS[name](np.random.default_rng(3))
    assert texture.dtype == np.uint8
    assert texture.shape[2] == 4
    assert (texture[..., 3] == 255).all()
    assert min(texture.shape[:2]) >= 25 * PX_PER_MM  # at least 25 mm across
    # keys' glyphs, lit digits, sticks: far from the body's colour somewhere
    body = texture[2, 2, :3].astype(int)
    assert (np.abs(texture[..., :3].astype(int) - body).sum(axis=2) > 150).mean() > 0.02
    assert np.array_equal(texture, THINGS[name](np.random.default_rng(3)))
    assert not np.array_equal(texture, THINGS[name](np.random.default_rng(4)))


def _overhead() -> Camera:
    return look_at_camera((640, 480), np.array([0.0, -1.0, 600.0]), np.zeros(3), 500.0)


def test_things_are_laid_where_the_camera_sees_the_table_and_report_what_they_cover():
    felt = np.full((480, 640, 3), (40, 110, 30), np.uint8)
    image = felt.copy()
    covered = draw_table_things(image, _overhead(), np.random.default_rng(5), (-60.0, -60.0, 60.0, 60.0), 2)
    changed = np.abs(image.astype(int) - felt).sum(axis=2) > 0
    assert 0.02 < covered.mean() < 0.9
    assert (covered > 0.5)[changed].mean() > 0.9  # what changed is what they cover
    assert not changed[covered == 0].any()
    far = felt.copy()
    untouched = draw_table_things(far, _overhead(), np.random.default_rng(5), (5000.0, 5000.0, 5001.0, 5001.0), 1)
    assert np.array_equal(far, felt)
    assert untouched.max() == 0


def test_a_scene_with_things_is_the_same_scene_with_things_on_its_felt():
    showing = 0
    for seed in range(2_400_000, 2_400_006):
        plain = render_seat_view(seed, tiles=False)
        with_things = render_seat_view(seed, tiles=False, table_things=True)
        differ = np.abs(plain.image.astype(int) - with_things.image).sum(axis=2) > 40
        assert differ.mean() < 0.6  # the room, the felt and the clutter are the seed's own
        assert with_things.truths == ()
        showing += bool(differ.mean() > 0.01)
    assert showing >= 4  # most scenes show a thing (one may lie out of the frame)


def test_a_face_the_things_hide_is_no_truth():
    hid = 0
    for seed in range(20, 45):
        plain = render_seat_view(seed)
        with_things = render_seat_view(seed, table_things=True)
        plain_faces = {tuple(np.round(t.corners.ravel(), 3)) for t in plain.truths}
        kept = {tuple(np.round(t.corners.ravel(), 3)) for t in with_things.truths}
        assert kept <= plain_faces  # the same tiles where they were, less those hidden
        hid += len(plain_faces - kept)
    assert hid > 0


def test_a_label_set_of_tile_free_scenes_with_things(tmp_path):
    counts = write_set(tmp_path, 2, first_seed=70, kind=SceneKind(negatives=True, table_things=True))
    document = json.loads((tmp_path / "labels.json").read_text())
    assert counts == {"images": 2, "boxes": 0}
    assert document["negatives"] == sorted(document["images"])
    assert document["source"].endswith(", table things")
