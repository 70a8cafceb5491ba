"""Consistent Overhead Byte Stuffing: frames that never contain 0x00, so 0x00 can delimit them.

Each run of non-zero bytes is prefixed by a code byte: its length plus one. Code 0xFF means a
full 254-byte run with no zero after it. The encoded data never contains a zero byte.
"""

from __future__ import annotations


class CobsError(ValueError):
    """A chunk between two delimiters is not valid COBS (a zero inside, or a code past the end)."""


def cobs_encode(data: bytes) -> bytes:
    """Encode ``data`` so that it contains no 0x00 byte (adds one byte per 254, plus one)."""
    out = bytearray()
    # Work run by run (bytes.split is C code) rather than byte by byte: the link decodes and
    # the simulator encodes thousands of frames a second in pure Python.
    for run in data.split(b"\x00"):
        rest = run
        while len(rest) >= 254:
            # Code 0xFF: a full block with no zero after it.
            out.append(0xFF)
            out += rest[:254]
            rest = rest[254:]
        out.append(len(rest) + 1)
        out += rest
    return bytes(out)


def cobs_decode(encoded: bytes) -> bytes:
    """Decode one COBS chunk (without its 0x00 delimiters); raise CobsError if it is malformed."""
    out = bytearray()
    index = 0
    length = len(encoded)
    while index < length:
        code = encoded[index]
        if code == 0:
            raise CobsError(f"zero byte inside a COBS chunk at offset {index}")
        end = index + code
        if end > length:
            raise CobsError(f"COBS code {code} at offset {index} runs past the end of a {length}-byte chunk")
        block = encoded[index + 1 : end]
        if 0 in block:
            raise CobsError(f"zero byte inside a COBS chunk near offset {index}")
        out += block
        index = end
        if code != 0xFF and index < length:
            out.append(0)
    return bytes(out)
