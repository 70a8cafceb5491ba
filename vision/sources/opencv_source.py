"""``OpenCvSource``: a USB camera (by index) or a video file, through ``cv2.VideoCapture``.

A camera that fails to read is released and opened again on the next ``read`` (a USB camera
pulled and plugged back in). A video file that stops short of the frame count its container
declares has ended early: that is a lost camera too (several failed reads in a row end it).
Reaching the declared end is the normal end of a recording and reports nothing.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, cast

import cv2
import numpy as np

from vision.sources.frame import CameraFrame, CameraHealth, Clock, FrameStamper, HealthReport

log = logging.getLogger(__name__)

# Failed reads in a row before a video file is given up as truncated (one bad frame is skipped).
_FILE_FAILURES_TO_END = 3


class Capture(Protocol):
    """What the source uses of ``cv2.VideoCapture`` (tests wrap it to make a driver fail)."""

    def isOpened(self) -> bool: ...  # noqa: N802 - OpenCV's name

    def read(self) -> tuple[bool, np.ndarray | None]: ...

    def get(self, prop: int) -> float: ...

    def release(self) -> None: ...


OpenCapture = Callable[[int | str], Capture]


def video_capture(target: int | str) -> Capture:
    # OpenCV's stubs type read() with an optional output array; the source never passes one.
    return cast(Capture, cv2.VideoCapture(target))


class OpenCvSource:
    def __init__(
        self,
        target: int | Path,
        *,
        report: HealthReport | None = None,
        clock: Clock = time.monotonic,
        open_capture: OpenCapture = video_capture,
    ) -> None:
        if isinstance(target, Path) and not target.is_file():
            raise FileNotFoundError(f"video file {target} does not exist")
        self._target = target
        self._open_capture = open_capture
        self._stamper = FrameStamper(clock)
        self._health = CameraHealth(self.name, report)
        self._capture: Capture | None = None
        self._declared_frames = 0  # what a video file's container says it holds (0: unknown, a camera)
        self._frames_read = 0
        self._failures_in_row = 0
        self._ended = False
        self._open_failure = ""
        if isinstance(target, Path):
            # A file that OpenCV cannot open at all is bad input, not a lost camera.
            self._capture = self._open()
            if self._capture is None:
                raise ValueError(f"video file {target}: OpenCV cannot open it (not a video, or no codec for it)")
            self._declared_frames = max(int(self._capture.get(cv2.CAP_PROP_FRAME_COUNT)), 0)

    @property
    def name(self) -> str:
        return str(self._target) if isinstance(self._target, Path) else f"opencv:{self._target}"

    @property
    def ended(self) -> bool:
        return self._ended

    @property
    def is_file(self) -> bool:
        return isinstance(self._target, Path)

    def read(self) -> CameraFrame | None:
        if self._ended:
            return None
        if self._capture is None:
            self._capture = self._open()
            if self._capture is None:
                self._health.missed(self._stamper.now(), self._open_failure)
                return None
        try:
            ok, image = self._capture.read()
        except Exception as error:  # any driver failure is a lost camera, never a crash
            ok, image = False, None
            detail = f"the driver failed: {error!r}"
        else:
            detail = "no frame came"
        if not ok or image is None:
            self._missed(detail)
            return None
        self._failures_in_row = 0
        self._frames_read += 1
        frame = self._stamper.frame(image)
        self._health.delivered(frame.timestamp)
        return frame

    def close(self) -> None:
        if self._capture is not None:
            _release_quietly(self._capture)
            self._capture = None
        self._ended = True

    def _missed(self, detail: str) -> None:
        if self.is_file:
            position = self._position()
            if self._declared_frames and position >= self._declared_frames:
                log.info("video file %s ended after %d frames", self._target, position)
                self.close()
                return
            detail = f"{detail} after {position} of {self._declared_frames or 'an unknown number of'} frames"
            self._failures_in_row += 1
            if self._failures_in_row >= _FILE_FAILURES_TO_END:
                self._health.missed(self._stamper.now(), f"the file ended early: {detail}")
                log.warning("video file %s ended early: %s", self._target, detail)
                self.close()
                return
        elif self._capture is not None:
            # Reopen on the next read: a camera unplugged and plugged back in gets a new handle.
            _release_quietly(self._capture)
            self._capture = None
        self._health.missed(self._stamper.now(), detail)

    def _position(self) -> int:
        """Frames taken off the file so far (a frame the decoder choked on counts: it was there)."""
        if self._capture is None:
            return self._frames_read
        try:
            return max(int(self._capture.get(cv2.CAP_PROP_POS_FRAMES)), self._frames_read)
        except Exception:  # a driver that cannot say where it is: count what was delivered
            return self._frames_read

    def _open(self) -> Capture | None:
        try:
            capture = self._open_capture(str(self._target) if isinstance(self._target, Path) else self._target)
        except Exception as error:  # a driver that throws on open is a camera not there
            # Debug only: while the camera is away this repeats on every retry; the lost report says it once.
            log.debug("opening %s failed", self.name, exc_info=True)
            self._open_failure = f"cannot open the camera: {error!r}"
            return None
        if not capture.isOpened():
            _release_quietly(capture)
            self._open_failure = "cannot open the camera (no such device, or it is busy)"
            return None
        return capture


def _release_quietly(capture: Capture) -> None:
    try:
        capture.release()
    except Exception:  # releasing a handle whose device is gone may fail too; it is dropped either way
        log.debug("releasing a capture failed", exc_info=True)
