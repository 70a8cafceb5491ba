"""The two ports the web server needs, and the console commands, as plain values.

The runtime implements both ports; :mod:`table_app.web.replay_feed` implements them over a
replayed log. They live here, beside the view and away from the web framework, so that the
runtime can implement them without importing the server.

A console command is a value handed to the sink; what comes back at once is a future that
resolves to the referee's :class:`~table_app.interpret.ruling.Ruling` on it: accepted, or
refused with its reason. The caller awaits it (or gives up waiting) without blocking a thread.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Protocol

from table_app.domain.tile import Tile
from table_app.interpret.ruling import Ruling
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


class ConsoleSink(Protocol):
    """Where the referee console's commands go."""

    def submit(self, command: ConsoleCommand) -> Future[Ruling]:
        """Hand ``command`` over without blocking; the future resolves to the ruling on it (never
        to an exception: a refusal says why). Cancelling it before it is acted on drops it."""
        ...
