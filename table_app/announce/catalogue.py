"""The JA/EN catalogue: an :class:`Announcement` rendered as text, or as kana for speech.

Pure: it formats values and nothing else. Seats are named by the caller's
:class:`~table_app.domain.seat_names.SeatNaming` (the hand's winds and the players' names; the
one convention of ``table_app.domain.seat_names``).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from table_app.announce.announcement import Announcement, AnnouncementKind
from table_app.announce.words import (
    Form,
    call_words,
    consequence_words,
    draw_words,
    reason_words,
    yaku_ja,
)
from table_app.domain.seat_names import BY_NUMBER, SeatNaming


class Language(StrEnum):
    JA = "ja"
    EN = "en"


def _seats_en(values: tuple[int, ...], n: SeatNaming) -> str:
    return ", ".join(n.en(v) for v in values) if values else "nobody"


def _seats_ja(values: tuple[int, ...], n: SeatNaming) -> str:
    return "、".join(n.ja(v) for v in values) if values else "なし"


def _payments_en(deltas: tuple[int, ...], n: SeatNaming) -> str:
    return ", ".join(f"{n.en(i)} {d:+d}" for i, d in enumerate(deltas) if d)


def _payments_ja(deltas: tuple[int, ...], n: SeatNaming) -> str:
    return "、".join(f"{n.ja(i)} {d:+d}" for i, d in enumerate(deltas) if d)


def _round(a: Announcement, language: Language) -> str:
    """``E3`` as 東3局 or East 3."""
    code = a.text_param("round")
    index = "ESWN".find(code[:1])
    if index < 0:
        return code
    if language is Language.JA:
        return f"{'東南西北'[index]}{code[1:]}局"
    return f"{('East', 'South', 'West', 'North')[index]} {code[1:]}"


def _who_en(a: Announcement, n: SeatNaming) -> str:
    return n.en(a.seat) if a.seat is not None else "the table"


def _who_ja(a: Announcement, n: SeatNaming) -> str:
    return n.ja(a.seat) if a.seat is not None else "卓"


def _reason(a: Announcement, language: Language) -> str:
    return reason_words(a.text_param("reason"), Form.EN if language is Language.EN else Form.JA)


def _consequence(a: Announcement, language: Language) -> str:
    return consequence_words(a.text_param("consequence"), Form.EN if language is Language.EN else Form.JA)


def _draw(a: Announcement, form: Form) -> str:
    return draw_words(a.text_param("draw"), form)


def _win_en(a: Announcement, n: SeatNaming) -> str:
    target = a.int_param("target")
    how = "tsumo" if a.seat is not None and target == int(a.seat) else f"ron on {n.en(target)}"
    yaku = ", ".join(a.texts_param("yaku")) or "no yaku"
    # Without fu the points come from a fixed table by han alone (純麻雀: 0 han still wins).
    value = f"{a.int_param('han')} han {a.int_param('fu')} fu" if a.has_param("fu") else f"{a.int_param('han')} han"
    return (
        f"{_who_en(a, n)} wins by {how}: {yaku}; {value}, "
        f"{a.int_param('points')} points ({_payments_en(a.ints_param('deltas'), n)})"
    )


def _win_ja(a: Announcement, n: SeatNaming) -> str:
    target = a.int_param("target")
    how = "ツモ" if a.seat is not None and target == int(a.seat) else f"{n.ja(target)}からロン"
    yaku = "、".join(yaku_ja(y) for y in a.texts_param("yaku")) or "役なし"
    value = f"{a.int_param('han')}翻{a.int_param('fu')}符" if a.has_param("fu") else f"{a.int_param('han')}翻"
    return (
        f"{_who_ja(a, n)} {how}和了：{yaku}　{value} "
        f"{a.int_param('points')}点（{_payments_ja(a.ints_param('deltas'), n)}）"
    )


def _chombo_en(a: Announcement, n: SeatNaming) -> str:
    tally, paid = a.int_param("tally"), _payments_en(a.ints_param("deltas"), n)
    cost = ", ".join(part for part in (f"{tally} points off the final tally" if tally else "", paid) if part)
    return f"Chombo by {_who_en(a, n)}: {cost or 'no payment'}; the hand is replayed"


def _chombo_ja(a: Announcement, n: SeatNaming) -> str:
    tally, paid = a.int_param("tally"), _payments_ja(a.ints_param("deltas"), n)
    cost = "、".join(part for part in (f"最終成績から{tally}ポイント減" if tally else "", paid) if part)
    return f"{_who_ja(a, n)}のチョンボ：{cost or '支払いなし'}　この局はやり直し"


def _question_en(a: Announcement, n: SeatNaming) -> str:
    options = " / ".join(f"{i + 1}: {o}" for i, o in enumerate(a.texts_param("options")))
    topic = n.fill_en(a.text_param("topic"))
    return f"Referee, please confirm (question {a.int_param('question')}): {topic}? {options}"


def _question_ja(a: Announcement, n: SeatNaming) -> str:
    options = " / ".join(f"{i + 1}: {o}" for i, o in enumerate(a.texts_param("options")))
    return f"審判確認（質問{a.int_param('question')}）：{n.fill_ja(a.text_param('topic'))}？ {options}"


def _off(a: Announcement) -> str:
    """How far a reading is from what it should be, signed (``+2``, ``-1``)."""
    return f"{a.int_param('read') - a.int_param('expected'):+d}"


_Render = Callable[[Announcement, "SeatNaming"], str]

_EN: dict[AnnouncementKind, _Render] = {
    AnnouncementKind.ILLEGAL_ACT: lambda a, n: (
        f"{_who_en(a, n)}: illegal: {_reason(a, Language.EN)} ({_consequence(a, Language.EN)})"
    ),
    AnnouncementKind.ABORTIVE_DRAW: lambda a, _n: f"Abortive draw: {_draw(a, Form.EN)}",
    AnnouncementKind.EXHAUSTIVE_DRAW: lambda a, n: (
        f"Exhaustive draw. Tenpai: {_seats_en(a.ints_param('tenpai'), n)}. "
        f"Payments: {_payments_en(a.ints_param('deltas'), n) or 'none'}"
    ),
    AnnouncementKind.WIN: _win_en,
    AnnouncementKind.NAGASHI_MANGAN: lambda a, n: (
        f"Nagashi mangan: {_seats_en(a.ints_param('seats'), n)}. "
        f"Payments: {_payments_en(a.ints_param('deltas'), n) or 'none'}"
    ),
    AnnouncementKind.CHOMBO: _chombo_en,
    AnnouncementKind.PAYMENTS_COMPLETE: lambda _a, _n: "Payments complete",
    AnnouncementKind.TRAY_OFF: lambda a, n: (
        f"{_who_en(a, n)}'s tray is off by {a.int_param('read') - a.int_param('expected'):+d} "
        f"(reads {a.int_param('read')}, should be {a.int_param('expected')})"
    ),
    AnnouncementKind.WALL_DISAGREES: lambda a, _n: (
        f"The wall count reads {a.int_param('read')}, the discards say {a.int_param('expected')} (off by {_off(a)})"
    ),
    AnnouncementKind.DEPOSIT_DISAGREES: lambda a, _n: (
        f"The riichi deposit holds {a.int_param('read')} sticks, should be {a.int_param('expected')} (off by {_off(a)})"
    ),
    AnnouncementKind.LINK_LOST: lambda _a, _n: "Table sensors lost: refereeing goes on from the camera",
    AnnouncementKind.LINK_RESTORED: lambda _a, _n: "Table sensors back",
    AnnouncementKind.CAMERA_LOST: lambda _a, _n: "Camera lost: the referee must follow the game",
    AnnouncementKind.CAMERA_RESTORED: lambda _a, _n: "Camera back",
    AnnouncementKind.QUESTION: _question_en,
    AnnouncementKind.UNDONE: lambda a, _n: f"Taken back: {a.text_param('event')}",
    AnnouncementKind.CORRECTED: lambda a, n: (
        f"{_who_en(a, n)}'s discard {a.int_param('index') + 1} corrected: "
        f"{a.text_param('tile')} (read as {a.text_param('was')})"
    ),
    AnnouncementKind.PROFILE_CHANGED: lambda a, _n: f"Rules from the next hand: {a.text_param('profile')}",
    AnnouncementKind.RIICHI: lambda a, n: f"{_who_en(a, n)}: riichi",
    AnnouncementKind.CALL: lambda a, n: f"{_who_en(a, n)}: {call_words(a.text_param('call'), Form.EN)}",
    AnnouncementKind.HAND_START: lambda a, _n: f"{_round(a, Language.EN)}, {a.int_param('honba')} honba",
    AnnouncementKind.GAME_END: lambda a, n: (
        "Game over: " + ", ".join(f"{n.en(seat)} {score}" for seat, score in enumerate(a.ints_param("scores")))
    ),
}

_JA: dict[AnnouncementKind, _Render] = {
    AnnouncementKind.ILLEGAL_ACT: lambda a, n: (
        f"{_who_ja(a, n)}：反則　{_reason(a, Language.JA)}（{_consequence(a, Language.JA)}）"
    ),
    AnnouncementKind.ABORTIVE_DRAW: lambda a, _n: f"途中流局：{_draw(a, Form.JA)}",
    AnnouncementKind.EXHAUSTIVE_DRAW: lambda a, n: (
        f"流局　聴牌：{_seats_ja(a.ints_param('tenpai'), n)}　"
        f"支払い：{_payments_ja(a.ints_param('deltas'), n) or 'なし'}"
    ),
    AnnouncementKind.WIN: _win_ja,
    AnnouncementKind.NAGASHI_MANGAN: lambda a, n: (
        f"流し満貫：{_seats_ja(a.ints_param('seats'), n)}　支払い：{_payments_ja(a.ints_param('deltas'), n) or 'なし'}"
    ),
    AnnouncementKind.CHOMBO: _chombo_ja,
    AnnouncementKind.PAYMENTS_COMPLETE: lambda _a, _n: "支払い完了",
    AnnouncementKind.TRAY_OFF: lambda a, n: (
        f"{_who_ja(a, n)}の点棒が{a.int_param('read') - a.int_param('expected'):+d}点ずれています"
        f"（読み {a.int_param('read')}、正しくは {a.int_param('expected')}）"
    ),
    AnnouncementKind.WALL_DISAGREES: lambda a, _n: (
        f"山の残り枚数が{a.int_param('read')}、捨て牌からは{a.int_param('expected')}（{_off(a)}枚）"
    ),
    AnnouncementKind.DEPOSIT_DISAGREES: lambda a, _n: (
        f"供託のリーチ棒が{a.int_param('read')}本、正しくは{a.int_param('expected')}本（{_off(a)}本）"
    ),
    AnnouncementKind.LINK_LOST: lambda _a, _n: "卓センサーとの接続が切れました。カメラで続けます",
    AnnouncementKind.LINK_RESTORED: lambda _a, _n: "卓センサー復帰",
    AnnouncementKind.CAMERA_LOST: lambda _a, _n: "カメラが切れました。審判が進行を確認してください",
    AnnouncementKind.CAMERA_RESTORED: lambda _a, _n: "カメラ復帰",
    AnnouncementKind.QUESTION: _question_ja,
    AnnouncementKind.UNDONE: lambda a, _n: f"取り消し：{a.text_param('event')}",
    AnnouncementKind.CORRECTED: lambda a, n: (
        f"{_who_ja(a, n)}の{a.int_param('index') + 1}枚目の捨て牌を訂正：{a.text_param('tile')}"
        f"（{a.text_param('was')}と誤読）"
    ),
    AnnouncementKind.PROFILE_CHANGED: lambda a, _n: f"次局からのルール：{a.text_param('profile')}",
    AnnouncementKind.RIICHI: lambda a, n: f"{_who_ja(a, n)}：リーチ",
    AnnouncementKind.CALL: lambda a, n: f"{_who_ja(a, n)}：{call_words(a.text_param('call'), Form.JA)}",
    AnnouncementKind.HAND_START: lambda a, _n: f"{_round(a, Language.JA)} {a.int_param('honba')}本場",
    AnnouncementKind.GAME_END: lambda a, n: (
        "終局：" + "、".join(f"{n.ja(seat)} {score}" for seat, score in enumerate(a.ints_param("scores")))
    ),
}


def render(announcement: Announcement, language: Language, seats: SeatNaming = BY_NUMBER) -> str:
    """The announcement's text, seats named by ``seats`` (``GameState.seat_naming()``: this
    hand's winds and the players' names; with neither, seats 1-4)."""
    table = _EN if language is Language.EN else _JA
    return table[announcement.kind](announcement, seats)


def _kana_seat(a: Announcement, n: SeatNaming) -> str:
    return n.kana(a.seat) if a.seat is not None else ""


#: Short kana phrases for espeak-ng's Japanese voice (it reads kana far better than kanji).
_KANA: dict[AnnouncementKind, _Render] = {
    AnnouncementKind.ILLEGAL_ACT: lambda a, n: f"{_kana_seat(a, n)} はんそくです",
    AnnouncementKind.ABORTIVE_DRAW: lambda a, _n: f"とちゅうりゅうきょく {_draw(a, Form.KANA)}",
    AnnouncementKind.EXHAUSTIVE_DRAW: lambda _a, _n: "りゅうきょく",
    AnnouncementKind.WIN: lambda a, n: f"{_kana_seat(a, n)} {a.int_param('points')}てん",
    AnnouncementKind.NAGASHI_MANGAN: lambda _a, _n: "ながしまんがん",
    AnnouncementKind.CHOMBO: lambda a, n: f"{_kana_seat(a, n)} ちょんぼ",
    AnnouncementKind.PAYMENTS_COMPLETE: lambda _a, _n: "しはらい かんりょう",
    AnnouncementKind.TRAY_OFF: lambda a, n: f"{_kana_seat(a, n)} てんぼうが あいません",
    AnnouncementKind.LINK_LOST: lambda _a, _n: "たくセンサーが きれました",
    AnnouncementKind.CAMERA_LOST: lambda _a, _n: "カメラが きれました",
    AnnouncementKind.QUESTION: lambda _a, _n: "しんぱん かくにん おねがいします",
    AnnouncementKind.RIICHI: lambda a, n: f"{_kana_seat(a, n)} りーち",
    AnnouncementKind.CALL: lambda a, _n: call_words(a.text_param("call"), Form.KANA),
}


def speech_kana(announcement: Announcement, seats: SeatNaming = BY_NUMBER) -> str | None:
    """The kana phrase to speak, or ``None`` for announcements that stay silent (seats by
    wind, else by number: espeak-ng cannot be trusted with names)."""
    speak = _KANA.get(announcement.kind)
    return None if speak is None else speak(announcement, seats)
