"""The demo's world: a logged game played on a rendered table, read by the vision pipeline.

``jantaku demo`` (``--camera renderer``, the default) plays the log's game as a real table
would show it: ``RenderedGameSource`` films each scene with the fixed ``TableCamera`` (corner
markers included: the pipeline is calibrated from them, as a real table is), the vision
pipeline (reader + tracker) turns the frames into observations, the sensor board is the table
simulator over a pty read by the real link, its script played against the world's steps, and a
referee presses CONFIRM when a hand's end has been seen. The world moves only as the pipeline
reads it, so the demo is as fast as the machine and never skips an act.

``rendered_world(pipeline)`` is the vision factory ``build_runtime(config, vision=...)`` takes;
``pipeline`` builds the observation source over the world's frames. ``classifier_pipeline``
(the default) is the real one: ``vision.live.pipeline.VisionSource`` over
``vision.live.table_reader.TableReader(calibration, OnnxTileClassifier(), light=LightMeter()).read`` and
``vision.live.tracking.Tracker()``, imported when a demo starts.
"""

from __future__ import annotations

import bisect
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge.sim_script import TableScript, TableState, apply_step, parse_script
from table_app.observations import ButtonPress, HandStarted, Observation, RefereeButton, TraysRead
from table_app.rules.check import profile_for_log
from table_app.rules.events import GameEvent
from table_app.rules.profiles import RuleProfile
from table_app.runtime.adapters import SimulatedBoardSource
from table_app.runtime.app import BOARD_LEAD_IN_S, BoardScriptError, VisionFactory, feed_game
from table_app.runtime.config import CameraConfig, ConfigError, TableConfig
from table_app.runtime.log_table_script import table_script_text
from table_app.runtime.ports import ObservationSource, Post
from vision.calibration.calibrate import calibrate
from vision.calibration.calibration import Calibration
from vision.render.game_scene import Scene, game_scenes
from vision.render.table_camera import TableCamera
from vision.sources.game_source import RenderedGameSource

logger = logging.getLogger(__name__)

RENDERER = "renderer"  # ``[camera] source`` / ``demo_config(camera=...)`` naming the rendered world
#: The world's frames → observations: builds the vision pipeline over the world, calibrated.
PipelineBuilder = Callable[[RenderedGameSource, Calibration], ObservationSource]


@dataclass(frozen=True, slots=True)
class WorldOptions:
    frames_per_scene: int = 2  # the tracker confirms a change after two frames
    board_settle_s: float = 2.0  # the longest a scene that moves the board waits for the link's reading
    hand_started: bool = False  # the referee posts HandStarted at a cleared table (the tracker does)


class WorldReferee:
    """The person at the table who presses CONFIRM once a hand's end has been seen (and, if
    asked, signals each new deal): listens to the world's scenes, posts to the core."""

    def __init__(self, *, hand_started: bool = False) -> None:
        self._hand_started = hand_started
        self._post: Post | None = None

    def start(self, post: Post) -> None:
        self._post = post

    def stop(self) -> None:
        self._post = None

    def __call__(self, scene: Scene, at: float) -> None:
        post = self._post
        if post is None:
            return
        if scene.confirm:
            post(ButtonPress(at, RefereeButton.CONFIRM))
        if scene.cleared and self._hand_started:
            post(HandStarted(at))


class BoardWatch:
    """What the board should read at each moment of its script, and whether the link has posted
    it yet: the world holds a scene that moved the board until it has (the pty, the link's
    debounce and a loaded machine take what they take)."""

    def __init__(self, script: TableScript) -> None:
        state = TableState()
        self._times: list[float] = []
        self._states: list[TableState] = []
        for step in script.steps:
            state = apply_step(state, step, f"{script.source}:{step.line}")
            self._times.append(step.at)
            self._states.append(state)
        self._last: TraysRead | None = None

    def forward(self, post: Post) -> Post:
        """``post`` for the board's link, noting each reading on its way to the core."""

        def seen(observation: Observation) -> None:
            post(observation)  # the core has it before the world moves on
            if isinstance(observation, TraysRead) and observation.plausible:  # the core uses only these
                self._last = observation

        return seen

    def settled(self, at: float) -> bool:
        """The link's last reading is the table as the script has it at ``at``."""
        index = bisect.bisect_right(self._times, at) - 1
        expected = self._states[index] if index >= 0 else TableState()
        last = self._last
        return (
            last is not None
            and tuple(last.points) == tuple(expected.points)
            and (last.deposit, last.wall, last.kans) == (expected.deposit, expected.wall, expected.kans)
        )


