"""Byte layouts of the table-link messages (docs/protocol.md §4); pure, no I/O.

Every multi-byte field is big-endian ("network order"), so the layouts read the same in a hex
dump as in the document.
"""

from __future__ import annotations

import struct

from firmware_bridge.messages import (
    DEPOSIT_SEAT,
    MAX_SLOTS_PER_TRAY,
    SEAT_COUNT,
    Ack,
    BoardFlag,
    CalibrateSlot,
    Capability,
    CommitCalibration,
    Heartbeat,
    Hello,
    Message,
    MessageType,
    Nak,
    NakReason,
    RequestHello,
    RequestState,
    SlotChanged,
    SlotSample,
    State,
    WallChanged,
)


class MessageError(ValueError):
    """A frame passed its CRC but its body does not fit its message type."""


_HELLO = struct.Struct(">BBBBBIHHB")
_STATE_HEAD = struct.Struct(">HBBBHBB")
_SLOT = struct.Struct(">HB")
_POINTS = struct.Struct(">IIII")
_SLOT_CHANGED = struct.Struct(">BBHB")
_WALL_CHANGED = struct.Struct(">BBB")
_HEARTBEAT = struct.Struct(">IH")
_CALIBRATE_SLOT = struct.Struct(">BBHI")
_U16 = struct.Struct(">H")
_NAK = struct.Struct(">HB")


def message_type(message: Message) -> MessageType:
    return _TYPE_OF[type(message)]


def encode_body(message: Message) -> bytes:
    """The body bytes of ``message`` (the frame adds header and CRC)."""
    match message:
        case Hello():
            major, minor, patch = message.firmware
            return _HELLO.pack(
                message.protocol_major,
                message.protocol_minor,
                major,
                minor,
                patch,
                message.board_id,
                message.calibration_id,
                int(message.capabilities),
                message.slots_per_tray,
            )
        case State():
            return _encode_state(message)
        case SlotChanged():
            return _SLOT_CHANGED.pack(message.seat, message.slot, message.sample.raw, message.sample.count)
        case WallChanged():
            return _WALL_CHANGED.pack(message.hand, message.wall, message.kans)
        case Heartbeat():
            return _HEARTBEAT.pack(message.uptime_ms, int(message.board_flags))
        case RequestHello() | RequestState():
            return b""
        case CalibrateSlot():
            return _CALIBRATE_SLOT.pack(message.seat, message.slot, message.empty_reading, message.per_stick_micro)
        case CommitCalibration():
            return _U16.pack(message.calibration_id)
        case Ack():
            return _U16.pack(message.echoed_seq)
        case Nak():
            return _NAK.pack(message.echoed_seq, int(message.reason))
    raise TypeError(f"not a table-link message: {message!r}")


def _encode_state(state: State) -> bytes:
    slots = len(state.trays[0]) if state.trays else 0
    if len(state.trays) != SEAT_COUNT or any(len(tray) != slots for tray in state.trays):
        raise ValueError(f"STATE needs {SEAT_COUNT} trays of equal length, got {[len(t) for t in state.trays]}")
    parts = [
        _STATE_HEAD.pack(
            int(state.board_flags), state.hand, state.wall, state.kans, state.deposit.raw, state.deposit.count, slots
        )
    ]
    parts.extend(_SLOT.pack(sample.raw, sample.count) for tray in state.trays for sample in tray)
    parts.append(_POINTS.pack(*state.points))
    return b"".join(parts)


def decode_body(kind: MessageType, body: bytes) -> Message:
    """The message of type ``kind`` in ``body``; MessageError names the type and the problem."""
    try:
        return _decode(kind, body)
    except (struct.error, ValueError) as error:
        if isinstance(error, MessageError):
            raise
        raise MessageError(f"{kind.name} body of {len(body)} bytes is malformed: {error}") from error


