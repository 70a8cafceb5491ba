"""Picamera2Source's own logic with a stand-in picamera2 module (the real one exists only on a Pi)."""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest

from table_app.observations import CameraLost, CameraRestored
from vision.sources import picamera2_source
from vision.sources.picamera2_source import CameraUnavailableError, Picamera2Source


class StandInPicamera2:
    """Records what the source asks of it; ``fail_next`` makes the next capture throw."""

    last: StandInPicamera2 | None = None

    def __init__(self) -> None:
        StandInPicamera2.last = self
        self.calls: list[str] = []
        self.fail_next = False

    def create_video_configuration(self, main: dict[str, object]) -> dict[str, object]:
        return {"main": main}

    def configure(self, configuration: dict[str, object]) -> None:
        self.calls.append(f"configure {configuration['main']}")

    def start(self) -> None:
        self.calls.append("start")

    def stop(self) -> None:
        self.calls.append("stop")

    def close(self) -> None:
        self.calls.append("close")

    def capture_array(self, stream: str) -> np.ndarray:
        if self.fail_next:
            self.fail_next = False
            raise RuntimeError("Camera frontend has timed out!")
        return np.zeros((48, 64, 3), np.uint8)


@pytest.fixture
def on_a_pi(monkeypatch):
    monkeypatch.setattr(picamera2_source, "running_on_pi", lambda: True)
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=StandInPicamera2))


def test_a_failed_capture_is_lost_and_the_camera_restarted(on_a_pi):
    reports: list[CameraLost | CameraRestored] = []
    source = Picamera2Source((64, 48), report=reports.append)
    camera = StandInPicamera2.last
    assert camera is not None
    assert camera.calls == ["configure {'size': (64, 48), 'format': 'RGB888'}", "start"]
    assert source.read() is not None
    camera.fail_next = True
    assert source.read() is None
    frame = source.read()
    assert frame is not None
    assert frame.image.shape == (48, 64, 3)
    assert [type(r) for r in reports] == [CameraLost, CameraRestored]
    assert "timed out" in reports[0].detail  # type: ignore[union-attr]
    assert camera.calls[2:] == ["stop", "start"]
    source.close()
    assert source.ended
    assert source.read() is None


def test_a_pi_without_picamera2_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(picamera2_source, "running_on_pi", lambda: True)
    monkeypatch.setitem(sys.modules, "picamera2", None)  # makes the import fail
    with pytest.raises(CameraUnavailableError, match="python3-picamera2"):
        Picamera2Source()
