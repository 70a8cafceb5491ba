"""Hand tiles to the ``mahjong`` package's form: distinct Tenhou 136 ids and its meld type.

The package reads a five as red by its id (16, 52, 88), so ids are handed out with care:
in a game with red fives, a red five gets its red id and plain fives never do (a plain "5"
must not turn red by accident); in a game without them every five is plain and all four ids
of the kind are free (four plain 5m are a legal hand there).
"""

from __future__ import annotations

from typing import Final

from mahjong.meld import Meld as LibraryMeld

from table_app.domain.meld import Meld, MeldKind
from table_app.domain.tile import RED_FIVE_KINDS, Tile

LIBRARY_MELD_TYPE: Final = {
    MeldKind.CHI: LibraryMeld.CHI,
    MeldKind.PON: LibraryMeld.PON,
    MeldKind.OPEN_KAN: LibraryMeld.KAN,
    MeldKind.CLOSED_KAN: LibraryMeld.KAN,
    MeldKind.ADDED_KAN: LibraryMeld.SHOUMINKAN,
}


class LibraryTileIds:
    """Hands out one 136 id per physical tile; raises ValueError on a fifth copy."""

    def __init__(self, *, red_fives: bool) -> None:
        self._red_fives = red_fives
        self._next: dict[int, int] = {}
        self._red_taken: set[int] = set()

    def take(self, tile: Tile) -> int:
        if self._red_fives and tile.red:
            if tile.kind in self._red_taken:
                raise ValueError(f"two red {tile.plain} to score")
            self._red_taken.add(tile.kind)
            return tile.kind * 4
        first = 1 if self._red_fives and tile.kind in RED_FIVE_KINDS else 0
        copy = self._next.get(tile.kind, first)
        if copy > 3:
            raise ValueError(f"too many copies of {tile.plain} to score")
        self._next[tile.kind] = copy + 1
        return tile.kind * 4 + copy

    def meld(self, meld: Meld) -> LibraryMeld:
        return LibraryMeld(
            meld_type=LIBRARY_MELD_TYPE[meld.kind], tiles=[self.take(t) for t in meld.tiles], opened=meld.is_open
        )
