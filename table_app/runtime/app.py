"""The composition root: a config in, a running referee out.

``build_runtime`` opens the journal, resumes an unfinished game, and wires the sources the
config names (the table link, the GPIO panel, a camera through a vision pipeline, or the log
feed stepping stone) to one :class:`RefereeCore`, with its listeners (printed announcements,
speech, the panel's LEDs, and whatever the caller adds: the web display). The vision pipeline
is passed in as a factory, so this module never imports it: ``vision=`` is where
``jantaku demo`` and ``jantaku run`` plug the renderer-fed or camera-fed pipeline in.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TextIO, runtime_checkable

from firmware_bridge.calibration_file import load_calibration
from firmware_bridge.sim_script import ScriptError, TableScript, parse_script
from table_app.interpret import TableSetup, new_session
from table_app.interpret.event_observations import FeedOptions, log_observations
from table_app.journal.schema import examine
from table_app.journal.store import GameStore, GameSummary
from table_app.logs import read_log
from table_app.observations import Observation
from table_app.rules.check import profile_for_log
from table_app.rules.events import StartKyoku
from table_app.rules.profiles import RuleProfile
from table_app.rules.record import GameLog
from table_app.runtime.adapters import FeedSource, LinkSource, PanelSource, SimulatedBoardSource
from table_app.runtime.config import CameraConfig, ConfigError, FeedConfig, TableConfig
from table_app.runtime.core import RefereeCore
from table_app.runtime.listeners import PanelListener, TextAnnouncer
from table_app.runtime.log_feed import FeedResumeError, resume_index
from table_app.runtime.log_table_script import table_script_text
from table_app.runtime.ports import CoreListener, ObservationSource
from table_app.runtime.speech import EspeakSpeaker, SpeechListener

if TYPE_CHECKING:
    from table_app.runtime.hall_publisher import HallPublisher

logger = logging.getLogger(__name__)

BOARD_LEAD_IN_S = 1.5  # the link's handshake with the simulated board comes before the first deal
VisionFactory = Callable[[CameraConfig, TableConfig], ObservationSource]


@runtime_checkable
class FiniteSource(Protocol):
    """A source that runs out (a log feed, the demo's rendered world): ``finished`` is set when
    it has posted everything it had."""

    @property
    def finished(self) -> threading.Event: ...


@dataclass
class Runtime:
    config: TableConfig
    store: GameStore
    core: RefereeCore
    sources: list[ObservationSource] = field(default_factory=list)
    feed: FeedSource | None = None
    speaker: EspeakSpeaker | None = None
    finished: threading.Event | None = None  # a finite source (the feed, a rendered world) has run out
    hall: HallPublisher | None = None  # [hall]: the journal published to the hall's broker

    def start(self) -> Runtime:
        if self.hall is not None:
            self.hall.start()
            self.core.add_listener(self.hall)
        self.core.start()
        for source in self.sources:
            source.start(self.core.post)
            if isinstance(source, PanelSource) and source.panel is not None:
                self.core.add_listener(PanelListener(source.panel))
        return self

    def stop(self) -> None:
        for source in reversed(self.sources):
            try:
                source.stop()
            except Exception:
                logger.exception("stopping %r", source)
        self.core.drain()
        self.core.stop()
        if self.hall is not None:
            self.hall.stop()  # after the core: the last rows journaled go out too
        if self.speaker is not None:
            self.speaker.close()
        self.store.close()


def build_runtime(
    config: TableConfig,
    *,
    vision: VisionFactory | None = None,
    listeners: Sequence[CoreListener] = (),
    out: TextIO | None = None,
    pin_factory: Any = None,
    resume: bool = True,
) -> Runtime:
    """``resume``: go on with the journal's unfinished game, if any (else start a new one)."""
    store = GameStore(config.db)
    try:
        return _wire(config, store, vision=vision, listeners=listeners, out=out, pin_factory=pin_factory, resume=resume)
    except BaseException:
        store.close()  # a config or a board script that fails leaves no journal open behind it
        raise


def _wire(
    config: TableConfig,
    store: GameStore,
    *,
    vision: VisionFactory | None,
    listeners: Sequence[CoreListener],
    out: TextIO | None,
    pin_factory: Any,
    resume: bool,
) -> Runtime:
    setup = TableSetup(
        config.profile,
        config.names,
        config.first_dealer,
        settle_s=config.settle_s,
        confidence_floor=config.confidence_floor,
    )
    observations = None
    if config.feed is not None:
        observations, setup = _feed_observations(config.feed, config)
    core = RefereeCore(store, setup, [TextAnnouncer(out or sys.stdout, config.languages), *listeners], resume=resume)
    runtime = Runtime(config, store, core)
    if config.hall is not None:
        from table_app.runtime.hall_publisher import HallPublisher  # noqa: PLC0415 (only a hall table loads MQTT)

        runtime.hall = HallPublisher(config.hall, config.db)
    if config.speech:
        runtime.speaker = EspeakSpeaker()
        core.add_listener(SpeechListener(runtime.speaker))
    if config.link is not None:
        calibration = load_calibration(config.link.calibration) if config.link.calibration is not None else None
        runtime.sources.append(LinkSource(config.link.port, calibration=calibration))
    if config.panel is not None:
        runtime.sources.append(PanelSource(config.panel, pin_factory))
    if config.camera is not None:
        if vision is None:
            raise ConfigError("camera.source", "no vision pipeline is installed in this build (use [feed] meanwhile)")
        camera = vision(config.camera, config)
        runtime.sources.append(camera)
        if isinstance(camera, FiniteSource):
            runtime.finished = camera.finished
    # With a camera and no simulated board from the feed, the camera's source plays the whole
    # table (the demo's rendered world brings its own board): the feed has nothing to post.
    feed_plays = config.camera is None or (config.feed is not None and config.feed.simulate_board)
    if observations is not None and config.feed is not None and feed_plays:
        journaled = [entry.event for entry in store.events(core.game_id)] if core.game_id is not None else []
        try:
            skip = resume_index(observations, new_session(setup), journaled)
        except FeedResumeError as error:
            raise ConfigError("table.db", f"{config.db}: {error}; use a fresh journal for this log") from error
        delay = 0.0
        if skip:
            logger.info("feed resumes at observation %d of %d", skip, len(observations))
        if config.feed.simulate_board:
            # The board plays the same log on the feed's clock, after a lead-in for the link;
            # resuming, it first stands as the table stood then.
            delay = BOARD_LEAD_IN_S
            script = board_script(config.feed, setup.profile, skip)
            runtime.sources.append(SimulatedBoardSource(script))
        # With a camera (the demo's renderer + vision), the feed plays only the board.
        runtime.feed = FeedSource(observations if config.camera is None else (), config.feed.pace_s, skip, delay)
        runtime.sources.append(runtime.feed)
        if config.camera is None:  # beside a camera the feed plays only the board: its end is not the game's
            runtime.finished = runtime.feed.finished
    return runtime


def unfinished_game(db: Path) -> GameSummary | None:
    """The journal's unfinished game (the latest), if it has one; read without writing (no
    journal is made, and a running referee's lock is not needed to look)."""
    if not examine(str(db)).exists:
        return None
    store = GameStore(db, read_only=True)
    try:
        game = store.latest_unfinished()
        return None if game is None else store.game(game)
    finally:
        store.close()


class BoardScriptError(ValueError):
    """The simulated board cannot play the feed's game; the message names the log and why."""


def board_script(feed: FeedConfig, profile: RuleProfile, skip: int) -> TableScript:
    """The simulated board's script for the feed's game, on the feed's clock after the lead-in.

    The script is made by us, so a failure here is a bug or a game no table could show, never
    the user's typo: it becomes one :class:`BoardScriptError` naming the log (and the script's
    line), which the command line reports in one line instead of a traceback."""
    source = f"{feed.log} (board script)"
    try:
        text = table_script_text(feed_game(feed).events, profile, feed.pace_s, BOARD_LEAD_IN_S, skip)
        return parse_script(text, source)
    except ScriptError as error:
        raise BoardScriptError(f"the simulated board cannot play this game: {error}") from error
    except ConfigError:
        raise
    except Exception as error:  # whatever broke, the demo reports it in one line
        raise BoardScriptError(f"{source}: cannot be made ({type(error).__name__}: {error})") from error


def feed_game(feed: FeedConfig) -> GameLog:
    """The feed's game: the log's first four-player game of rules the core supports."""
    games = [g for g in read_log(feed.log) if g.players == 4 and g.rules.unsupported is None]
    if not games:
        raise ConfigError("feed.log", f"{feed.log} holds no four-player game to play")
    return games[0]


def _feed_observations(feed: FeedConfig, config: TableConfig) -> tuple[list[Observation], TableSetup]:
    """The feed's observations, and the setup of the logged game (its profile, first dealer)."""
    game = feed_game(feed)
    profile = profile_for_log(config.profile, game.rules)
    first = next((e.oya for e in game.events if isinstance(e, StartKyoku)), config.first_dealer)
    trays = feed.trays and not feed.simulate_board
    observations = list(log_observations(game.events, profile, FeedOptions(trays=trays)))
    return observations, TableSetup(
        profile, config.names, first, settle_s=config.settle_s, confidence_floor=config.confidence_floor
    )
