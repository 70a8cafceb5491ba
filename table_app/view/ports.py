"""The two ports the web server needs, and the console commands, as plain values.

The runtime implements both ports; :mod:`table_app.web.replay_feed` implements them over a
replayed log. They live here, beside the view and away from the web framework, so that the
runtime can implement them without importing the server.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from table_app.domain.tile import Tile
from table_app.view.model import TableView

#: Called with every new view, from whatever thread produced it; must return quickly.
ViewListener = Callable[[TableView], None]
Unsubscribe = Callable[[], None]


class ViewFeed(Protocol):
    """Where the web gets what to show."""

    def current(self) -> TableView:
        """The latest view."""
        ...

    def subscribe(self, listener: ViewListener) -> Unsubscribe:
        """Call ``listener`` with each new view from now on; the result stops the calls."""
        ...


@dataclass(frozen=True, slots=True)
class Confirm:
    """The referee confirms what was put to them (or the event waiting for confirmation)."""


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last accepted event."""


@dataclass(frozen=True, slots=True)
class CorrectTile:
    """The tile at ``index`` (0 = first discard) in ``seat``'s pond is really ``tile``."""

    seat: int
    index: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class ChooseProfile:
    name: str


ConsoleCommand = Confirm | Undo | CorrectTile | ChooseProfile


@dataclass(frozen=True, slots=True)
class ConsoleReply:
    accepted: bool
    reason: str = ""  # why it was refused (or a note when accepted)


class ConsoleSink(Protocol):
    """Where the referee console's commands go."""

    def submit(self, command: ConsoleCommand) -> ConsoleReply:
        """Act on ``command`` or refuse it with a reason. May block briefly (called off the event loop)."""
        ...
