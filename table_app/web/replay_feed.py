"""A view feed and console over a replayed log: the rules core folds the log's events one step at a time.

Used by the web tests and by ``jantaku web --replay``. Stepping may happen on any thread;
listeners are called on that thread, after the lock is released.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor

from table_app.interpret.ruling import DONE, Ruling, refused
from table_app.rules.events import GameEvent
from table_app.rules.fold import apply, new_game
from table_app.rules.profiles import TENHOU, RuleProfile, profile_named
from table_app.rules.state import GameState
from table_app.rules.turns import ImpossibleEventError
from table_app.view.build import RuntimeExtras, build_view
from table_app.view.model import AnnouncementText, TableView
from table_app.view.ports import (
    ChooseProfile,
    Confirm,
    ConsoleCommand,
    CorrectTile,
    Undo,
    Unsubscribe,
    ViewListener,
)
from table_app.web.replay_announcements import replay_announcement
from table_app.web.subscribers import Subscribers

logger = logging.getLogger(__name__)


class ReplayFeed:
    """Folds ``events`` through the rules core; every step publishes a new :class:`TableView`."""

    def __init__(self, events: Sequence[GameEvent], profile: RuleProfile = TENHOU) -> None:
        self._events = tuple(events)
        self._profile = profile
        self._lock = threading.Lock()
        self._subscribers = Subscribers()
        self._position = 0
        self._sequence = 0
        self._state = new_game(profile)
        self._announcement: AnnouncementText | None = None
        self._view = self._build()

    @property
    def position(self) -> int:
        """How many events have been applied."""
        return self._position

    @property
    def length(self) -> int:
        return len(self._events)

    @property
    def at_end(self) -> bool:
        return self._position >= len(self._events)

    @property
    def state(self) -> GameState:
        return self._state

    def current(self) -> TableView:
        return self._view

    def subscribe(self, listener: ViewListener) -> Unsubscribe:
        return self._subscribers.add(listener)

    def step(self) -> bool:
        """Apply the next event; ``False`` (and no new view) at the end of the log."""
        with self._lock:
            if self.at_end:
                return False
            event = self._events[self._position]
            self._state = apply(self._state, event)
            self._position += 1
            self._announcement = replay_announcement(self._state, event) or self._announcement
        self._publish()
        return True

    def step_back(self) -> bool:
        """Undo the last applied event by folding the log again up to the one before it."""
        with self._lock:
            if self._position == 0:
                return False
            self._refold(self._profile, self._position - 1)
        self._publish()
        return True

    def use_profile(self, profile: RuleProfile) -> None:
        """Fold the events applied so far again under ``profile``; raises if they cannot be followed."""
        with self._lock:
            self._refold(profile, self._position)
        self._publish()

    def _refold(self, profile: RuleProfile, position: int) -> None:
        state = new_game(profile)
        announcement = None
        for event in self._events[:position]:
            state = apply(state, event)
            announcement = replay_announcement(state, event) or announcement
        self._profile, self._state, self._position, self._announcement = profile, state, position, announcement

    def _build(self) -> TableView:
        return build_view(self._state, RuntimeExtras(sequence=self._sequence, announcement=self._announcement))

    def _publish(self) -> None:
        with self._lock:
            self._sequence += 1
            self._view = self._build()
            view, listeners = self._view, self._subscribers.snapshot()
        for listener in listeners:
            try:
                listener(view)
            except Exception:
                # One broken subscriber must not stop the feed for the others.
                logger.exception("view listener failed")


class ReplayConsole:
    """Console commands for a replay: confirm steps on, undo steps back, profiles refold.

    Every command is recorded (``commands``) so tests can see what reached the sink. Commands
    are acted on in order on one worker thread (a profile refolds the whole game so far: not on
    the server's event loop).
    """

    def __init__(self, feed: ReplayFeed) -> None:
        self._feed = feed
        self._lock = threading.Lock()
        self._commands: list[ConsoleCommand] = []
        self._corrections: list[CorrectTile] = []
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="replay-console")

    @property
    def commands(self) -> tuple[ConsoleCommand, ...]:
        with self._lock:
            return tuple(self._commands)

    @property
    def corrections(self) -> tuple[CorrectTile, ...]:
        with self._lock:
            return tuple(self._corrections)

    def submit(self, command: ConsoleCommand) -> Future[Ruling]:
        with self._lock:
            self._commands.append(command)
        return self._worker.submit(self._ruled, command)

    def _ruled(self, command: ConsoleCommand) -> Ruling:
        ruling = self._act(command)
        logger.info("console %s: %s %s", command, "accepted" if ruling.accepted else "refused", ruling.reason)
        return ruling

    def _act(self, command: ConsoleCommand) -> Ruling:
        match command:
            case Confirm():
                if self._feed.step():
                    return DONE
                return refused("nothing to confirm: the log is over")
            case Undo():
                if self._feed.step_back():
                    return DONE
                return refused("nothing to undo: no event has been applied")
            case CorrectTile():
                return self._correct(command)
            case ChooseProfile(name=name):
                try:
                    profile = profile_named(name)
                except ValueError as error:
                    return refused(str(error))
                try:
                    self._feed.use_profile(profile)
                except ImpossibleEventError as error:
                    return refused(f"the game so far cannot be followed under {name}: {error}")
                return DONE
        return refused(f"unknown command {command!r}")

    def _correct(self, command: CorrectTile) -> Ruling:
        view = self._feed.current()
        if not 0 <= command.seat < len(view.seats):
            return refused(f"no seat {command.seat} (the API's seats are 0-3)")
        shown = view.seats[command.seat]
        who, pond, number = shown.label.en, shown.pond, command.index + 1
        if not 0 <= command.index < len(pond):
            return refused(f"{who} has no discard {number} ({len(pond)} in the pond)")
        with self._lock:
            self._corrections.append(command)
        # A replayed log is right by definition: the correction is recorded, the log stays as it is.
        return Ruling(True, f"recorded: {who}'s discard {number} is {command.tile}")
