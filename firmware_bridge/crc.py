"""CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR.

Check value: ``crc16_ccitt_false(b"123456789") == 0x29B1``. It is the CRC most
microcontroller libraries call "CCITT", so the firmware and the host agree without a table
shared between them. The polynomial has (x + 1) as a factor: every odd number of flipped bits
is caught, and so is every burst of 16 bits or fewer.
"""

from __future__ import annotations

CRC16_INITIAL = 0xFFFF
CRC16_POLYNOMIAL = 0x1021


def _make_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ CRC16_POLYNOMIAL) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_TABLE = _make_table()


def crc16_ccitt_false(data: bytes, crc: int = CRC16_INITIAL) -> int:
    """The CRC of ``data``; pass a previous result as ``crc`` to continue over more data."""
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc
