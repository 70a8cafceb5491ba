"""The board's side of the table-link protocol (docs/protocol.md), for MicroPython.

Plain MicroPython 1.20+ syntax only: no underscores in numbers, no dataclasses, no typing at
run time (annotations are strings, which MicroPython never evaluates).

The board cannot import firmware_bridge, so this is its own small encoder and command decoder.
tests/hardware/test_firmware.py proves that what it sends is what the host's codec expects.
"""

import struct

PROTOCOL_MAJOR = 1
PROTOCOL_MINOR = 0

HELLO = 0x01
STATE = 0x02
SLOT_CHANGED = 0x03
WALL_CHANGED = 0x04
HEARTBEAT = 0x05
REQUEST_HELLO = 0x10
REQUEST_STATE = 0x11
CALIBRATE_SLOT = 0x12
COMMIT_CALIBRATION = 0x13
ACK = 0x20
NAK = 0x21

NAK_UNKNOWN_TYPE = 1
NAK_BAD_ARGUMENT = 2

DEPOSIT_SEAT = 4
_MAX_ENCODED = 162


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE, bit by bit: slower than a table but 512 bytes lighter in RAM."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def cobs_encode(data: bytes) -> bytes:
    out = bytearray()
    code_at = 0
    out.append(0)  # placeholder for the first code byte
    code = 1
    for byte in data:
        if byte:
            out.append(byte)
            code += 1
        if not byte or code == 0xFF:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data: bytes) -> "bytes | None":
    """The decoded chunk, or None when it is not valid COBS."""
    out = bytearray()
    index = 0
    while index < len(data):
        code = data[index]
        end = index + code
        if code == 0 or end > len(data):
            return None
        out += data[index + 1 : end]
        index = end
        if code != 0xFF and index < len(data):
            out.append(0)
    return bytes(out)


class Encoder:
    """Frames board → host messages with the board's sequence numbers (0 from boot)."""

    def __init__(self) -> None:
        self.seq = 0

    def frame(self, kind: int, body: bytes) -> bytes:
        payload = struct.pack(">BHB", PROTOCOL_MAJOR, self.seq, kind) + body
        payload += struct.pack(">H", crc16(payload))
        self.seq = (self.seq + 1) & 0xFFFF
        return b"\x00" + cobs_encode(payload) + b"\x00"

    def hello(
        self, firmware: "tuple[int, int, int]", board_id: int, calibration_id: int, capabilities: int, slots: int
    ) -> bytes:
        body = struct.pack(
            ">BBBBBIHHB",
            PROTOCOL_MAJOR,
            PROTOCOL_MINOR,
            firmware[0],
            firmware[1],
            firmware[2],
            board_id,
            calibration_id,
            capabilities,
            slots,
        )
        return self.frame(HELLO, body)

    def state(  # noqa: PLR0917 - MicroPython: one positional call is cheaper than keywords
        self,
        flags: int,
        hand: int,
        wall: int,
        kans: int,
        deposit: "tuple[int, int]",
        trays: "list[list[tuple[int, int]]]",
        points: "list[int]",
    ) -> bytes:
        """``deposit`` is (raw, count); ``trays`` is [seat][slot] of (raw, count)."""
        slots = len(trays[0])
        body = bytearray(struct.pack(">HBBBHBB", flags, hand, wall, kans, deposit[0], deposit[1], slots))
        for tray in trays:
            for raw, count in tray:
                body += struct.pack(">HB", raw, count)
        body += struct.pack(">IIII", points[0], points[1], points[2], points[3])
        return self.frame(STATE, bytes(body))

    def slot_changed(self, seat: int, slot: int, raw: int, count: int) -> bytes:
        return self.frame(SLOT_CHANGED, struct.pack(">BBHB", seat, slot, raw, count))

    def wall_changed(self, hand: int, wall: int, kans: int) -> bytes:
        return self.frame(WALL_CHANGED, struct.pack(">BBB", hand, wall, kans))

    def heartbeat(self, uptime_ms: int, flags: int) -> bytes:
        return self.frame(HEARTBEAT, struct.pack(">IH", uptime_ms & 0xFFFFFFFF, flags))

    def ack(self, echoed_seq: int) -> bytes:
        return self.frame(ACK, struct.pack(">H", echoed_seq))

    def nak(self, echoed_seq: int, reason: int) -> bytes:
        return self.frame(NAK, struct.pack(">HB", echoed_seq, reason))


class CommandDecoder:
    """Host → board frames out of the byte stream: (seq, type, body) for each valid one."""

    def __init__(self) -> None:
        self._pending = bytearray()
        self.bad_frames = 0

    def feed(self, data: bytes) -> "list[tuple[int, int, bytes]]":
        commands = []
        for byte in data:
            if byte:
                if len(self._pending) < _MAX_ENCODED:
                    self._pending.append(byte)
                continue
            if self._pending:
                command = self._decode(bytes(self._pending))
                if command is None:
                    self.bad_frames += 1
                else:
                    commands.append(command)
                self._pending = bytearray()
        return commands

    def _decode(self, chunk: bytes) -> "tuple[int, int, bytes] | None":
        payload = cobs_decode(chunk)
        if payload is None or len(payload) < 6:
            return None
        if crc16(payload[:-2]) != struct.unpack(">H", payload[-2:])[0]:
            return None
        version, seq, kind = struct.unpack(">BHB", payload[:4])
        if version != PROTOCOL_MAJOR:
            return None
        return seq, kind, payload[4:-2]
