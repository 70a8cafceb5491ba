"""What the table link reports: observations, never game events (the referee decides those)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from firmware_bridge.messages import Hello


class ReadingFlag(Enum):
    """Why a reading is implausible. A flagged reading is still reported, never dropped."""

    TOTAL_MISMATCH = "total_mismatch"  # trays + deposit differ from the game's total
    SLOT_OVERFULL = "slot_overfull"  # more sticks in a slot than the whole set has
    INEXACT_SLOT = "inexact_slot"  # a slot reads between two stick counts
    WALL_ROSE = "wall_rose"  # the live wall grew within a hand
    WALL_OUT_OF_RANGE = "wall_out_of_range"
    BOARD_DISAGREES = "board_disagrees"  # the board's own stick count differs from ours
    BOARD_ERROR = "board_error"  # the board raised one of its error flags


@dataclass(frozen=True, slots=True)
class Flag:
    kind: ReadingFlag
    detail: str  # names where: "seat 2, 1000-point slot: ..."


@dataclass(frozen=True, slots=True)
class TrayReading:
    """One debounced reading of the table's sensors, with whatever looked implausible."""

    at: float  # link clock
    seq: int  # sequence number of the frame that completed it
    points: tuple[int, int, int, int]  # per seat, from our calibration
    sticks: tuple[tuple[int, ...], ...]  # [seat][slot] stick counts
    denominations: tuple[int, ...]  # the value of each slot
    deposit: int  # riichi sticks in the deposit
    wall: int  # live-wall tiles left
    kans: int
    hand: int  # the board's hand counter
    flags: tuple[Flag, ...] = ()
    raw: tuple[tuple[int, ...], ...] = ()  # [seat][slot] ADC readings behind it (for calibration)
    deposit_raw: int = 0

    @property
    def plausible(self) -> bool:
        return not self.flags


class LinkState(Enum):
    CONNECTING = "connecting"
    CONNECTED = "connected"
    LOST = "lost"
    INCOMPATIBLE = "incompatible"  # the board speaks another protocol version: refused
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class LinkStatus:
    at: float
    state: LinkState
    detail: str
    board: Hello | None = None


@dataclass(frozen=True, slots=True)
class CommandAnswer:
    """The board's ACK or NAK to a command the host sent (``reason`` is empty for an ACK)."""

    at: float
    echoed_seq: int
    accepted: bool
    reason: str = ""


#: What the link reports of the table (the runtime turns these into the referee's observations,
#: ``table_app.observations.TraysRead`` and ``LinkChanged``).
LinkReport = TrayReading | LinkStatus
# Everything a link posts to its consumer: its reports, and answers to the host's commands.
LinkOutput = LinkReport | CommandAnswer
