"""Which yaku a winning hand has, read through the ``mahjong`` package.

Only the yaku *names* are used here (for the JPML rule that a closed kan after riichi may
not lose a yaku); full han/fu scoring with dora, honba and payments belongs to the rules
core's scoring module. Red fives are passed as plain fives: they are dora, not yaku.
"""

from __future__ import annotations

from collections import Counter

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.meld import Meld as LibraryMeld

from table_app.domain.hand import Hand
from table_app.domain.meld import Meld, MeldKind
from table_app.domain.tile import Tile

_LIBRARY_MELD_TYPE = {
    MeldKind.CHI: LibraryMeld.CHI,
    MeldKind.PON: LibraryMeld.PON,
    MeldKind.OPEN_KAN: LibraryMeld.KAN,
    MeldKind.CLOSED_KAN: LibraryMeld.KAN,
    MeldKind.ADDED_KAN: LibraryMeld.SHOUMINKAN,
}


class _Ids:
    """Hands out distinct Tenhou 136 ids per kind (the library wants physical tiles)."""

    def __init__(self) -> None:
        self._used: Counter[int] = Counter()

    def take(self, tile: Tile) -> int:
        copy = self._used[tile.kind]
        if copy >= 4:
            raise ValueError(f"a fifth {tile.plain} cannot be scored")
        self._used[tile.kind] += 1
        return tile.kind * 4 + copy


class YakuReader:
    def __init__(self, *, riichi: bool = True) -> None:
        self._riichi = riichi

    def yaku(self, hand: Hand, win: Tile, *, tsumo: bool) -> frozenset[str]:
        """Yaku names of ``hand`` (13-shaped) completed by ``win``; empty if it is no win."""
        ids = _Ids()
        concealed = [ids.take(t) for t in hand.concealed]
        win_id = ids.take(win)
        melds = [self._library_meld(meld, ids) for meld in hand.melds]
        all_tiles = concealed + [win_id] + [i for meld in melds for i in meld.tiles]
        config = HandConfig(is_tsumo=tsumo, is_riichi=self._riichi and hand.is_closed)
        result = HandCalculator.estimate_hand_value(all_tiles, win_id, melds=melds, config=config)
        if result.error is not None or not result.yaku:
            return frozenset()
        return frozenset(y.name for y in result.yaku)

    @staticmethod
    def _library_meld(meld: Meld, ids: _Ids) -> LibraryMeld:
        return LibraryMeld(
            meld_type=_LIBRARY_MELD_TYPE[meld.kind],
            tiles=[ids.take(t) for t in meld.tiles],
            opened=meld.is_open,
        )