class DemoWorld:
    """The whole table of the demo as one source: board, referee and the pipeline over the world."""

    def __init__(
        self,
        world: RenderedGameSource,
        pipeline: ObservationSource,
        board: SimulatedBoardSource,
        referee: WorldReferee,
        watch: BoardWatch | None = None,
    ) -> None:
        self.world = world
        self.pipeline = pipeline
        self.board = board
        self.referee = referee
        self.watch = watch
        world.on_scene(referee)

    @property
    def finished(self) -> threading.Event:
        return self.world.finished

    def start(self, post: Post) -> None:
        self.referee.start(post)
        # The world's first scene waits for the link's handshake.
        self.board.start(self.watch.forward(post) if self.watch is not None else post)
        self.pipeline.start(post)

    def stop(self) -> None:
        self.world.close()
        try:
            self.pipeline.stop()
        finally:
            self.referee.stop()
            self.board.stop()


def classifier_pipeline(world: RenderedGameSource, calibration: Calibration) -> ObservationSource:
    """The real vision pipeline over the world: table reader with the ONNX classifier, tracker."""
    # Imported here: the ONNX runtime and the reader load only when a demo with a camera starts
    # (and a trimmed build without the vision package still plays `--camera log`).
    from vision.classify.classifier import OnnxTileClassifier  # noqa: PLC0415

    try:
        from vision.live.light_meter import LightMeter  # noqa: PLC0415
        from vision.live.pipeline import VisionSource  # noqa: PLC0415
        from vision.live.table_reader import TableReader  # noqa: PLC0415
        from vision.live.tracking import Tracker  # noqa: PLC0415
    except ModuleNotFoundError as error:
        raise ConfigError(
            "camera.source",
            f"the vision pipeline is not in this build ({error.name} is missing): "
            "play the camera from the log instead (jantaku demo --camera log)",
        ) from error
    # Read as a live camera's frames are (vision.live.pipeline.table_reader), its light metered.
    reader = TableReader(calibration, OnnxTileClassifier(), light=LightMeter())
    source: ObservationSource = VisionSource(world, reader.read, Tracker())
    return source


def rendered_world(
    pipeline: PipelineBuilder = classifier_pipeline, options: WorldOptions = WorldOptions()
) -> VisionFactory:
    """The vision factory for ``build_runtime`` that plays ``config.feed``'s game as the demo's world."""

    def make(camera: CameraConfig, config: TableConfig) -> ObservationSource:
        if camera.source != RENDERER:
            raise ConfigError("camera.source", f"the demo's world is {RENDERER!r}, not {camera.source!r}")
        if config.feed is None:
            raise ConfigError("feed.log", "the rendered world plays a logged game: name one")
        game = feed_game(config.feed)
        profile = profile_for_log(config.profile, game.rules)
        script = board_script(game.events, profile, f"{config.feed.log} (board script)")
        watch = BoardWatch(script)
        world = world_source(game.events, profile, script, options, pace_s=config.feed.pace_s, watch=watch)
        calibration = calibrate(world.first_image())  # from the corner markers, as at a real table
        board = SimulatedBoardSource(script, script_clock=world.board_time)
        referee = WorldReferee(hand_started=options.hand_started)
        return DemoWorld(world, pipeline(world, calibration), board, referee, watch)

    return make


def world_source(
    events: tuple[GameEvent, ...],
    profile: RuleProfile,
    script: TableScript,
    options: WorldOptions = WorldOptions(),
    *,
    pace_s: float = 0.0,
    watch: BoardWatch | None = None,
) -> RenderedGameSource:
    """The game's scenes filmed by the fixed camera, each act taking at least ``pace_s``;
    ``script`` is the board's (``board_script``): scenes that move it stay until ``watch`` says
    the link has read the move (without a watch: ``board_settle_s``)."""
    scenes = game_scenes(events, profile)
    return RenderedGameSource(
        scenes,
        TableCamera(),
        frames_per_scene=options.frames_per_scene,
        min_interval_s=pace_s / options.frames_per_scene,
        board_steps=[step.at for step in script.steps],
        board_settle_s=options.board_settle_s,
        board_settled=watch.settled if watch is not None else None,
        lead_in_s=BOARD_LEAD_IN_S,
    )


def board_script(events: tuple[GameEvent, ...], profile: RuleProfile, source: str) -> TableScript:
    """The board's script on the world's clock: one unit per observation the log feed would post,
    which is the clock every scene's ``board_at`` is on."""
    try:
        return parse_script(table_script_text(events, profile, step_s=1.0, start_s=0.0), source)
    except ValueError as error:
        raise BoardScriptError(f"the simulated board cannot play this game: {error}") from error
