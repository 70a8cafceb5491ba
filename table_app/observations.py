"""Observations: what the table's sensors report. The referee decides what they mean.

This is the port every adapter posts into the core thread: vision (ponds, melds, dora
indicators, hands laid open, the camera itself), the table link (trays, deposit, live wall,
the link itself) and the referee's panel or console (buttons, answers). None of these is a
game event: a tile appearing in a pond becomes a ``dahai`` only once the referee core has
cross-checked it (see :mod:`table_app.interpret`).

Pure values: no adapter is imported here, so the interpretation that reads them stays pure.
Adapters convert their own types (``firmware_bridge``'s ``TrayReading``, the GPIO panel's
``PanelPress``) into these at the edge (:mod:`table_app.runtime.adapters`).

The vision contract: report *changes* (a tile added to a pond, a meld appearing), each once,
in the order they happened; after ``CameraRestored``, only what changed since (the tracker
compares with what it last reported), never the whole table again.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from table_app.domain.seat import Seat
from table_app.domain.tile import Tile

# --- vision -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PondTileAdded:
    """A tile appeared at the end of ``seat``'s pond (sideways: a riichi declaration tile)."""

    at: float
    seat: Seat
    tile: Tile
    sideways: bool = False
    confidence: float = 1.0


@dataclass(frozen=True, slots=True)
class PondTileRemoved:
    """The last tile of ``seat``'s pond left it (taken by a call, or a misread withdrawn)."""

    at: float
    seat: Seat
    tile: Tile
    confidence: float = 1.0


@dataclass(frozen=True, slots=True)
class MeldAppeared:
    """A meld appeared in front of ``seat``. ``turned_from`` is who the sideways tile says it
    was called from (``None``: no tile is turned, a closed kan); ``called`` is that tile."""

    at: float
    seat: Seat
    tiles: tuple[Tile, ...]
    called: Tile | None
    turned_from: Seat | None
    confidence: float = 1.0


@dataclass(frozen=True, slots=True)
class MeldExtended:
    """A tile was added to ``seat``'s pon (an added kan)."""

    at: float
    seat: Seat
    tile: Tile
    confidence: float = 1.0


@dataclass(frozen=True, slots=True)
class DoraRevealed:
    at: float
    indicator: Tile
    confidence: float = 1.0


@dataclass(frozen=True, slots=True)
class HandLaidOpen:
    """``seat`` laid their concealed tiles open (a win or tenpai at a draw). ``tiles`` may hold
    the winning tile; ``winning`` is the tile set apart from the rest, if the camera saw one."""

    at: float
    seat: Seat
    tiles: tuple[Tile, ...]
    winning: Tile | None = None
    confidence: float = 1.0


@dataclass(frozen=True, slots=True)
class UraIndicatorsRevealed:
    """The dead wall's ura-dora indicators turned over after a riichi win."""

    at: float
    indicators: tuple[Tile, ...]
    confidence: float = 1.0


@dataclass(frozen=True, slots=True)
class CameraLost:
    at: float
    detail: str


@dataclass(frozen=True, slots=True)
class CameraRestored:
    at: float


# --- table link ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TraysRead:
    """One reading of the sensor board: points per tray, riichi sticks, live-wall tiles."""

    at: float
    points: tuple[int, ...]
    deposit: int
    wall: int
    kans: int = 0
    plausible: bool = True  # the link flagged nothing (see firmware_bridge's flags)


class LinkHealth(StrEnum):
    CONNECTED = "connected"
    LOST = "lost"
    CONNECTING = "connecting"
    INCOMPATIBLE = "incompatible"


@dataclass(frozen=True, slots=True)
class LinkChanged:
    at: float
    health: LinkHealth
    detail: str = ""


# --- referee ------------------------------------------------------------------------


class RefereeButton(StrEnum):
    """Same values as ``hardware.panel.PanelButton`` (which cannot be imported here)."""

    CONFIRM = "confirm"
    UNDO = "undo"
    ATTENTION = "attention"


@dataclass(frozen=True, slots=True)
class ButtonPress:
    at: float
    button: RefereeButton


@dataclass(frozen=True, slots=True)
class RefereeAnswer:
    """The referee answered a pending question from the console: ``choice`` is one of the
    question's options, by index."""

    at: float
    question: int
    choice: int


@dataclass(frozen=True, slots=True)
class TileCorrected:
    """The referee (console) says a discard was really ``tile`` (the camera misread it): the
    ``index``-th tile (0: the first) of ``seat``'s pond in the hand in play; with no seat,
    the last discard."""

    at: float
    tile: Tile
    seat: Seat | None = None
    index: int | None = None


@dataclass(frozen=True, slots=True)
class ProfileChosen:
    """The referee (console) chose the rule profile to play under from the next hand on."""

    at: float
    profile: str


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passes: the core posts one every fraction of a second, on its own monotonic clock,
    quiet table or not. Cross-checks time how long a disagreement has stood by these alone (the
    adapters' ``at`` values come from different clocks)."""

    at: float


@dataclass(frozen=True, slots=True)
class HandStarted:
    """The table began a hand (new deal: the board's hand counter moved, or the referee says so)."""

    at: float


Observation = (
    PondTileAdded
    | PondTileRemoved
    | MeldAppeared
    | MeldExtended
    | DoraRevealed
    | HandLaidOpen
    | UraIndicatorsRevealed
    | CameraLost
    | CameraRestored
    | TraysRead
    | LinkChanged
    | ButtonPress
    | RefereeAnswer
    | TileCorrected
    | ProfileChosen
    | HandStarted
    | Tick
)

VISION_OBSERVATIONS = (
    PondTileAdded,
    PondTileRemoved,
    MeldAppeared,
    MeldExtended,
    DoraRevealed,
    HandLaidOpen,
    UraIndicatorsRevealed,
    CameraLost,
    CameraRestored,
)
