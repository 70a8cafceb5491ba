"""``RenderedGameSource``: a logged game filmed by the fixed ``TableCamera``, frame by frame.

The demo's camera. Each scene of the game (``vision.render.game_scene``) is shown for
``frames_per_scene`` frames, and the world moves on only as the consumer pulls frames: in
lockstep with the vision pipeline, so however slow the machine, no act is skipped. The world
publishes where it stands (``board_time``: the board script's clock of the scene on view), so
the simulated sensor board plays its script against the world rather than against wall time,
and tells its listeners (``on_scene``) as each scene comes into view: the referee's CONFIRM
at a hand's end is pressed there, after every frame of the scene before has been read.

A scene that moves the board (its script has a step between the last scene's time and this
one's) stays on view until the board's reading has reached the referee over the pty and the
link (``board_settled(board_at)``, asked every few ms, for at most ``board_settle_s``; without
it, for ``board_settle_s``), so the next act never comes before the board's; the first scene stays
``lead_in_s`` (the link's handshake). ``min_interval_s`` paces the frames for watching.
"""

from __future__ import annotations

import bisect
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence

import numpy as np

from vision.render.game_scene import Scene
from vision.render.layout import TableLayout
from vision.render.table_camera import TableCamera
from vision.sources.frame import CameraFrame, CameraHealth, Clock, FrameStamper, HealthReport

log = logging.getLogger(__name__)

SceneListener = Callable[[Scene, float], None]  # the scene coming into view, and the frame's time
_LAYOUTS_KEPT = 64  # frames whose layout ``layout_at`` still answers for
_BOARD_POLL_S = 0.005


class RenderedGameSource:
    def __init__(
        self,
        scenes: Sequence[Scene],
        camera: TableCamera,
        *,
        frames_per_scene: int = 3,
        min_interval_s: float = 0.0,
        board_steps: Sequence[float] = (),
        board_settle_s: float = 0.1,
        board_settled: Callable[[float], bool] | None = None,
        lead_in_s: float = 0.0,
        report: HealthReport | None = None,
        clock: Clock = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not scenes:
            raise ValueError("a rendered game needs at least one scene")
        if frames_per_scene < 1:
            raise ValueError(f"frames_per_scene must be at least 1, got {frames_per_scene}")
        self._scenes = tuple(scenes)
        self.camera = camera
        self._frames_per_scene = frames_per_scene
        self._min_interval_s = min_interval_s
        self._board_steps = sorted(board_steps)
        self._board_settle_s = board_settle_s
        self._board_settled = board_settled
        self._board_moved = False  # the scene on view moved the board: wait for it before the next
        self._lead_in_s = lead_in_s
        self._clock = clock
        self._sleep = sleep
        self._stamper = FrameStamper(clock)
        self._health = CameraHealth(self.name, report)
        self._listeners: list[SceneListener] = []
        self._index = -1  # the scene on view (-1: none yet)
        self._shown = 0  # frames of it delivered
        self._frames = 0  # frames delivered in all (seeds each frame's noise)
        self._lead_in_until = 0.0
        self._hold_until = 0.0
        self._last_read = float("-inf")
        self._closed = False
        self._layouts: deque[tuple[float, Scene]] = deque(maxlen=_LAYOUTS_KEPT)
        self.finished = threading.Event()  # set when the consumer came back after the last frame

    @property
    def name(self) -> str:
        return f"rendered game:{len(self._scenes)} scenes"

    @property
    def scenes(self) -> tuple[Scene, ...]:
        return self._scenes

    @property
    def scene_index(self) -> int:
        return self._index

    @property
    def ended(self) -> bool:
        ended = self._closed or (self._index == len(self._scenes) - 1 and self._shown >= self._frames_per_scene)
        if ended:
            # A consumer asks once it is done with the last frame (``iterate_frames`` does):
            # everything the world showed has been read.
            self.finished.set()
        return ended

    def board_time(self) -> float:
        """The board script's clock as the world stands: the scene on view's (before the first: -1)."""
        index = self._index
        return self._scenes[index].board_at if index >= 0 else -1.0

    def on_scene(self, listener: SceneListener) -> None:
        self._listeners.append(listener)

    def first_image(self) -> np.ndarray:
        """The first frame's image, without taking it: what calibration reads (the corner markers)."""
        scene = self._scenes[0]
        return self.camera.frame(scene.layout, scene.hand, 0)

    def layout_at(self, timestamp: float) -> TableLayout:
        """The layout a recent frame showed (for a perfect reader standing in for the real one)."""
        for at, scene in reversed(self._layouts):
            if at == timestamp:
                return scene.layout
        raise KeyError(f"no recent frame at {timestamp}")

    def read(self) -> CameraFrame | None:
        if self.ended:
            return None
        if self._min_interval_s:
            self._wait_until(self._last_read + self._min_interval_s)
        if self._index < 0 or self._shown >= self._frames_per_scene:
            self._hold()
            self._enter(self._index + 1)
        scene = self._scenes[self._index]
        image = self.camera.frame(scene.layout, scene.hand, self._frames)
        frame = self._stamper.frame(image)
        self._layouts.append((frame.timestamp, scene))
        if self._shown == 0:
            for listener in self._listeners:
                listener(scene, frame.timestamp)
        self._shown += 1
        self._frames += 1
        self._last_read = self._clock()
        self._health.delivered(frame.timestamp)
        return frame

    def close(self) -> None:
        self._closed = True
        self.finished.set()

    def _enter(self, index: int) -> None:
        before = self._scenes[index - 1].board_at if index > 0 else -1.0
        self._index = index
        self._shown = 0
        scene = self._scenes[index]
        now = self._clock()
        self._board_moved = self._moves_board(before, scene.board_at)
        self._lead_in_until = now + (self._lead_in_s if index == 0 else 0.0)
        self._hold_until = self._lead_in_until + (self._board_settle_s if self._board_moved else 0.0)
        log.debug("scene %d (hand %d, board %.1f)", index, scene.hand, scene.board_at)

    def _hold(self) -> None:
        """Before the next scene: the lead-in, and the board's reading of the scene on view."""
        self._wait_until(self._lead_in_until)
        settled = self._board_settled
        if not self._board_moved or settled is None:
            self._wait_until(self._hold_until)
            return
        at = self._scenes[self._index].board_at
        while not settled(at):
            if self._clock() >= self._hold_until:
                log.warning("scene %d: the board's reading has not come in %.1f s", self._index, self._board_settle_s)
                return
            self._sleep(_BOARD_POLL_S)

    def _moves_board(self, before: float, after: float) -> bool:
        steps = self._board_steps
        return bisect.bisect_right(steps, after) > bisect.bisect_right(steps, before)

    def _wait_until(self, deadline: float) -> None:
        remaining = deadline - self._clock()
        if remaining > 0:
            self._sleep(remaining)
