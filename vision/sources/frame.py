"""The frame source port: frozen frames with strictly increasing timestamps, and the camera's health.

A source never raises because the camera stopped delivering: ``read`` returns ``None`` and the
source reports ``CameraLost`` once through its ``report`` callback (the runtime's ``post``);
the next frame it delivers reports ``CameraRestored``. Errors in how a source was *asked for*
(a folder that does not exist, picamera2 on a laptop) are raised when it is constructed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from table_app.observations import CameraLost, CameraRestored

log = logging.getLogger(__name__)

Clock = Callable[[], float]
#: Where a source reports the camera's health: the runtime's ``post`` fits (it takes any observation).
HealthReport = Callable[[CameraLost | CameraRestored], None]

# A timestamp equal to the previous one (a coarse clock, two quick reads) is nudged by this much.
_TIMESTAMP_STEP_S = 1e-6


@dataclass(frozen=True, eq=False)
class CameraFrame:
    image: np.ndarray  # uint8 BGR, height × width × 3, read-only
    timestamp: float  # seconds on the source's monotonic clock

    @property
    def size(self) -> tuple[int, int]:
        """Width, height in pixels."""
        return int(self.image.shape[1]), int(self.image.shape[0])


class FrameSource(Protocol):
    @property
    def name(self) -> str:
        """What the source reads, for logs and messages ("opencv:0", a folder, ...)."""
        ...

    @property
    def ended(self) -> bool:
        """A finite source (a file, a folder, a rendered sequence) has nothing more to give."""
        ...

    def read(self) -> CameraFrame | None:
        """The next frame, or ``None`` when the camera delivered none (reported as lost)."""
        ...

    def close(self) -> None: ...


class FrameStamper:
    """Turns raw images into read-only frames whose timestamps strictly increase."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._last = float("-inf")

    def now(self) -> float:
        return self._clock()

    def frame(self, image: np.ndarray) -> CameraFrame:
        if image.ndim == 2:  # a grey recording: the pipeline reads BGR
            image = np.repeat(image[..., None], 3, axis=2)
        image = np.ascontiguousarray(image[..., :3])
        image.flags.writeable = False  # frames are shared between pipeline stages: nobody draws on one
        timestamp = max(self._clock(), self._last + _TIMESTAMP_STEP_S)
        self._last = timestamp
        return CameraFrame(image, timestamp)


class CameraHealth:
    """Reports a camera lost once per outage, and restored when frames come again."""

    def __init__(self, name: str, report: HealthReport | None) -> None:
        self._name = name
        self._report = report
        self._lost = False

    @property
    def lost(self) -> bool:
        return self._lost

    def missed(self, at: float, detail: str) -> None:
        if self._lost:
            log.debug("%s still lost: %s", self._name, detail)
            return
        self._lost = True
        log.warning("camera %s lost: %s", self._name, detail)
        if self._report is not None:
            self._report(CameraLost(at, f"{self._name}: {detail}"))

    def delivered(self, at: float) -> None:
        if not self._lost:
            return
        self._lost = False
        log.info("camera %s restored", self._name)
        if self._report is not None:
            self._report(CameraRestored(at))


def iterate_frames(source: FrameSource, pause: Callable[[], None] = lambda: time.sleep(0.2)) -> Iterator[CameraFrame]:
    """Every frame the source delivers until it ends; ``pause`` runs after each miss (a live
    camera is retried, not spun on)."""
    while not source.ended:
        frame = source.read()
        if frame is None:
            if not source.ended:
                pause()
            continue
        yield frame
