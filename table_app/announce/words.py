"""Words the catalogue needs in both languages: reasons, draws, yaku, calls (seats: ``domain.seat_names``).

The tables stay in this module; the catalogue asks for words through the functions below.
"""

from __future__ import annotations

from enum import IntEnum


class Form(IntEnum):
    EN = 0
    JA = 1
    KANA = 2  # for speech


#: Reason codes of :class:`table_app.rules.verdicts.Reason` (by value), in English and Japanese.
_REASONS: dict[str, tuple[str, str]] = {
    "call_on_own_discard": ("a call on one's own discard", "自分の捨て牌は鳴けません"),
    "call_not_last_discard": ("a call on a tile that is not the last discard", "直前の捨て牌以外は鳴けません"),
    "call_after_next_draw": ("a call after the next player drew", "次のツモの後の鳴きは無効です"),
    "chi_not_from_left": ("chi only from the player on the left", "チーは上家からのみです"),
    "call_in_riichi": ("no chi or pon after riichi", "リーチ後は鳴けません"),
    "call_priority": (
        "a ron outranks pon and kan, which outrank chi",
        "ロンがポン・カンに、ポン・カンがチーに優先します",
    ),
    "call_tiles_not_held": ("a call without the tiles (空鳴き)", "空鳴き"),
    "no_kans": ("this rule set has no kans", "このルールにカンはありません"),
    "kuikae": ("swap-calling (kuikae)", "喰い替え"),
    "riichi_discard_choice": ("after riichi, the drawn tile must be discarded", "リーチ後はツモ切りのみです"),
    "riichi_open_hand": ("riichi with an open hand", "副露しているとリーチできません"),
    "riichi_too_few_points": ("riichi without 1000 points", "持ち点不足でリーチできません"),
    "riichi_too_few_tiles": ("riichi with fewer than four tiles left", "残りツモ不足でリーチできません"),
    "riichi_twice": ("riichi twice", "二度目のリーチはできません"),
    "riichi_not_tenpai": ("riichi without tenpai", "不聴リーチ"),
    "riichi_kan": ("a closed kan after riichi that changes the wait", "リーチ後の待ちが変わる暗槓"),
    "furiten_ron": ("ron while furiten", "フリテンロン"),
    "false_win": ("a false win", "誤ロン・誤ツモ"),
    "noten_riichi": ("riichi without tenpai at the draw", "流局時のノーテンリーチ"),
    "draw_not_in_profile": ("this rule set has no such draw", "このルールにその流局はありません"),
    "draw_conditions_unmet": ("the draw's conditions are not met", "流局の条件を満たしていません"),
    "hand_ended": ("the hand has already ended", "この局は既に終わっています"),
    "rights_lost": ("the player lost this right earlier in the hand", "この局はその権利を失っています"),
}

_CONSEQUENCES: dict[str, tuple[str, str]] = {
    "void": ("the act does not count", "無効"),
    "chombo": ("chombo", "チョンボ"),
    "loss_of_rights": ("loss of rights for the hand", "権利喪失"),
}

_DRAWS: dict[str, tuple[str, str, str]] = {
    "exhaustive": ("exhaustive draw", "荒牌平局", "こうはいへいきょく"),
    "nine_terminals": ("nine terminals", "九種九牌", "きゅうしゅきゅうはい"),
    "four_winds": ("four winds", "四風子連打", "すーふーれんだ"),
    "four_kans": ("four kans", "四槓散了", "すーかんさんら"),
    "four_riichi": ("four riichi", "四家立直", "すーちゃりーち"),
    "triple_ron": ("triple ron", "三家和", "さんちゃほー"),
    "nagashi_mangan": ("nagashi mangan", "流し満貫", "ながしまんがん"),
    "unspecified": ("draw", "流局", "りゅうきょく"),
}

#: The ``mahjong`` package's yaku names → Japanese (anything else is shown as it comes).
_YAKU_JA: dict[str, str] = {
    "Menzen Tsumo": "門前清自摸和",
    "Riichi": "立直",
    "Ippatsu": "一発",
    "Chankan": "槍槓",
    "Rinshan Kaihou": "嶺上開花",
    "Haitei Raoyue": "海底摸月",
    "Houtei Raoyui": "河底撈魚",
    "Double Riichi": "ダブル立直",
    "Pinfu": "平和",
    "Tanyao": "断么九",
    "Iipeiko": "一盃口",
    "Yakuhai (haku)": "役牌 白",
    "Yakuhai (hatsu)": "役牌 發",
    "Yakuhai (chun)": "役牌 中",
    "Yakuhai (seat wind east)": "自風 東",
    "Yakuhai (seat wind south)": "自風 南",
    "Yakuhai (seat wind west)": "自風 西",
    "Yakuhai (seat wind north)": "自風 北",
    "Yakuhai (round wind east)": "場風 東",
    "Yakuhai (round wind south)": "場風 南",
    "Yakuhai (round wind west)": "場風 西",
    "Yakuhai (round wind north)": "場風 北",
    "Sanshoku Doujun": "三色同順",
    "Ittsu": "一気通貫",
    "Chantai": "混全帯么九",
    "Honroutou": "混老頭",
    "Toitoi": "対々和",
    "San Ankou": "三暗刻",
    "San Kantsu": "三槓子",
    "Sanshoku Doukou": "三色同刻",
    "Chiitoitsu": "七対子",
    "Shou Sangen": "小三元",
    "Honitsu": "混一色",
    "Junchan": "純全帯么九",
    "Ryanpeikou": "二盃口",
    "Chinitsu": "清一色",
    "Kokushi Musou": "国士無双",
    "Chuuren Poutou": "九蓮宝燈",
    "Suu Ankou": "四暗刻",
    "Daisangen": "大三元",
    "Dai Suushii": "大四喜",
    "Shousuushii": "小四喜",
    "Tsuu Iisou": "字一色",
    "Chinroutou": "清老頭",
    "Ryuuiisou": "緑一色",
    "Tenhou": "天和",
    "Chiihou": "地和",
    "Dora": "ドラ",
    "Aka Dora": "赤ドラ",
    "Ura Dora": "裏ドラ",
}

_CALLS: dict[str, tuple[str, str, str]] = {
    "chi": ("chi", "チー", "ちー"),
    "pon": ("pon", "ポン", "ぽん"),
    "kan": ("kan", "カン", "かん"),
    "ron": ("ron", "ロン", "ろん"),
    "tsumo": ("tsumo", "ツモ", "つも"),
}


def reason_words(code: str, form: Form) -> str:
    return _REASONS.get(code, (code, code))[min(form, Form.JA)]


def consequence_words(code: str, form: Form) -> str:
    return _CONSEQUENCES.get(code, (code, code))[min(form, Form.JA)]


def draw_words(code: str, form: Form) -> str:
    return _DRAWS.get(code, (code, code, code))[form]


def call_words(code: str, form: Form) -> str:
    return _CALLS.get(code, (code, code, code))[form]


def yaku_ja(name: str) -> str:
    for english, japanese in _YAKU_JA.items():
        if name == english or name.startswith(english + " "):
            return japanese + name[len(english) :]
    return name
