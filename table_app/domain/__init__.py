"""Domain values shared by every part of jantaku (pure: no I/O, no threads)."""

from table_app.domain.errors import InputError
from table_app.domain.hand import Hand, HandError
from table_app.domain.meld import Meld, MeldError, MeldKind, parse_meld
from table_app.domain.notation import TileNotationError, format_tiles, parse_tile, parse_tiles
from table_app.domain.seat import Relation, Seat, Wind
from table_app.domain.tile import UNKNOWN, Suit, Tile, tile_of_kind

__all__ = [
    "UNKNOWN",
    "Hand",
    "HandError",
    "InputError",
    "Meld",
    "MeldError",
    "MeldKind",
    "Relation",
    "Seat",
    "Suit",
    "Tile",
    "TileNotationError",
    "Wind",
    "format_tiles",
    "parse_meld",
    "parse_tile",
    "parse_tiles",
    "tile_of_kind",
]
