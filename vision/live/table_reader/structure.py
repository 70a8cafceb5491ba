"""Classified tiles of one seat → its ``SeatReading``: ponds in order, melds grouped, the winning tile.

Pure: takes the found tiles with their readings, returns values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from table_app.domain.tile import UNKNOWN
from vision.classify.classifier import TileReading
from vision.live.reading import SeatReading, SeenMeld, SeenTile, Zone
from vision.live.table_reader.seat_tiles import ZoneTile

#: The winning tile lies about half a tile from the open hand; the hand's tiles touch.
WINNING_GAP: Final = 0.25


@dataclass(frozen=True, eq=False)
class ReadTile:
    found: ZoneTile
    reading: TileReading
    quad: np.ndarray  # 4×2 frame pixels, face order: where the face was cut

    def seen(self) -> SeenTile:
        tile = UNKNOWN if self.reading.face_down else self.reading.tile
        return SeenTile(tile, self.reading.confidence, self.found.piece.sideways, self.reading.uncertain)


@dataclass(frozen=True, slots=True)
class SeatFind:
    """One seat's tiles as read, and the zones of it that something hides."""

    seat: int
    tiles: tuple[ReadTile, ...]
    occluded: frozenset[Zone]


@dataclass(frozen=True, slots=True)
class WallReading:
    face_up: tuple[SeenTile, ...]  # in the wall's row, left to right as the seat sees them
    ura: tuple[SeenTile, ...]  # the row in front of it


def seat_reading(tiles: Sequence[ReadTile], tile_width_px: float, occluded: frozenset[Zone]) -> SeatReading:
    """The seat's reading; an occluded zone's content is left out (it would be short or wrong)."""
    by_zone: dict[Zone, list[ReadTile]] = {zone: [] for zone in Zone}
    for tile in tiles:
        by_zone[tile.found.zone].append(tile)
    pond = () if Zone.POND in occluded else _pond(by_zone[Zone.POND])
    melds = () if Zone.MELDS in occluded else _melds(by_zone[Zone.MELDS])
    hand, winning = ((), None) if Zone.HAND in occluded else _hand(by_zone[Zone.HAND], tile_width_px)
    return SeatReading(pond, melds, hand, winning, occluded)


def wall_reading(tiles: Sequence[ReadTile]) -> WallReading:
    walls = sorted((t for t in tiles if t.found.zone == Zone.WALL), key=lambda t: t.found.piece.left)
    face_up = tuple(t.seen() for t in walls if t.found.row == 0 and not t.reading.face_down)
    ura = tuple(t.seen() for t in walls if t.found.row == 1 and not t.reading.face_down)
    return WallReading(face_up, ura)


def _pond(tiles: list[ReadTile]) -> tuple[SeenTile, ...]:
    ordered = sorted(tiles, key=lambda t: (t.found.row, t.found.piece.left))
    return tuple(t.seen() for t in ordered)


def _melds(tiles: list[ReadTile]) -> tuple[SeenMeld, ...]:
    """Melds right to left (the first called lies rightmost)."""
    by_meld: dict[int, list[ReadTile]] = {}
    for tile in tiles:
        by_meld.setdefault(tile.found.meld, []).append(tile)
    melds = []
    for index in sorted(by_meld, reverse=True):
        in_row = sorted((t for t in by_meld[index] if t.found.row == 0), key=lambda t: t.found.piece.left)
        # A meld has one added tile: of two faces over its turned tile, the surer (the other is
        # a cut straddling its neighbour's).
        added = max((t for t in by_meld[index] if t.found.row == 1), key=lambda t: t.reading.confidence, default=None)
        turned = [i for i, t in enumerate(in_row) if t.found.piece.sideways]
        turned_at = turned[0] if turned else None
        melds.append(SeenMeld(tuple(t.seen() for t in in_row), turned_at, None if added is None else added.seen()))
    return tuple(melds)


def _hand(tiles: list[ReadTile], width: float) -> tuple[tuple[SeenTile, ...], SeenTile | None]:
    ordered = sorted(tiles, key=lambda t: t.found.piece.left)
    if len(ordered) >= 2 and ordered[-1].found.piece.left - ordered[-2].found.piece.right > WINNING_GAP * width:
        return tuple(t.seen() for t in ordered[:-1]), ordered[-1].seen()
    return tuple(t.seen() for t in ordered), None
