"""How Tenhou writes a win in tenhou.net/6: its yaku names, their order, and limit names.

Tenhou numbers its yaku (0 門前清自摸和 … 54 赤ドラ, the ids of the mjlog ``yaku`` attribute)
and lists a win's yaku in an order of its own, not by id: riichi first, tanyao and the dora
last. ``YAKU_ORDER`` is that order as every one of the 936 distinct yaku lists in the shared
real logs shows it (checked pair by pair; no list disagrees). Value yaku (役牌, 場風, 自風) are
listed by the set they come from: concealed triplets in tile order, then called sets in the
order they were called; a wind that is both the round's and the seat's gives 場風 before 自風.
"""

from __future__ import annotations

from typing import Final

#: The ``mahjong`` package's yaku name → (Tenhou's id, Tenhou's name).
TENHOU_YAKU: Final[dict[str, tuple[int, str]]] = {
    "Menzen Tsumo": (0, "門前清自摸和"),
    "Riichi": (1, "立直"),
    "Ippatsu": (2, "一発"),
    "Chankan": (3, "槍槓"),
    "Rinshan Kaihou": (4, "嶺上開花"),
    "Haitei Raoyue": (5, "海底摸月"),
    "Houtei Raoyui": (6, "河底撈魚"),
    "Pinfu": (7, "平和"),
    "Tanyao": (8, "断幺九"),
    "Iipeiko": (9, "一盃口"),
    "Yakuhai (seat wind east)": (10, "自風 東"),
    "Yakuhai (seat wind south)": (11, "自風 南"),
    "Yakuhai (seat wind west)": (12, "自風 西"),
    "Yakuhai (seat wind north)": (13, "自風 北"),
    "Yakuhai (round wind east)": (14, "場風 東"),
    "Yakuhai (round wind south)": (15, "場風 南"),
    "Yakuhai (round wind west)": (16, "場風 西"),
    "Yakuhai (round wind north)": (17, "場風 北"),
    "Yakuhai (haku)": (18, "役牌 白"),
    "Yakuhai (hatsu)": (19, "役牌 發"),
    "Yakuhai (chun)": (20, "役牌 中"),
    "Double Riichi": (21, "両立直"),
    "Chiitoitsu": (22, "七対子"),
    "Chantai": (23, "混全帯幺九"),
    "Ittsu": (24, "一気通貫"),
    "Sanshoku Doujun": (25, "三色同順"),
    "Sanshoku Doukou": (26, "三色同刻"),
    "San Kantsu": (27, "三槓子"),
    "Toitoi": (28, "対々和"),
    "San Ankou": (29, "三暗刻"),
    "Shou Sangen": (30, "小三元"),
    "Honroutou": (31, "混老頭"),
    "Ryanpeikou": (32, "二盃口"),
    "Junchan": (33, "純全帯幺九"),
    "Honitsu": (34, "混一色"),
    "Chinitsu": (35, "清一色"),
    "Renhou (yakuman)": (36, "人和"),
    "Tenhou": (37, "天和"),
    "Chiihou": (38, "地和"),
    "Daisangen": (39, "大三元"),
    "Suu Ankou": (40, "四暗刻"),
    "Suu Ankou Tanki": (41, "四暗刻単騎"),
    "Tsuu Iisou": (42, "字一色"),
    "Ryuuiisou": (43, "緑一色"),
    "Chinroutou": (44, "清老頭"),
    "Chuuren Poutou": (45, "九蓮宝燈"),
    "Daburu Chuuren Poutou": (46, "純正九蓮宝燈"),
    "Kokushi Musou": (47, "国士無双"),
    "Kokushi Musou Juusanmen Matchi": (48, "国士無双１３面"),
    "Dai Suushii": (49, "大四喜"),
    "Shousuushii": (50, "小四喜"),
    "Suu Kantsu": (51, "四槓子"),
    "Dora": (52, "ドラ"),
    "Ura Dora": (53, "裏ドラ"),
    "Aka Dora": (54, "赤ドラ"),
}

VALUE_YAKU: Final = frozenset(range(10, 21))

#: Tenhou's listing order by yaku id; the value yaku stand where ``VALUE_YAKU`` is.
YAKU_ORDER: Final[tuple[int, ...]] = (
    1, 21, 2, 3, 4, 5, 6, 0, 7, 22, 32, 9, 25, 24, 33, 30, 27, 29, 28, 35,
    *range(10, 21),
    26, 31, 23, 8, 34, 52, 54, 53,
    *range(36, 52),
)  # fmt: skip

#: The tile kind (0-33) each value yaku counts: seat and round winds, then the dragons.
VALUE_TILE: Final[dict[int, int]] = {
    **{10 + wind: 27 + wind for wind in range(4)},
    **{14 + wind: 27 + wind for wind in range(4)},
    18: 31,
    19: 32,
    20: 33,
}


def limit_name(han: int, yakuman: int, mangan_or_more: bool) -> str:
    """Tenhou's name for a limit hand (``""`` below mangan). ``mangan_or_more``: the hand is
    paid at least a mangan (4 han 40 fu, 3 han 70 fu, or rounded up)."""
    if yakuman or han >= 13:
        return "役満"
    if han >= 11:
        return "三倍満"
    if han >= 8:
        return "倍満"
    if han >= 6:
        return "跳満"
    if han >= 5 or mangan_or_more:
        return "満貫"
    return ""
