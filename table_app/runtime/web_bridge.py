"""The runtime behind the web's two ports (``table_app.view.ports``): views and console commands.

``RuntimeViewFeed`` is a core listener: each update (after its events are journaled) becomes a
``TableView`` with the last announcement and the open question rendered in Japanese and
English, the link's and camera's health and the trays as the board reads them.
``RuntimeConsoleSink`` turns the console's commands into observations for the core thread and
waits for it to act on them (the server calls it off its event loop).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from table_app.announce.announcement import Announcement, AnnouncementKind, announce
from table_app.announce.catalogue import Language, render
from table_app.domain.seat import Seat
from table_app.domain.seat_names import BY_NUMBER, SeatNaming
from table_app.interpret.correction import pond_discard
from table_app.interpret.session import Question
from table_app.observations import ButtonPress, LinkHealth, ProfileChosen, RefereeButton, TileCorrected
from table_app.rules.fold import new_game
from table_app.rules.profiles import PROFILES, RuleProfile
from table_app.runtime.core import RefereeCore
from table_app.runtime.ports import CoreUpdate
from table_app.view.build import RuntimeExtras, build_view
from table_app.view.model import AnnouncementText, DeviceStatus, TableView
from table_app.view.ports import (
    ChooseProfile,
    Confirm,
    ConsoleCommand,
    ConsoleReply,
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
    """A ``ConsoleSink`` posting to the core thread and waiting until it has acted."""

    def __init__(self, core: RefereeCore, clock: Callable[[], float] = time.monotonic, wait_s: float = 5.0) -> None:
        self._core = core
        self._clock = clock
        self._wait_s = wait_s

    def submit(self, command: ConsoleCommand) -> ConsoleReply:
        core = self._core
        match command:
            case Confirm():
                core.post(ButtonPress(self._clock(), RefereeButton.CONFIRM))
            case Undo():
                if core.journal_seq == 0:
                    return ConsoleReply(False, "nothing to undo")
                core.post(ButtonPress(self._clock(), RefereeButton.UNDO))
            case CorrectTile():
                refusal = self._correctable(command)
                if refusal:
                    return ConsoleReply(False, refusal)
                core.post(TileCorrected(self._clock(), command.tile, Seat(command.seat), command.index))
                return self._acted(lambda: core.last_refusal)
            case ChooseProfile():
                return self._choose(command.name)
        return self._acted(lambda: "")

    def _acted(self, refusal: Callable[[], str]) -> ConsoleReply:
        """Wait for the core to have acted; ``refusal`` then says why it did not do it ("": done)."""
        try:
            self._core.drain(self._wait_s)
        except TimeoutError:
            return ConsoleReply(False, "the referee core is busy; try again")
        why = refusal()
        return ConsoleReply(not why, why)

    def _correctable(self, command: CorrectTile) -> str:
        game = self._core.session.game
        refusal = pond_discard(game, Seat(command.seat), command.index)
        if refusal:
            return refusal
        assert game.hand is not None
        read = game.hand.player(Seat(command.seat)).pond[command.index].tile
        if read == command.tile:
            return f"{game.seat_naming().en(command.seat)}'s discard {command.index + 1} is already {read}"
        return ""

    def _choose(self, name: str) -> ConsoleReply:
        core = self._core
        known = [p.name for p in PROFILES]
        if name not in known:
            return ConsoleReply(False, f"unknown rule profile {name!r} (one of {', '.join(known)})")
        if core.session.game.profile.name == name:
            return ConsoleReply(True, "already in use")
        if core.session.game.hand is not None:
            return ConsoleReply(False, "a hand is in play: the rule profile changes between hands only")
        core.post(ProfileChosen(self._clock(), name))
        return self._acted(
            lambda: "" if core.session.game.profile.name == name else "a hand started first: change it between hands"
        )
