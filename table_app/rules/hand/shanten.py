"""Shanten (向聴数): how many tile changes a hand is from tenpai (0) or complete (-1).

Computed by the ``mahjong`` package (the design picks it for shanten), on the concealed
part; each meld is a finished set, which the package infers from the tile count. Shanten
counts shape only: a hand waiting solely on a tile it holds all four of has shanten 0 but
is not tenpai (see :func:`table_app.rules.hand.waits.is_tenpai`).
"""

from __future__ import annotations

from mahjong.shanten import Shanten

from table_app.domain.hand import COMPLETE_SIZE, WAITING_SIZE, Hand


def shanten(hand: Hand) -> int:
    hand.require_size(WAITING_SIZE, COMPLETE_SIZE)
    closed_full = not hand.melds
    return int(Shanten.calculate_shanten(hand.counts(), use_chiitoitsu=closed_full, use_kokushi=closed_full))
