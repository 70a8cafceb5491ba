"""Seats, winds, and how two seats sit relative to each other.

``Seat`` is the physical chair, 0-3 in turn order (play passes 0 → 1 → 2 → 3 → 0, which
is counter-clockwise seen from above). Winds are not a property of the chair: they follow
the dealer, so they are derived with :meth:`Seat.wind`.
"""

from __future__ import annotations

from enum import IntEnum

from table_app.domain.tile import Tile, tile_of_kind


class Wind(IntEnum):
    EAST = 0
    SOUTH = 1
    WEST = 2
    NORTH = 3

    @property
    def tile(self) -> Tile:
        return tile_of_kind(27 + self.value)


class Relation(IntEnum):
    """Where another seat sits, seen from a player; the value is the turn distance.

    LEFT is 上家 (kamicha, plays just before you: chi only from here), ACROSS is 対面
    (toimen), RIGHT is 下家 (shimocha, plays just after you).
    """

    SELF = 0
    RIGHT = 1
    ACROSS = 2
    LEFT = 3


class Seat(IntEnum):
    S0 = 0
    S1 = 1
    S2 = 2
    S3 = 3

    def wind(self, dealer: Seat) -> Wind:
        """This seat's wind when ``dealer`` is East."""
        return Wind((self - dealer) % 4)

    def relation_to(self, other: Seat) -> Relation:
        """Where ``other`` sits as seen from this seat."""
        return Relation((other - self) % 4)

    def seat_at(self, relation: Relation) -> Seat:
        """The seat that sits at ``relation`` from this one."""
        return Seat((self + relation) % 4)

    @property
    def next(self) -> Seat:
        """The seat that plays after this one (下家)."""
        return self.seat_at(Relation.RIGHT)

    @property
    def left(self) -> Seat:
        """The seat that plays before this one (上家): the only seat a chi may come from."""
        return self.seat_at(Relation.LEFT)