def _decode(kind: MessageType, body: bytes) -> Message:
    match kind:
        case MessageType.HELLO:
            major, minor, fw_major, fw_minor, fw_patch, board_id, calibration_id, capabilities, slots = _HELLO.unpack(
                body
            )
            return Hello(
                major, minor, (fw_major, fw_minor, fw_patch), board_id, calibration_id, Capability(capabilities), slots
            )
        case MessageType.STATE:
            return _decode_state(body)
        case MessageType.SLOT_CHANGED:
            seat, slot, raw, count = _SLOT_CHANGED.unpack(body)
            if seat > DEPOSIT_SEAT or slot >= MAX_SLOTS_PER_TRAY:
                raise MessageError(f"SLOT_CHANGED names seat {seat} slot {slot}, which does not exist")
            return SlotChanged(seat, slot, SlotSample(raw, count))
        case MessageType.WALL_CHANGED:
            return WallChanged(*_WALL_CHANGED.unpack(body))
        case MessageType.HEARTBEAT:
            uptime, flags = _HEARTBEAT.unpack(body)
            return Heartbeat(uptime, BoardFlag(flags))
        case MessageType.REQUEST_HELLO | MessageType.REQUEST_STATE:
            if body:
                raise MessageError(f"{kind.name} has no body, got {len(body)} bytes")
            return RequestHello() if kind is MessageType.REQUEST_HELLO else RequestState()
        case MessageType.CALIBRATE_SLOT:
            return CalibrateSlot(*_CALIBRATE_SLOT.unpack(body))
        case MessageType.COMMIT_CALIBRATION:
            return CommitCalibration(*_U16.unpack(body))
        case MessageType.ACK:
            return Ack(*_U16.unpack(body))
        case MessageType.NAK:
            seq, reason = _NAK.unpack(body)
            return Nak(seq, NakReason(reason))
    raise MessageError(f"no decoder for message type {kind!r}")


# Building a frozen dataclass costs far more than a dict lookup, and a slot's reading repeats
# from snapshot to snapshot (a still tray, ADC noise of a few codes): samples are shared values,
# so equal ones can be the same object. Bounded, so a noisy line cannot grow it without end.
_SAMPLES: dict[tuple[int, int], SlotSample] = {}
_SAMPLES_MAX = 4096


def _sample(raw: int, count: int) -> SlotSample:
    key = (raw, count)
    sample = _SAMPLES.get(key)
    if sample is None:
        if len(_SAMPLES) >= _SAMPLES_MAX:
            _SAMPLES.clear()
        sample = _SAMPLES[key] = SlotSample(raw, count)
    return sample


def _decode_state(body: bytes) -> State:
    head = _STATE_HEAD.size
    flags, hand, wall, kans, deposit_raw, deposit_count, slots = _STATE_HEAD.unpack_from(body)
    if slots > MAX_SLOTS_PER_TRAY:
        raise MessageError(f"STATE claims {slots} slots per tray; at most {MAX_SLOTS_PER_TRAY} exist")
    expected = head + SEAT_COUNT * slots * _SLOT.size + _POINTS.size
    if len(body) != expected:
        raise MessageError(f"STATE with {slots} slots per tray must be {expected} bytes, got {len(body)}")
    values = struct.unpack_from(">" + "HB" * (SEAT_COUNT * slots), body, head)
    samples = [_sample(values[i], values[i + 1]) for i in range(0, len(values), 2)]
    trays = tuple(tuple(samples[seat * slots : (seat + 1) * slots]) for seat in range(SEAT_COUNT))
    points = _POINTS.unpack_from(body, expected - _POINTS.size)
    return State(BoardFlag(flags), hand, wall, kans, SlotSample(deposit_raw, deposit_count), trays, points)


_TYPE_OF: dict[type, MessageType] = {
    Hello: MessageType.HELLO,
    State: MessageType.STATE,
    SlotChanged: MessageType.SLOT_CHANGED,
    WallChanged: MessageType.WALL_CHANGED,
    Heartbeat: MessageType.HEARTBEAT,
    RequestHello: MessageType.REQUEST_HELLO,
    RequestState: MessageType.REQUEST_STATE,
    CalibrateSlot: MessageType.CALIBRATE_SLOT,
    CommitCalibration: MessageType.COMMIT_CALIBRATION,
    Ack: MessageType.ACK,
    Nak: MessageType.NAK,
}
