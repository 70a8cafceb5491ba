"""What one frame shows of the table: the reader's output and the tracker's input.

A ``TableReading`` is one frame's view, read in the calibrated top-down view: per seat the
pond in discard order (sideways riichi tile marked), the open melds with the turned tile's
index, a hand laid open with the winning tile set apart, plus the dora and ura-dora
indicators. It is *not* an observation: single frames misread, and a hand over the table
hides tiles. The tracker (``vision.live.tracking``) compares readings over frames and posts the
observations (``table_app.observations``) once a change has held.

Seats are the top-down view's: 0 at the bottom, then counter-clockwise (1 on the right), which
is turn order, so seat ``i`` here is the game's ``Seat(i)`` when the table's first seat sits at
the bottom of the view.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from table_app.domain.tile import UNKNOWN, Tile


class Zone(StrEnum):
    POND = "pond"
    MELDS = "melds"
    HAND = "hand"
    WALL = "wall"  # the seat's wall: the dead wall and its indicators when it lies here


@dataclass(frozen=True, slots=True)
class SeenTile:
    """One tile as the classifier read it. ``tile`` is ``UNKNOWN`` for a face-down tile;
    ``uncertain`` marks a reading below the classifier's confidence floor (never a silent guess)."""

    tile: Tile
    confidence: float
    sideways: bool = False
    uncertain: bool = False

    @property
    def face_down(self) -> bool:
        return self.tile == UNKNOWN


@dataclass(frozen=True, slots=True)
class SeenMeld:
    """An open meld, tiles left to right as its owner sees them. ``turned_at`` is the sideways
    (called) tile's index (``None``: a closed kan, whose two end tiles lie face down);
    ``added`` is an added kan's fourth tile, laid sideways beside the turned one."""

    tiles: tuple[SeenTile, ...]
    turned_at: int | None
    added: SeenTile | None = None


@dataclass(frozen=True, slots=True)
class SeatReading:
    pond: tuple[SeenTile, ...] = ()
    melds: tuple[SeenMeld, ...] = ()  # in the order they were called: the first lies rightmost
    open_hand: tuple[SeenTile, ...] = ()  # a hand laid open, left to right, without the winning tile
    winning: SeenTile | None = None  # the tile set apart at the right of an open hand
    occluded: frozenset[Zone] = frozenset()  # zones something not a tile covered in this frame


@dataclass(frozen=True, slots=True)
class TableReading:
    at: float  # the frame's monotonic timestamp
    seats: tuple[SeatReading, SeatReading, SeatReading, SeatReading]
    dora: tuple[SeenTile, ...] = ()  # face-up indicators on the dead wall, in order
    ura: tuple[SeenTile, ...] = ()  # ura-dora indicators turned over after a riichi win
    dora_occluded: bool = False
