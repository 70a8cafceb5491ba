"""Decoding Tenhou's meld bitfield (``<N who m>``), shared by mjlog and client transcripts.

Bit 2 set: chi; bit 3: pon; bit 4: added kan; bit 5: nukidora (three-player only);
otherwise a kan, closed when the low two bits (the source, as a turn distance from the
caller) are zero. Tile ids are 0-135; which copy of a kind each id is matters only for
the red fives.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class TenhouCall(StrEnum):
    CHI = "chi"
    PON = "pon"
    KAKAN = "kakan"
    DAIMINKAN = "daiminkan"
    ANKAN = "ankan"
    NUKIDORA = "nukidora"


@dataclass(frozen=True, slots=True)
class DecodedMeld:
    call: TenhouCall
    distance: int  # turn distance from caller to source: 1 right, 2 across, 3 left, 0 self
    called: int | None  # the tile id taken from another player (the added tile for kakan)
    consumed: tuple[int, ...]  # the caller's own tile ids (for kakan: the pon's three)


def decode_meld(m: int) -> DecodedMeld:
    distance = m & 3
    if m & 0x4:
        return _chi(m, distance)
    if m & 0x8 or m & 0x10:
        return _pon_or_kakan(m, distance)
    if m & 0x20:
        return DecodedMeld(TenhouCall.NUKIDORA, 0, None, (m >> 8,))
    called = m >> 8
    kind = called // 4
    tiles = tuple(kind * 4 + i for i in range(4))
    if distance == 0:
        return DecodedMeld(TenhouCall.ANKAN, 0, None, tiles)
    return DecodedMeld(TenhouCall.DAIMINKAN, distance, called, tuple(t for t in tiles if t != called))


def _chi(m: int, distance: int) -> DecodedMeld:
    packed = m >> 10
    which, packed = packed % 3, packed // 3
    first_kind = (packed // 7) * 9 + packed % 7
    tiles = tuple((first_kind + i) * 4 + ((m >> (3 + 2 * i)) & 3) for i in range(3))
    called = tiles[which]
    return DecodedMeld(TenhouCall.CHI, distance, called, tuple(t for t in tiles if t != called))


def _pon_or_kakan(m: int, distance: int) -> DecodedMeld:
    unused = (m >> 5) & 3
    packed = m >> 9
    which, kind = packed % 3, packed // 3
    tiles = tuple(kind * 4 + i for i in range(4) if i != unused)
    if m & 0x10:
        return DecodedMeld(TenhouCall.KAKAN, distance, kind * 4 + unused, tiles)
    called = tiles[which]
    return DecodedMeld(TenhouCall.PON, distance, called, tuple(t for t in tiles if t != called))
