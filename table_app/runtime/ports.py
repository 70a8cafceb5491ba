"""The runtime's ports: what posts observations in, and what hears the core's decisions.

``ObservationSource`` is what a camera + vision pipeline, the table link, the GPIO panel or a
log feed implements: started with the core's ``post``, it calls it from its own thread (never
touching the game state), and turns its own I/O failures into observations (``CameraLost``,
``LinkChanged``). ``CoreListener`` is what the display, the overlay's WebSocket, speech, the
panel's LEDs and the console printer implement: each update comes after its events are on
disk in the journal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from table_app.announce.announcement import Announcement
from table_app.interpret.ruling import DONE, Ruling
from table_app.interpret.session import Question
from table_app.observations import LinkHealth, Observation
from table_app.rules.events import GameEvent
from table_app.rules.state import GameState

Post = Callable[[Observation], None]


class ObservationSource(Protocol):
    def start(self, post: Post) -> None: ...

    def stop(self) -> None: ...


@dataclass(frozen=True, slots=True)
class CoreUpdate:
    """One step of the core, after journaling: the game now, what was accepted, what to say, and
    the ruling on what the step was asked (a refused correction, nothing to undo...)."""

    game_id: int | None
    state: GameState
    events: tuple[GameEvent, ...]
    announcements: tuple[Announcement, ...]
    question: Question | None
    journal_seq: int  # the journal's last sequence number (0: nothing journaled yet)
    link: LinkHealth = LinkHealth.CONNECTING
    camera_ok: bool = True
    trays: tuple[int, ...] | None = None  # points per seat as the board last read them
    ruling: Ruling = DONE


class CoreListener(Protocol):
    def on_update(self, update: CoreUpdate) -> None: ...
