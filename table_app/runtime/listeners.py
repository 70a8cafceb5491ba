"""Listeners that need no web: announcements printed in JA/EN, the GPIO panel's LEDs and buzzer,
and a recording listener for tests."""

from __future__ import annotations

import logging
import queue
from typing import TextIO

from hardware.panel import ILLEGAL_ACT_BEEP, NOTICE_BEEP, LinkLight, Panel
from table_app.announce.announcement import AnnouncementKind
from table_app.announce.catalogue import Language, render
from table_app.domain.seat import Seat
from table_app.runtime.ports import CoreUpdate

logger = logging.getLogger(__name__)


class TextAnnouncer:
    """Writes each announcement, rendered in each language, one line per language."""

    def __init__(self, stream: TextIO, languages: tuple[Language, ...] = (Language.JA, Language.EN)) -> None:
        self._stream = stream
        self._languages = languages

    def on_update(self, update: CoreUpdate) -> None:
        seats = update.state.seat_naming()
        for announcement in update.announcements:
            for language in self._languages:
                self._stream.write(f"[{language.value}] {render(announcement, language, seats)}\n")
        self._stream.flush()


class PanelListener:
    """The panel shows the link's health and who is in riichi; it beeps on an illegal act."""

    def __init__(self, panel: Panel) -> None:
        self._panel = panel

    def on_update(self, update: CoreUpdate) -> None:
        for announcement in update.announcements:
            match announcement.kind:
                case AnnouncementKind.ILLEGAL_ACT:
                    self._panel.beep(ILLEGAL_ACT_BEEP)
                case AnnouncementKind.QUESTION:
                    self._panel.beep(NOTICE_BEEP)
                case AnnouncementKind.LINK_LOST:
                    self._panel.set_link(LinkLight.LOST)
                case AnnouncementKind.LINK_RESTORED:
                    self._panel.set_link(LinkLight.OK)
                case AnnouncementKind.WALL_DISAGREES | AnnouncementKind.DEPOSIT_DISAGREES:
                    self._panel.set_link(LinkLight.DEGRADED)
        hand = update.state.hand
        for seat in Seat:
            lit = hand is not None and hand.player(seat).in_riichi
            if self._panel.riichi_lit(seat) != lit:
                self._panel.set_riichi(seat, lit)


class RecordingListener:
    """Every update, on a queue a test can wait on with a timeout."""

    def __init__(self) -> None:
        self.updates: queue.Queue[CoreUpdate] = queue.Queue()

    def on_update(self, update: CoreUpdate) -> None:
        self.updates.put(update)
