"""``VisionSource``: camera → reader → tracker on its own thread, posting into the referee core.

It is the runtime's ``ObservationSource`` (``start(post)`` / ``stop()``). Its thread pulls
frames (``iterate_frames``), reads each into a ``TableReading`` and gives it to the ``Tracker``;
whatever the tracker confirms is posted. Nothing stops the thread but ``stop()`` or a finite
source's end: a frame the reader fails on is logged with its timestamp and skipped (an
unreadable frame, counted in the stats); a camera that stops delivering is the source's
``CameraLost`` (and ``CameraRestored`` when frames come again), relayed through
``HealthRelay``, which also tells the tracker that the run of frames was broken.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from table_app.observations import CameraLost, CameraRestored, Observation
from vision.live.reading import TableReading
from vision.live.tracking import Tracker, TrackerSettings
from vision.sources.frame import CameraFrame, FrameSource, iterate_frames

if TYPE_CHECKING:
    from vision.calibration.calibration import Calibration

log = logging.getLogger(__name__)

Post = Callable[[Observation], None]
Read = Callable[[CameraFrame], TableReading]
#: Called on the pipeline's thread after each frame is read (the watch command's debug view).
FrameWatcher = Callable[[CameraFrame, TableReading, tuple[Observation, ...]], None]

_CAMERA_RETRY_S = 0.2  # a live camera that delivered nothing is asked again after this


class HealthRelay:
    """The ``report`` callback a frame source is built with, before the pipeline that posts
    its reports exists: reports wait until the pipeline starts, then go straight through."""

    def __init__(self) -> None:
        self._target: Callable[[CameraLost | CameraRestored], None] | None = None
        self._waiting: list[CameraLost | CameraRestored] = []
        self._lock = threading.Lock()

    def __call__(self, report: CameraLost | CameraRestored) -> None:
        with self._lock:
            target = self._target
            if target is None:
                self._waiting.append(report)
                return
        target(report)

    def connect(self, target: Callable[[CameraLost | CameraRestored], None]) -> None:
        with self._lock:
            self._target = target
            waiting, self._waiting = self._waiting, []
        for report in waiting:
            target(report)


@dataclass(frozen=True, slots=True)
class PipelineStats:
    frames: int  # frames read into a TableReading
    unreadable: int  # frames the reader failed on (skipped)
    observations: int  # observations posted (the camera's health included)
    last_read_ms: float | None  # the last frame's reading time (the reader's share of the latency)
    mean_read_ms: float | None


class VisionSource:
    def __init__(
        self,
        frames: FrameSource,
        read: Read,
        tracker: Tracker,
        *,
        health: HealthRelay | None = None,
        watch: FrameWatcher | None = None,
        retry_s: float = _CAMERA_RETRY_S,
    ) -> None:
        self._frames = frames
        self._read = read
        self._tracker = tracker
        self._health = health
        self._watch = watch
        self._retry_s = retry_s
        self._post: Post | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._counts = [0, 0, 0]  # frames, unreadable, observations
        self._read_s_total = 0.0
        self._last_read_s: float | None = None

    # -- the ObservationSource port -------------------------------------------------------

    def start(self, post: Post) -> None:
        if self._thread is not None:
            raise RuntimeError(f"vision pipeline on {self._frames.name} already started")
        self._post = post
        if self._health is not None:
            self._health.connect(self._on_health)
        self._thread = threading.Thread(target=self._run, name=f"vision {self._frames.name}", daemon=True)
        self._thread.start()

    def stop(self, timeout_s: float = 5.0) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout_s)
            if self._thread.is_alive():
                log.warning("vision pipeline on %s did not stop within %.1f s", self._frames.name, timeout_s)
        self._frames.close()

    # -- for the CLI, the bench and tests -------------------------------------------------

    def wait(self, timeout_s: float | None = None) -> bool:
        """Until a finite source ended (or ``stop``); ``False`` if it is still running after the timeout."""
        if self._thread is None:
            return True
        self._thread.join(timeout_s)
        return not self._thread.is_alive()

    @property
    def stats(self) -> PipelineStats:
        with self._lock:
            frames, unreadable, observations = self._counts
            last = None if self._last_read_s is None else 1000 * self._last_read_s
            mean = 1000 * self._read_s_total / frames if frames else None
        return PipelineStats(frames, unreadable, observations, last, mean)

    # -- the thread -----------------------------------------------------------------------

    def _run(self) -> None:
        try:
            for frame in iterate_frames(self._frames, pause=self._pause):
                if self._stopping.is_set():
                    break
                self._one(frame)
        except Exception as error:
            # A source that breaks its contract (it should report, not raise) ends the
            # pipeline, said as a lost camera rather than a dead thread nobody hears of.
            log.exception("vision pipeline on %s stopped", self._frames.name)
            self._emit((CameraLost(time.monotonic(), f"{self._frames.name}: {error}"),))
        log.info("vision pipeline on %s ended after %d frames", self._frames.name, self.stats.frames)

    def _pause(self) -> None:
        self._stopping.wait(self._retry_s)  # a live camera that missed is retried, unless stopping

    def _one(self, frame: CameraFrame) -> None:
        started = time.perf_counter()
        try:
            reading = self._read(frame)
        except Exception:
            log.exception("frame at %.3f s could not be read: skipped", frame.timestamp)
            with self._lock:
                self._counts[1] += 1
            return
        took = time.perf_counter() - started
        with self._lock:
            self._counts[0] += 1
            self._read_s_total += took
            self._last_read_s = took
        observations = self._tracker.update(reading)
        self._emit(observations)
        if self._watch is not None:
            try:
                self._watch(frame, reading, observations)
            except Exception:
                log.exception("watching the frame at %.3f s failed", frame.timestamp)

    def _on_health(self, report: CameraLost | CameraRestored) -> None:
        if isinstance(report, CameraLost):
            self._tracker.interrupted()
        self._emit((report,))

    def _emit(self, observations: tuple[Observation, ...]) -> None:
        if not observations or self._post is None:
            return
        with self._lock:
            self._counts[2] += len(observations)
        for observation in observations:
            self._post(observation)


def table_reader(calibration: Calibration, model: Path | None = None, enrollment: Path | None = None) -> Read:
    """The real reader (``vision.live.table_reader``): frame → calibrated top-down view → zones →
    tiles, the light over the table learnt from frame to frame (``vision.live.light_meter``)."""
    # Imported here: onnxruntime loads only when a camera is read.
    from vision.classify.classifier import DEFAULT_MODEL, OnnxTileClassifier  # noqa: PLC0415
    from vision.live.light_meter import LightMeter  # noqa: PLC0415
    from vision.live.table_reader import TableReader  # noqa: PLC0415

    # A light meter: the camera watches one table, whose light its faces show frame after frame.
    classifier = OnnxTileClassifier(model or DEFAULT_MODEL, enrollment=enrollment)
    reader = TableReader(calibration, classifier, light=LightMeter())
    read: Read = reader.read
    return read


def open_camera_pipeline(
    source: str,
    read: Read,
    settings: TrackerSettings | None = None,
    *,
    watch: FrameWatcher | None = None,
    resume: bool = False,
) -> VisionSource:
    """A pipeline over the source named as in ``--source`` / the config's ``camera.source``
    (``resume``: the referee already knows the table, see ``Tracker``)."""
    from vision.sources.open_source import open_source  # noqa: PLC0415  (OpenCV loads with it)

    health = HealthRelay()
    frames = open_source(source, report=health)
    tracker = Tracker(settings or TrackerSettings(), resume=resume)
    return VisionSource(frames, read, tracker, health=health, watch=watch)
