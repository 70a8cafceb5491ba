"""The demo's world end to end: a logged game rendered frame by frame, calibrated from its corner
markers, read (by a perfect stand-in reader and a simple tracker until the real ones merge),
the board simulated over a pty on the world's clock, the referee's CONFIRM, the real core."""

from __future__ import annotations

import io
import json
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from table_app.demo_data import DEMO_LOG
from table_app.logs import read_log
from table_app.observations import ButtonPress, HandStarted
from table_app.rules.events import EndGame, EndKyoku
from table_app.rules.mjai_codec import encode_event
from table_app.rules.profiles import TENHOU
from table_app.runtime.app import build_runtime
from table_app.runtime.demo_support import check_against_log, demo_config, play_to_the_end
from table_app.runtime.demo_world import (
    RENDERER,
    DemoWorld,
    WorldOptions,
    WorldReferee,
    board_script,
    rendered_world,
    world_source,
)
from table_app.runtime.ports import CoreUpdate
from tests.runtime.world_standins import standin_pipeline
from vision.calibration.calibrate import calibrate
from vision.calibration.calibration import CornersFrom


def short_log(tmp_path: Path, hands: int) -> Path:
    """The shipped game's first ``hands`` hands as an mjai log."""
    events = read_log(DEMO_LOG)[0].events
    ends = [i for i, e in enumerate(events) if isinstance(e, EndKyoku)]
    cut = (*events[: ends[hands - 1] + 1], EndGame())
    path = tmp_path / f"first-{hands}.mjson"
    path.write_text("".join(encode_event(e) + "\n" for e in cut), encoding="utf-8")
    return path


class Heard:
    def __init__(self) -> None:
        self.updates: list[CoreUpdate] = []

    def on_update(self, update: CoreUpdate) -> None:
        self.updates.append(update)


def test_two_hands_rendered_read_and_refereed_match_the_log(tmp_path, caplog):
    log = short_log(tmp_path, 2)
    config = demo_config(log, tmp_path / "demo.db", pace_s=0.0, camera=RENDERER)
    heard = Heard()
    runtime = build_runtime(config, vision=rendered_world(standin_pipeline), listeners=[heard], out=io.StringIO())
    world = runtime.sources[0]
    assert isinstance(world, DemoWorld)
    assert runtime.finished is world.finished  # the game is over when the world is
    assert runtime.feed is None  # the world brings its own board; the log feed posts nothing
    final = play_to_the_end(runtime, timeout_s=60)
    check = check_against_log(final, read_log(log)[0])
    assert check.summary == "1 games, 2 hands, 0 mismatches", check.mismatches
    assert world.world.ended
    # Every scene was shown all its frames: nothing skipped however fast the reader.
    assert world.pipeline.frames_read == WorldOptions().frames_per_scene * len(world.world.scenes)
    said = [a.kind.value for u in heard.updates for a in u.announcements]
    assert "wall_disagrees" not in said, said
    assert "deposit_disagrees" not in said, said
    assert "tray_off" not in said, said
    assert "payments_complete" in said  # the board's trays followed the game's payments
    assert "has not come" not in caplog.text  # the world always waited for the board's reading


def test_the_world_calibrates_from_its_corner_markers(tmp_path):
    events = read_log(short_log(tmp_path, 1))[0].events
    world = world_source(events, TENHOU, board_script(events, TENHOU, "test"))
    calibration = calibrate(world.first_image())
    assert calibration.corners_from is CornersFrom.ARUCO
    corners_mm = np.array([[x, y, 0.0] for x, y in calibration.table.corners_mm()])
    expected = world.camera.camera.project(corners_mm)
    assert np.abs(np.asarray(calibration.corners) - expected).max() < 2.0


def test_the_board_follows_the_world_not_the_wall_clock(tmp_path):
    events = read_log(short_log(tmp_path, 1))[0].events
    script = board_script(events, TENHOU, "test")
    world = world_source(events, TENHOU, script, WorldOptions(board_settle_s=0.0))
    assert world.board_time() == -1.0  # before the first frame the board does nothing
    first_draw = next(step.at for step in script.steps if step.action.value == "draw")
    seen: list[tuple[int, float]] = []
    while not world.ended:
        world.read()
        seen.append((world.scene_index, world.board_time()))
    assert [t for _, t in seen] == sorted(t for _, t in seen)
    # The first draw happens with the scene of the first discard, not before.
    scene = next(index for index, at in seen if at >= first_draw)
    assert sum(len(s.pond.tiles) for s in world.scenes[scene].layout.seats) == 1


def test_the_referee_confirms_a_hand_end_once_the_world_moves_past_it(tmp_path):
    events = read_log(short_log(tmp_path, 1))[0].events
    world = world_source(events, TENHOU, board_script(events, TENHOU, "test"), WorldOptions(board_settle_s=0.0))
    posted: list[object] = []
    referee = WorldReferee(hand_started=True)
    referee.start(posted.append)
    world.on_scene(referee)
    confirms_at = []
    while not world.ended:
        before = len(posted)
        world.read()
        if any(isinstance(o, ButtonPress) for o in posted[before:]):
            confirms_at.append(world.scene_index)
    assert confirms_at == [len(world.scenes) - 1]  # the last scene: the table cleared after the hand
    assert world.scenes[confirms_at[0] - 1].layout == world.scenes[confirms_at[0] - 2].layout  # the end shown
    assert sum(isinstance(o, HandStarted) for o in posted) == 2  # a cleared table before and after the hand
    assert world.finished.is_set()
    assert world.read() is None


def test_the_world_refuses_another_camera_source(tmp_path):
    from table_app.runtime.config import CameraConfig, ConfigError

    config = demo_config(short_log(tmp_path, 1), tmp_path / "demo.db", camera="opencv:0")
    with pytest.raises(ConfigError, match="renderer"):
        rendered_world(standin_pipeline)(CameraConfig("opencv:0"), config)


def test_the_display_of_the_rendered_world_shows_its_board_link(tmp_path):
    from table_app.runtime.web_attach import attach_web

    config = demo_config(short_log(tmp_path, 1), tmp_path / "demo.db", pace_s=0.0, camera=RENDERER)
    runtime = build_runtime(config, vision=rendered_world(standin_pipeline), out=io.StringIO())
    server = attach_web(runtime, "127.0.0.1", 0, "token")
    try:
        with urllib.request.urlopen(f"{server.url}/api/state", timeout=10) as answer:
            view = json.load(answer)
    finally:
        server.stop()
        runtime.store.close()
    assert view["link"] != "absent"  # the world's board is read by the real link
