"""``Picamera2Source``: the Raspberry Pi camera through picamera2 (the ``pi`` extra).

picamera2 is imported inside the class, only when one is made: it exists only on a Pi, and
the rest of vision must import anywhere. A capture that throws (the ribbon cable, the
libcamera pipeline) is a lost camera; the camera is stopped and started again on the next read.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from vision.sources.frame import CameraFrame, CameraHealth, Clock, FrameStamper, HealthReport

log = logging.getLogger(__name__)

_PI_MODEL_FILE = Path("/proc/device-tree/model")


class CameraUnavailableError(RuntimeError):
    """The camera asked for cannot exist on this machine."""


def running_on_pi(model_file: Path = _PI_MODEL_FILE) -> bool:
    try:
        return "raspberry pi" in model_file.read_text(encoding="ascii", errors="replace").lower()
    except OSError:
        return False


class Picamera2Source:
    def __init__(
        self,
        size: tuple[int, int] = (1920, 1080),
        *,
        report: HealthReport | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        if not running_on_pi():
            raise CameraUnavailableError(
                "picamera2 runs only on a Raspberry Pi; here use an OpenCV camera (opencv:0), "
                "a video file or a folder of recorded frames"
            )
        try:
            from picamera2 import Picamera2  # noqa: PLC0415 - Pi only, see the module docstring
        except ImportError as error:
            raise CameraUnavailableError(
                "picamera2 is not installed: on Raspberry Pi OS, `sudo apt install python3-picamera2` "
                "(and make the virtual environment with --system-site-packages)"
            ) from error
        self._size = size
        self._stamper = FrameStamper(clock)
        self._health = CameraHealth(self.name, report)
        self._camera: Any = Picamera2()
        # "RGB888" in picamera2 is laid out B, G, R in memory: what OpenCV and the pipeline read.
        self._camera.configure(self._camera.create_video_configuration(main={"size": size, "format": "RGB888"}))
        self._camera.start()
        self._running = True
        self._closed = False

    @property
    def name(self) -> str:
        return "picamera2"

    @property
    def ended(self) -> bool:
        return self._closed

    def read(self) -> CameraFrame | None:
        if self._closed:
            return None
        try:
            if not self._running:
                self._camera.start()
                self._running = True
            image = self._camera.capture_array("main")
        except Exception as error:  # any driver failure is a lost camera, never a crash
            self._health.missed(self._stamper.now(), f"capture failed: {error!r}")
            self._stop_quietly()
            return None
        frame = self._stamper.frame(image)
        self._health.delivered(frame.timestamp)
        return frame

    def close(self) -> None:
        self._stop_quietly()
        self._camera.close()
        self._closed = True

    def _stop_quietly(self) -> None:
        if not self._running:
            return
        self._running = False
        try:
            self._camera.stop()
        except Exception:  # stopping a camera that already failed may fail too
            log.debug("stopping picamera2 failed", exc_info=True)
