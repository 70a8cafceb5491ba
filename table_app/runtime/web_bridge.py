"""The runtime behind the web's two ports (``table_app.view.ports``): views and console commands.

``RuntimeViewFeed`` is a core listener: each update (after its events are journaled) becomes a
``TableView`` with the last announcement and the open question rendered in Japanese and
English, the link's and camera's health and the trays as the board reads them.
``RuntimeConsoleSink`` submits the console's commands to the core thread as observations; the
core rules on each there, and the future the server awaits resolves to that ruling.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future

from table_app.announce.announcement import Announcement, AnnouncementKind, announce
from table_app.announce.catalogue import Language, render
from table_app.domain.seat import Seat
from table_app.domain.seat_names import BY_NUMBER, SeatNaming
from table_app.interpret.ruling import Ruling
from table_app.interpret.session import Question
from table_app.observations import ButtonPress, LinkHealth, Observation, ProfileChosen, RefereeButton, TileCorrected
from table_app.rules.fold import new_game
from table_app.rules.profiles import RuleProfile
from table_app.runtime.core import RefereeCore
from table_app.runtime.ports import CoreUpdate
from table_app.view.build import RuntimeExtras, build_view
from table_app.view.model import AnnouncementText, DeviceStatus, TableView
from table_app.view.ports import (
    ChooseProfile,
    Confirm,
    ConsoleCommand,
    CorrectTile,
    Undo,
    Unsubscribe,
    ViewListener,
)
from table_app.web.subscribers import Subscribers

_LINK = {
    LinkHealth.CONNECTED: DeviceStatus.OK,
    LinkHealth.CONNECTING: DeviceStatus.CONNECTING,
    LinkHealth.LOST: DeviceStatus.LOST,
    LinkHealth.INCOMPATIBLE: DeviceStatus.LOST,
}


def announcement_text(said: Announcement, seats: SeatNaming = BY_NUMBER) -> AnnouncementText:
    return AnnouncementText(
        said.kind.value,
        int(said.seat) if said.seat is not None else None,
        render(said, Language.JA, seats),
        render(said, Language.EN, seats),
    )


def question_text(question: Question, seats: SeatNaming = BY_NUMBER) -> AnnouncementText:
    said = announce(
        AnnouncementKind.QUESTION, question.seat, question=question.id, topic=question.topic, options=question.options
    )
    return announcement_text(said, seats)


class RuntimeViewFeed:
    """A ``ViewFeed`` fed by the core thread. ``has_link``/``has_camera``: whether the table
    has them at all (``absent`` on the pages otherwise)."""

    def __init__(self, profile: RuleProfile, *, has_link: bool, has_camera: bool) -> None:
        self._has_link = has_link
        self._has_camera = has_camera
        self._lock = threading.Lock()
        self._subscribers = Subscribers()
        self._sequence = 0
        self._last_said: AnnouncementText | None = None
        self._view = build_view(new_game(profile), self._extras(None))

    def _extras(self, update: CoreUpdate | None) -> RuntimeExtras:
        link = DeviceStatus.ABSENT
        camera = DeviceStatus.ABSENT
        if update is not None and self._has_link:
            link = _LINK[update.link]
        if update is not None and self._has_camera:
            camera = DeviceStatus.OK if update.camera_ok else DeviceStatus.LOST
        question = (
            question_text(update.question, update.state.seat_naming())
            if update is not None and update.question is not None
            else None
        )
        trays = update.trays if update is not None else None
        return RuntimeExtras(self._sequence, self._last_said, question, link, camera, trays)

    def on_update(self, update: CoreUpdate) -> None:
        with self._lock:
            if update.announcements:
                self._last_said = announcement_text(update.announcements[-1], update.state.seat_naming())
            self._sequence += 1
            self._view = build_view(update.state, self._extras(update))
            view, listeners = self._view, self._subscribers.snapshot()
        for listener in listeners:
            listener(view)

    def current(self) -> TableView:
        with self._lock:
            return self._view

    def subscribe(self, listener: ViewListener) -> Unsubscribe:
        return self._subscribers.add(listener)


class RuntimeConsoleSink:
    """A ``ConsoleSink`` submitting each command to the core thread, which rules on it there."""

    def __init__(self, core: RefereeCore, clock: Callable[[], float] = time.monotonic) -> None:
        self._core = core
        self._clock = clock

    def submit(self, command: ConsoleCommand) -> Future[Ruling]:
        return self._core.submit(request_for(command, self._clock()))


def request_for(command: ConsoleCommand, at: float) -> Observation:
    """What the console's ``command`` asks of the referee, as the observation the core steps."""
    match command:
        case Confirm():
            return ButtonPress(at, RefereeButton.CONFIRM)
        case Undo():
            return ButtonPress(at, RefereeButton.UNDO)
        case CorrectTile():
            return TileCorrected(at, command.tile, Seat(command.seat), command.index)
        case ChooseProfile():
            return ProfileChosen(at, command.name)
