"""Frames: header + message body + CRC, COBS-encoded and delimited by 0x00 on both sides.

Decoded payload layout (before COBS)::

    version u8 | seq u16 | type u8 | body ... | crc16 u16      (big-endian)

The CRC (CRC-16/CCITT-FALSE, see crc.py) covers header and body. The version byte comes first
and the CRC last in every protocol version, so a host can always recognise (and refuse) a
board that speaks another version instead of calling its frames garbage.
"""

from __future__ import annotations

import logging
import struct
from dataclasses import dataclass
from enum import Enum

from firmware_bridge.cobs import CobsError, cobs_decode, cobs_encode
from firmware_bridge.crc import crc16_ccitt_false
from firmware_bridge.layouts import MessageError, decode_body, encode_body, message_type
from firmware_bridge.messages import Message, MessageType

PROTOCOL_VERSION = 1
PROTOCOL_MINOR = 0
DELIMITER = b"\x00"
# Longest decoded payload any v1 message has (STATE with 8 slots is 9 + 96 + 16 + 6 bytes).
MAX_PAYLOAD_BYTES = 160
# A chunk longer than this cannot be a frame: it is dropped instead of growing the buffer.
MAX_ENCODED_BYTES = MAX_PAYLOAD_BYTES + MAX_PAYLOAD_BYTES // 254 + 2

_HEADER = struct.Struct(">BHB")
_CRC = struct.Struct(">H")
_MIN_PAYLOAD = _HEADER.size + _CRC.size
_TYPES = {kind.value: kind for kind in MessageType}

wire_log = logging.getLogger("firmware_bridge.wire")


@dataclass(frozen=True, slots=True)
class Frame:
    seq: int
    message: Message


class FrameFault(Enum):
    BAD_COBS = "bad COBS"
    TOO_SHORT = "too short"
    TOO_LONG = "too long"
    BAD_CRC = "bad CRC"
    OTHER_VERSION = "other protocol version"
    UNKNOWN_TYPE = "unknown message type"
    BAD_BODY = "bad body"


@dataclass(frozen=True, slots=True)
class FrameError:
    """A chunk that is not a frame we accept; ``offset`` is where it started in the byte stream."""

    fault: FrameFault
    detail: str
    offset: int
    version: int | None = None  # set for OTHER_VERSION: the version the sender speaks

    def __str__(self) -> str:
        return f"frame at stream offset {self.offset}: {self.fault.value}: {self.detail}"


def encode_payload(message: Message, seq: int, version: int = PROTOCOL_VERSION) -> bytes:
    """Header + body + CRC, before COBS (what the CRC and the firmware test look at)."""
    payload = _HEADER.pack(version, seq & 0xFFFF, message_type(message)) + encode_body(message)
    return payload + _CRC.pack(crc16_ccitt_false(payload))


def encode_frame(message: Message, seq: int, version: int = PROTOCOL_VERSION) -> bytes:
    """The bytes to put on the wire for ``message``: 0x00, COBS(payload), 0x00."""
    return DELIMITER + cobs_encode(encode_payload(message, seq, version)) + DELIMITER


def decode_payload(payload: bytes, offset: int = 0) -> Frame | FrameError:
    """Check and decode one payload (COBS already removed)."""
    if len(payload) < _MIN_PAYLOAD:
        return FrameError(FrameFault.TOO_SHORT, f"{len(payload)} bytes, a frame has at least {_MIN_PAYLOAD}", offset)
    (expected,) = _CRC.unpack_from(payload, len(payload) - 2)
    actual = crc16_ccitt_false(payload[:-2])
    if actual != expected:
        return FrameError(FrameFault.BAD_CRC, f"CRC {actual:#06x} computed, {expected:#06x} received", offset)
    version, seq, code = _HEADER.unpack_from(payload)
    if version != PROTOCOL_VERSION:
        detail = f"the sender speaks protocol {version}, this host speaks {PROTOCOL_VERSION}"
        return FrameError(FrameFault.OTHER_VERSION, detail, offset, version)
    kind = _TYPES.get(code)
    if kind is None:
        return FrameError(FrameFault.UNKNOWN_TYPE, f"type {code:#04x} (seq {seq})", offset)
    try:
        message = decode_body(kind, payload[_HEADER.size : -2])
    except MessageError as error:
        return FrameError(FrameFault.BAD_BODY, str(error), offset)
    return Frame(seq, message)


class FrameDecoder:
    """Turns a byte stream into frames and frame errors; never raises on what it is fed.

    Bytes before the first delimiter are treated as the tail of a frame we joined halfway and
    are reported as an error, like any other chunk that is not a frame.
    """

    def __init__(self) -> None:
        self._pending = bytearray()
        self._pending_offset = 0  # stream offset of the first pending byte
        self._overflowed = False
        self.frames_decoded = 0
        self.errors = 0

    def feed(self, data: bytes) -> list[Frame | FrameError]:
        results: list[Frame | FrameError] = []
        if not data:
            return results
        pending = self._pending
        pending += data
        if DELIMITER[0] not in data:
            self._check_overflow(results)
            return results
        chunks = bytes(pending).split(DELIMITER)
        offset = self._pending_offset
        log_wire = wire_log.isEnabledFor(logging.DEBUG)
        for chunk in chunks[:-1]:
            if chunk and not self._overflowed:
                if log_wire:
                    wire_log.debug("rx @%d %s", offset, chunk.hex(" "))
                results.append(self._decode_chunk(chunk, offset))
            self._overflowed = False
            offset += len(chunk) + 1
        tail = chunks[-1]
        self._pending = bytearray(tail)
        self._pending_offset = offset
        self._check_overflow(results)
        return results

    def _decode_chunk(self, chunk: bytes, offset: int) -> Frame | FrameError:
        if len(chunk) > MAX_ENCODED_BYTES:
            result: Frame | FrameError = FrameError(FrameFault.TOO_LONG, f"{len(chunk)} encoded bytes", offset)
        else:
            try:
                result = decode_payload(cobs_decode(chunk), offset)
            except CobsError as error:
                result = FrameError(FrameFault.BAD_COBS, str(error), offset)
        if isinstance(result, Frame):
            self.frames_decoded += 1
        else:
            self.errors += 1
            wire_log.debug("rejected %s", result)
        return result

    def _check_overflow(self, results: list[Frame | FrameError]) -> None:
        # Garbage without delimiters must not grow the buffer without end: drop it, report it
        # once, and skip the rest of that chunk when its delimiter finally comes.
        if len(self._pending) > MAX_ENCODED_BYTES:
            if not self._overflowed:
                self.errors += 1
                results.append(
                    FrameError(
                        FrameFault.TOO_LONG, f"over {MAX_ENCODED_BYTES} bytes with no delimiter", self._pending_offset
                    )
                )
            self._overflowed = True
            self._pending_offset += len(self._pending)
            self._pending = bytearray()
