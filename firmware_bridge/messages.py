"""The messages of the table link protocol, version 1 (docs/protocol.md is the reference).

Pure values; their byte layouts are in layouts.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, IntFlag

SEAT_COUNT = 4
# Seat index used in SLOT_CHANGED for the riichi deposit (it is measured like a tray slot).
DEPOSIT_SEAT = 4
MAX_SLOTS_PER_TRAY = 8


class MessageType(IntEnum):
    # board → host
    HELLO = 0x01
    STATE = 0x02
    SLOT_CHANGED = 0x03
    WALL_CHANGED = 0x04
    HEARTBEAT = 0x05
    # host → board
    REQUEST_HELLO = 0x10
    REQUEST_STATE = 0x11
    CALIBRATE_SLOT = 0x12
    COMMIT_CALIBRATION = 0x13
    # both ways: the answer to a command (and the host's answer to HELLO)
    ACK = 0x20
    NAK = 0x21


class Capability(IntFlag):
    RESISTOR_STICKS = 0x0001
    CAPACITOR_STICKS = 0x0002
    DEPOSIT_SLOT = 0x0004
    WALL_COUNT = 0x0008
    KAN_COUNT = 0x0010
    CHANGE_EVENTS = 0x0020


class BoardFlag(IntFlag):
    """Errors the board itself reports in STATE and HEARTBEAT."""

    ADC_FAULT = 0x0001
    WALL_SENSOR_FAULT = 0x0002
    NOT_CALIBRATED = 0x0004
    SLOT_OUT_OF_RANGE = 0x0008
    WATCHDOG_RESET = 0x0010


class NakReason(IntEnum):
    UNKNOWN_TYPE = 1
    BAD_ARGUMENT = 2
    BUSY = 3
    UNSUPPORTED = 4


@dataclass(frozen=True, slots=True)
class Hello:
    protocol_major: int
    protocol_minor: int
    firmware: tuple[int, int, int]
    board_id: int
    calibration_id: int
    capabilities: Capability
    slots_per_tray: int

    @property
    def firmware_text(self) -> str:
        return ".".join(str(part) for part in self.firmware)


@dataclass(frozen=True, slots=True)
class SlotSample:
    """One tray slot as the board measured it: the raw ADC reading and the board's stick count."""

    raw: int
    count: int


@dataclass(frozen=True, slots=True)
class State:
    """A full snapshot. Sent periodically, so any lost frame is repaired by the next one."""

    board_flags: BoardFlag
    hand: int  # the board's hand counter (wraps at 256): +1 each time the walls rise again
    wall: int  # live-wall tiles left
    kans: int
    deposit: SlotSample  # the riichi-stick deposit slot (1000-point sticks)
    trays: tuple[tuple[SlotSample, ...], ...]  # [seat][slot]
    points: tuple[int, int, int, int]  # the board's own sum per tray


@dataclass(frozen=True, slots=True)
class SlotChanged:
    seat: int  # 0-3, or DEPOSIT_SEAT for the deposit
    slot: int
    sample: SlotSample


@dataclass(frozen=True, slots=True)
class WallChanged:
    hand: int
    wall: int
    kans: int


@dataclass(frozen=True, slots=True)
class Heartbeat:
    uptime_ms: int
    board_flags: BoardFlag


@dataclass(frozen=True, slots=True)
class RequestHello:
    pass


@dataclass(frozen=True, slots=True)
class RequestState:
    pass


@dataclass(frozen=True, slots=True)
class CalibrateSlot:
    """Store one slot's calibration on the board (it answers ACK, or NAK for a bad slot)."""

    seat: int  # 0-3, or DEPOSIT_SEAT
    slot: int
    empty_reading: int
    per_stick_micro: int  # the slot's per-stick step in millionths (see calibration.py)


@dataclass(frozen=True, slots=True)
class CommitCalibration:
    calibration_id: int


@dataclass(frozen=True, slots=True)
class Ack:
    echoed_seq: int


@dataclass(frozen=True, slots=True)
class Nak:
    echoed_seq: int
    reason: NakReason


Message = (
    Hello
    | State
    | SlotChanged
    | WallChanged
    | Heartbeat
    | RequestHello
    | RequestState
    | CalibrateSlot
    | CommitCalibration
    | Ack
    | Nak
)

BOARD_TO_HOST = frozenset(
    {MessageType.HELLO, MessageType.STATE, MessageType.SLOT_CHANGED, MessageType.WALL_CHANGED, MessageType.HEARTBEAT}
)
