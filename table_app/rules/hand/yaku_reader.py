"""Which yaku a winning hand has, read through the ``mahjong`` package.

Only the yaku *names* are used here (for the JPML rule that a closed kan after riichi may
not lose a yaku); full han/fu scoring with dora, honba and payments belongs to the rules
core's scoring module. Red fives are passed as plain fives: they are dora, not yaku.
"""

from __future__ import annotations

from table_app.domain.hand import Hand
from table_app.domain.tile import Tile
from table_app.rules.hand.library_tiles import LibraryTileIds


class YakuReader:
    def __init__(self, *, riichi: bool = True) -> None:
        self._riichi = riichi

    def yaku(self, hand: Hand, win: Tile, *, tsumo: bool) -> frozenset[str]:
        """Yaku names of ``hand`` (13-shaped) completed by ``win``; empty if it is no win."""
        # Imported when first asked: the package's scorer is most of `jantaku hand`'s start-up,
        # and only the yaku strictness of a closed kan after riichi needs it.
        from mahjong.hand_calculating.hand import HandCalculator  # noqa: PLC0415
        from mahjong.hand_calculating.hand_config import HandConfig  # noqa: PLC0415

        ids = LibraryTileIds(red_fives=False)  # red fives are dora, not yaku
        concealed = [ids.take(t) for t in hand.concealed]
        win_id = ids.take(win)
        melds = [ids.meld(meld) for meld in hand.melds]
        all_tiles = concealed + [win_id] + [i for meld in melds for i in meld.tiles]
        config = HandConfig(is_tsumo=tsumo, is_riichi=self._riichi and hand.is_closed)
        result = HandCalculator.estimate_hand_value(all_tiles, win_id, melds=melds, config=config)
        if result.error is not None or not result.yaku:
            return frozenset()
        return frozenset(y.name for y in result.yaku)
