"""The fixed camera of the demo's world, and the frame source that plays a game through it."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from table_app.demo_data import DEMO_LOG
from table_app.logs import read_log
from vision.calibration.calibrate import calibrate
from vision.calibration.calibration import CornersFrom
from vision.classify.labels import BACK_LABEL
from vision.render.game_scene import game_scenes
from vision.render.table_camera import TableCamera, TableCameraOptions
from vision.sources.game_source import RenderedGameSource


@pytest.fixture(scope="module")
def scenes():
    return game_scenes(read_log(DEMO_LOG)[0].events)[:40]


@pytest.fixture(scope="module")
def camera():
    return TableCamera()


def test_a_frame_is_fixed_by_its_index_and_noise_differs_between_frames(camera, scenes):
    scene = scenes[10]
    first = camera.frame(scene.layout, scene.hand, 7)
    assert first.shape == (1080, 1920, 3)
    assert first.dtype == np.uint8
    assert np.array_equal(first, camera.frame(scene.layout, scene.hand, 7))
    second = camera.frame(scene.layout, scene.hand, 8)
    assert not np.array_equal(first, second)
    # Only noise: the two frames agree closely everywhere.
    assert np.abs(first.astype(int) - second.astype(int)).mean() < 10


def test_an_unchanged_tile_stays_where_it_was_as_the_hand_goes_on(camera, scenes):
    hand = [s for s in scenes if s.hand == 0 and not s.cleared]
    for before, after in itertools.pairwise(hand):
        old = {(t.label, t.x, t.y, t.angle) for t in camera.placed(before.layout, before.hand)}
        new = {(t.label, t.x, t.y, t.angle) for t in camera.placed(after.layout, after.hand)}
        # An act adds a discard, or a meld (the called tile leaving the pond); beyond that
        # only wall stacks (drawn from) may go: nothing else moves.
        assert len(new - old) <= 4
        assert sum(label != BACK_LABEL for label, *_ in old - new) <= 1


def test_the_next_hand_places_its_tiles_afresh(camera, scenes):
    first = next(s for s in scenes if s.hand == 0 and not s.cleared)
    moved = TableCamera().placed(first.layout, hand=1)
    assert {(t.x, t.y) for t in moved} != {(t.x, t.y) for t in camera.placed(first.layout, first.hand)}


def test_the_corner_markers_calibrate_the_view_as_at_a_real_table(camera, scenes):
    calibration = calibrate(camera.frame(scenes[20].layout, scenes[20].hand, 0))
    assert calibration.corners_from is CornersFrom.ARUCO
    corners_mm = np.array([[x, y, 0.0] for x, y in calibration.table.corners_mm()])
    assert np.abs(np.asarray(calibration.corners) - camera.camera.project(corners_mm)).max() < 2.0


def test_a_tile_is_about_as_long_as_the_classifier_was_trained_on(camera, scenes):
    tile = camera.placed(scenes[5].layout, scenes[5].hand)[0]
    from vision.render.drawing import project_prism

    _, _, top = project_prism(tile, camera.camera)
    long_edge = float(np.linalg.norm(top[0] - top[3]))
    assert 33 <= long_edge <= 45


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 6))
        self.now += seconds


def test_each_scene_is_shown_its_frames_and_the_world_waits_for_the_consumer(camera, scenes):
    time = FakeTime()
    source = RenderedGameSource(scenes[:5], camera, frames_per_scene=3, clock=time.clock, sleep=time.sleep)
    entered = []
    source.on_scene(lambda scene, at: entered.append(scene.after_event))
    shown = []
    while not source.ended:
        assert not source.finished.is_set()
        frame = source.read()
        assert frame is not None
        shown.append(source.scene_index)
    assert shown == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
    assert entered == [s.after_event for s in scenes[:5]]
    assert time.slept == []  # nothing paced, no board to wait for: as fast as it is read
    assert source.finished.is_set()  # the consumer came back for more after the last frame
    assert source.read() is None


def test_a_scene_that_moves_the_board_stays_until_the_board_has_moved(camera, scenes):
    time = FakeTime()
    # Board steps at 0 (the walls rise) and with the scene whose clock passes 3.
    steps = [0.0, 3.0]
    moving = next(i for i, s in enumerate(scenes) if s.board_at >= 3.0)
    source = RenderedGameSource(
        scenes[: moving + 2],
        camera,
        frames_per_scene=1,
        board_steps=steps,
        board_settle_s=0.25,
        lead_in_s=1.5,
        clock=time.clock,
        sleep=time.sleep,
    )
    assert source.board_time() == -1.0
    while not source.ended:
        source.read()
    # The first scene's lead-in and its board move (the walls rising), the moving scene's hold.
    assert time.slept == [1.5, 0.25, 0.25]


def test_a_scene_that_moves_the_board_waits_only_until_the_board_has_been_read(camera, scenes):
    time = FakeTime()
    asked: list[float] = []

    def settled(at: float) -> bool:
        asked.append(at)
        return len(asked) % 3 == 0  # the link's reading comes on the third look

    source = RenderedGameSource(
        scenes[:3],
        camera,
        frames_per_scene=1,
        board_steps=[0.0],
        board_settle_s=5.0,
        board_settled=settled,
        clock=time.clock,
        sleep=time.sleep,
    )
    while not source.ended:
        source.read()
    assert asked == [scenes[0].board_at] * 3
    assert time.slept == [0.005, 0.005]


def test_pacing_spaces_the_frames(camera, scenes):
    time = FakeTime()
    source = RenderedGameSource(
        scenes[:2], camera, frames_per_scene=2, min_interval_s=0.2, clock=time.clock, sleep=time.sleep
    )
    stamps = []
    while not source.ended:
        frame = source.read()
        assert frame is not None
        stamps.append(frame.timestamp)
    assert np.allclose(np.diff(stamps), 0.2)


def _stick_pixels(scene) -> np.ndarray:
    """Where the demo camera's table differs with riichi sticks from without them."""
    with_sticks = TableCamera().table_image(scene.layout, scene.hand)
    without = TableCamera(TableCameraOptions(riichi_sticks=False)).table_image(scene.layout, scene.hand)
    return np.abs(with_sticks.astype(int) - without).sum(axis=2) > 0


def test_a_riichi_puts_its_stick_on_the_table_where_it_stays_while_the_hand_lasts():
    scenes = game_scenes(read_log(DEMO_LOG)[0].events)
    first = next(i for i, s in enumerate(scenes) if any(seat.pond.riichi_at is not None for seat in s.layout.seats))
    assert not _stick_pixels(scenes[first - 1]).any()  # before the riichi: no stick
    stick = _stick_pixels(scenes[first])
    assert 500 < stick.sum() < 5000  # one stick, ~85 × 8 mm at 1.35 px/mm
    later = next(i for i in range(first + 1, len(scenes)) if scenes[i].hand == scenes[first].hand)
    assert np.array_equal(_stick_pixels(scenes[later]), stick)
