"""An image file's pixel size as its header declares it, read before anything is decoded.

A decoder allocates what the header asks for: a 100 KB PNG declaring 30000x30000 pixels
would take about 2.7 GB as BGR before a single row is checked, enough to kill a Pi. Every
picture a user hands to jantaku (``vision detect``, ``eval``, ``enroll``, a folder of frames)
is measured from its header first and refused above :data:`MAX_PIXELS`. PNG, JPEG, BMP and
WebP headers are read here; for other formats OpenCV's own cap (2^30 pixels) is the guard.
"""

from __future__ import annotations

import struct

#: Far above any camera jantaku uses (Camera Module 3: 4608x2592, 12 MP), far below trouble.
MAX_PIXELS = 50_000_000

_PNG = b"\x89PNG\r\n\x1a\n"
# JPEG start-of-frame markers (they carry the size): C0-CF but DHT (C4), JPG (C8) and DAC (CC).
_JPEG_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
_JPEG_BARE = frozenset({0x01, *range(0xD0, 0xD9)})  # markers without a length field


def declared_size(data: bytes) -> tuple[int, int] | None:
    """``(width, height)`` from the header, or ``None`` for a format or header not read here."""
    if data.startswith(_PNG) and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    if data.startswith(b"\xff\xd8"):
        return _jpeg_size(data)
    if data.startswith(b"BM") and len(data) >= 26:
        width, height = struct.unpack("<ii", data[18:26])
        return abs(int(width)), abs(int(height))  # a negative height is a top-down bitmap
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return _webp_size(data)
    return None


def oversize(data: bytes, limit: int = MAX_PIXELS) -> str | None:
    """Why the picture in ``data`` must not be decoded (too many pixels), or ``None``."""
    size = declared_size(data)
    if size is None:
        return None
    width, height = size
    if width * height > limit:
        return (
            f"declares {width}x{height} pixels ({width * height / 1e6:.0f} MP), "
            f"more than the {limit / 1e6:.0f} MP this reads; not decoded"
        )
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None  # not at a marker: a damaged header
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in _JPEG_BARE:
            at += 2
            continue
        if marker == 0xDA:  # the scan starts before any frame header: nothing to read
            return None
        (length,) = struct.unpack(">H", data[at + 2 : at + 4])
        if marker in _JPEG_FRAMES and at + 9 <= len(data):
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return int(width), int(height)
        at += 2 + length
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 " and len(data) >= 30:
        width, height = struct.unpack("<HH", data[26:30])
        return int(width) & 0x3FFF, int(height) & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25:
        (bits,) = struct.unpack("<I", data[21:25])
        return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if chunk == b"VP8X" and len(data) >= 30:
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return width, height
    return None
