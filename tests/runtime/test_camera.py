"""The camera's observation source as ``jantaku run`` builds it from ``[camera]``: recorded
frames, the calibration file, a stand-in table reader (the real one is another branch's)."""

from __future__ import annotations

import queue
import sys

import cv2
import numpy as np
import pytest

from table_app.domain.notation import parse_tiles
from table_app.observations import DoraRevealed
from table_app.runtime.camera import camera_pipeline
from table_app.runtime.config import CameraConfig, ConfigError
from table_app.runtime.demo_support import demo_config
from vision.calibration.calibration import Calibration
from vision.calibration.calibration_file import save_calibration
from vision.live import pipeline
from vision.live.reading import SeatReading, SeenTile, TableReading

SIZE = (320, 240)


@pytest.fixture
def camera(tmp_path) -> CameraConfig:
    frames = tmp_path / "frames"
    frames.mkdir()
    for index in range(3):
        assert cv2.imwrite(str(frames / f"{index}.png"), np.zeros((SIZE[1], SIZE[0], 3), np.uint8))
    calibration = tmp_path / "table.json"
    save_calibration(Calibration(((10.0, 10.0), (300.0, 10.0), (300.0, 230.0), (10.0, 230.0)), SIZE), calibration)
    return CameraConfig(str(frames), calibration)


def test_the_configured_camera_posts_what_the_tracker_confirms(camera, tmp_path, monkeypatch):
    made = []

    def reader(calibration, model=None, enrollment=None):
        made.append(calibration)
        dora = (SeenTile(parse_tiles("4p")[0], 0.9),)
        return lambda frame: TableReading(frame.timestamp, (SeatReading(),) * 4, dora)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "table_reader", reader)
    source = camera_pipeline(camera, demo_config(tmp_path / "x.mjlog", tmp_path / "t.db"))
    posted: queue.Queue[object] = queue.Queue()
    source.start(posted.put)
    observation = posted.get(timeout=10)
    source.stop()
    assert isinstance(observation, DoraRevealed)
    assert observation.indicator == parse_tiles("4p")[0]
    assert made[0].image_size == SIZE


def test_a_camera_without_calibration_or_reader_is_a_config_error(camera, tmp_path, monkeypatch):
    table = demo_config(tmp_path / "x.mjlog", tmp_path / "t.db")
    with pytest.raises(ConfigError, match=r"camera\.calibration"):
        camera_pipeline(CameraConfig(camera.source), table)
    monkeypatch.setitem(sys.modules, "vision.live.table_reader", None)
    with pytest.raises(ConfigError, match="table reader is not installed"):
        camera_pipeline(camera, table)
