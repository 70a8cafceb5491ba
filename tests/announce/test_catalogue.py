"""The JA/EN catalogue renders every kind of announcement, with the facts in it."""

from __future__ import annotations

import pytest

from table_app.announce import Announcement, AnnouncementKind, Language, announce, render, speech_kana
from table_app.domain.seat import Seat
from table_app.domain.seat_names import SeatNaming, mention
from table_app.rules.verdicts import Reason

SAMPLES: dict[AnnouncementKind, Announcement] = {
    AnnouncementKind.ILLEGAL_ACT: announce(
        AnnouncementKind.ILLEGAL_ACT, Seat.S2, reason="kuikae", consequence="chombo"
    ),
    AnnouncementKind.ABORTIVE_DRAW: announce(AnnouncementKind.ABORTIVE_DRAW, draw="four_riichi"),
    AnnouncementKind.EXHAUSTIVE_DRAW: announce(
        AnnouncementKind.EXHAUSTIVE_DRAW, tenpai=(0, 3), deltas=(1500, -1500, -1500, 1500)
    ),
    AnnouncementKind.WIN: announce(
        AnnouncementKind.WIN,
        Seat.S1,
        target=3,
        han=3,
        fu=40,
        points=5200,
        yaku=("Riichi", "Tanyao", "Dora 1"),
        deltas=(0, 5200, 0, -5200),
    ),
    AnnouncementKind.NAGASHI_MANGAN: announce(
        AnnouncementKind.NAGASHI_MANGAN, seats=(2,), deltas=(-4000, -2000, 8000, -2000)
    ),
    AnnouncementKind.CHOMBO: announce(AnnouncementKind.CHOMBO, Seat.S1, deltas=(4000, -8000, 2000, 2000), tally=0),
    AnnouncementKind.PAYMENTS_COMPLETE: announce(AnnouncementKind.PAYMENTS_COMPLETE),
    AnnouncementKind.TRAY_OFF: announce(AnnouncementKind.TRAY_OFF, Seat.S3, expected=24000, read=23000),
    AnnouncementKind.WALL_DISAGREES: announce(AnnouncementKind.WALL_DISAGREES, expected=50, read=49),
    AnnouncementKind.DEPOSIT_DISAGREES: announce(AnnouncementKind.DEPOSIT_DISAGREES, expected=1, read=0),
    AnnouncementKind.LINK_LOST: announce(AnnouncementKind.LINK_LOST),
    AnnouncementKind.LINK_RESTORED: announce(AnnouncementKind.LINK_RESTORED),
    AnnouncementKind.CAMERA_LOST: announce(AnnouncementKind.CAMERA_LOST),
    AnnouncementKind.CAMERA_RESTORED: announce(AnnouncementKind.CAMERA_RESTORED),
    AnnouncementKind.QUESTION: announce(
        AnnouncementKind.QUESTION, Seat.S0, question=4, topic="which tile won", options=("3m", "6m")
    ),
    AnnouncementKind.UNDONE: announce(AnnouncementKind.UNDONE, event="dahai"),
    AnnouncementKind.CORRECTED: announce(AnnouncementKind.CORRECTED, Seat.S2, index=3, was="3m", tile="8m"),
    AnnouncementKind.PROFILE_CHANGED: announce(AnnouncementKind.PROFILE_CHANGED, profile="jpml"),
    AnnouncementKind.RIICHI: announce(AnnouncementKind.RIICHI, Seat.S0),
    AnnouncementKind.CALL: announce(AnnouncementKind.CALL, Seat.S1, call="pon"),
    AnnouncementKind.HAND_START: announce(AnnouncementKind.HAND_START, round="E2", honba=1),
    AnnouncementKind.GAME_END: announce(AnnouncementKind.GAME_END, scores=(40000, 30000, 20000, 10000)),
}


def test_every_kind_has_a_sample():
    assert set(SAMPLES) == set(AnnouncementKind)


@pytest.mark.parametrize("kind", list(AnnouncementKind))
@pytest.mark.parametrize("language", list(Language))
def test_every_kind_renders(kind, language):
    text = render(SAMPLES[kind], language)
    assert text.strip()


def test_illegal_act_names_the_rule_in_both_languages():
    a = SAMPLES[AnnouncementKind.ILLEGAL_ACT]
    assert "kuikae" in render(a, Language.EN)
    assert render(a, Language.EN).startswith("Seat 3: illegal")
    assert "喰い替え" in render(a, Language.JA)
    assert "チョンボ" in render(a, Language.JA)


def test_every_reason_code_has_words():
    for reason in Reason:
        a = announce(AnnouncementKind.ILLEGAL_ACT, Seat.S0, reason=reason.value, consequence="void")
        assert reason.value not in render(a, Language.JA), reason


def test_win_has_yaku_han_fu_and_payments():
    en = render(SAMPLES[AnnouncementKind.WIN], Language.EN)
    ja = render(SAMPLES[AnnouncementKind.WIN], Language.JA)
    assert "ron on Seat 4" in en
    assert "3 han 40 fu" in en
    assert "Seat 4 -5200" in en
    assert "立直、断么九、ドラ 1" in ja
    assert "3翻40符" in ja


def test_exhaustive_draw_says_who_is_tenpai_and_who_pays():
    en = render(SAMPLES[AnnouncementKind.EXHAUSTIVE_DRAW], Language.EN)
    assert "Tenpai: Seat 1, Seat 4" in en
    assert "Seat 2 -1500" in en


def test_tray_off_says_by_how_much():
    assert "-1000" in render(SAMPLES[AnnouncementKind.TRAY_OFF], Language.EN)
    assert "-1000点" in render(SAMPLES[AnnouncementKind.TRAY_OFF], Language.JA)


def test_a_correction_names_the_seat_the_discard_and_both_tiles():
    en = render(SAMPLES[AnnouncementKind.CORRECTED], Language.EN)
    assert en == "Seat 3's discard 4 corrected: 8m (read as 3m)"
    assert "4枚目" in render(SAMPLES[AnnouncementKind.CORRECTED], Language.JA)


def test_wall_and_deposit_disagreements_say_by_how_much():
    wall = SAMPLES[AnnouncementKind.WALL_DISAGREES]  # reads 49, should be 50
    assert render(wall, Language.EN) == "The wall count reads 49, the discards say 50 (off by -1)"
    assert "（-1枚）" in render(wall, Language.JA)
    deposit = SAMPLES[AnnouncementKind.DEPOSIT_DISAGREES]  # holds 0, should be 1
    assert render(deposit, Language.EN).endswith("should be 1 (off by -1)")
    assert "（-1本）" in render(deposit, Language.JA)


def test_speech_is_kana_and_some_kinds_stay_silent():
    phrase = speech_kana(SAMPLES[AnnouncementKind.RIICHI])
    assert phrase == "いちばんせき りーち"
    assert speech_kana(SAMPLES[AnnouncementKind.HAND_START]) is None


def test_missing_param_is_named():
    with pytest.raises(KeyError, match="no 'han'"):
        announce(AnnouncementKind.WIN, Seat.S0).int_param("han")


def test_a_hand_start_names_the_round():
    a = SAMPLES[AnnouncementKind.HAND_START]
    assert render(a, Language.JA) == "東2局 1本場"
    assert render(a, Language.EN) == "East 2, 1 honba"


def test_without_a_hand_seats_are_called_by_name_else_by_number_1_to_4():
    seats = SeatNaming(("Aoki", "", "Chiba", "Doi"))
    win = SAMPLES[AnnouncementKind.WIN]
    assert render(win, Language.EN, seats).startswith("Seat 2 wins by ron on Doi")
    assert "Doi -5200" in render(win, Language.EN, seats)
    assert render(SAMPLES[AnnouncementKind.RIICHI], Language.JA, seats) == "Aoki：リーチ"
    assert render(SAMPLES[AnnouncementKind.RIICHI], Language.JA, SeatNaming()) == "1番席：リーチ"


def test_in_a_hand_seats_are_called_by_this_hands_wind_and_the_players_name():
    seats = SeatNaming(("Aoki", "Baba", "Chiba", ""), dealer=Seat.S1)  # Baba deals: Aoki is North
    win = SAMPLES[AnnouncementKind.WIN]  # seat 1 (Baba) rons seat 3 (no name: West)
    en = render(win, Language.EN, seats)
    assert en.startswith("East (Baba) wins by ron on West: ")
    assert "(East (Baba) +5200, West -5200)" in en
    ja = render(win, Language.JA, seats)
    assert ja.startswith("東家（Baba） 西家からロン和了")
    assert render(SAMPLES[AnnouncementKind.RIICHI], Language.EN, seats) == "North (Aoki): riichi"
    draw = render(SAMPLES[AnnouncementKind.EXHAUSTIVE_DRAW], Language.EN, seats)
    assert "Tenpai: North (Aoki), West." in draw
    assert render(SAMPLES[AnnouncementKind.CORRECTED], Language.JA, seats).startswith("南家（Chiba）の4枚目")
    assert render(SAMPLES[AnnouncementKind.GAME_END], Language.EN, seats) == (
        "Game over: North (Aoki) 40000, East (Baba) 30000, South (Chiba) 20000, West 10000"
    )


def test_a_question_names_the_seats_it_mentions_at_the_edge():
    question = announce(
        AnnouncementKind.QUESTION,
        Seat.S2,
        question=1,
        topic=f"{mention(Seat.S2)} discarded 5m out of turn",
        options=("it was a discard", "misread: ignore"),
    )
    seats = SeatNaming(("Aoki", "Baba", "Chiba", "Doi"), dealer=Seat.S0)
    assert "West (Chiba) discarded 5m out of turn?" in render(question, Language.EN, seats)
    assert "西家（Chiba） discarded 5m" in render(question, Language.JA, seats)
    assert "Seat 3 discarded 5m" in render(question, Language.EN)


def test_speech_says_the_wind_in_kana_never_the_name():
    seats = SeatNaming(("Aoki", "Baba", "Chiba", "Doi"), dealer=Seat.S3)
    assert speech_kana(SAMPLES[AnnouncementKind.RIICHI], seats) == "なんちゃ りーち"  # seat 0 is South
    assert speech_kana(SAMPLES[AnnouncementKind.TRAY_OFF], seats) == "とんちゃ てんぼうが あいません"


def test_nagashi_mangan_and_chombo_say_their_payments():
    nagashi = render(SAMPLES[AnnouncementKind.NAGASHI_MANGAN], Language.EN)
    assert nagashi == "Nagashi mangan: Seat 3. Payments: Seat 1 -4000, Seat 2 -2000, Seat 3 +8000, Seat 4 -2000"
    assert render(SAMPLES[AnnouncementKind.NAGASHI_MANGAN], Language.JA).startswith("流し満貫：3番席")
    chombo = render(SAMPLES[AnnouncementKind.CHOMBO], Language.EN)
    assert chombo == "Chombo by Seat 2: Seat 1 +4000, Seat 2 -8000, Seat 3 +2000, Seat 4 +2000; the hand is replayed"
    tally = announce(AnnouncementKind.CHOMBO, Seat.S1, deltas=(0, 0, 0, 0), tally=20)
    assert render(tally, Language.EN) == "Chombo by Seat 2: 20 points off the final tally; the hand is replayed"
    sticks_back = announce(AnnouncementKind.CHOMBO, Seat.S1, deltas=(1000, 0, 0, 0), tally=20)
    assert "20 points off the final tally, Seat 1 +1000;" in render(sticks_back, Language.EN)
    assert "最終成績から20ポイント減" in render(tally, Language.JA)


def test_a_win_without_fu_is_paid_by_the_fixed_table():
    jun = announce(
        AnnouncementKind.WIN, Seat.S0, target=0, han=0, points=1800, yaku=(), deltas=(1800, -600, -600, -600)
    )
    assert render(jun, Language.EN) == (
        "Seat 1 wins by tsumo: no yaku; 0 han, 1800 points (Seat 1 +1800, Seat 2 -600, Seat 3 -600, Seat 4 -600)"
    )
    assert "役なし　0翻 1800点" in render(jun, Language.JA)


def test_nagashi_mangan_chombo_and_a_fixed_table_win_name_seats_by_wind_and_name_in_a_hand():
    seats = SeatNaming(("Aoki", "Baba", "Chiba", "Doi"), dealer=Seat.S1)  # Baba deals: Chiba is South
    nagashi = render(SAMPLES[AnnouncementKind.NAGASHI_MANGAN], Language.EN, seats)
    assert nagashi.startswith("Nagashi mangan: South (Chiba). Payments: North (Aoki) -4000, East (Baba) -2000")
    assert render(SAMPLES[AnnouncementKind.NAGASHI_MANGAN], Language.JA, seats).startswith("流し満貫：南家（Chiba）")
    chombo = render(SAMPLES[AnnouncementKind.CHOMBO], Language.EN, seats)
    assert chombo.startswith("Chombo by East (Baba): North (Aoki) +4000, East (Baba) -8000")
    assert render(SAMPLES[AnnouncementKind.CHOMBO], Language.JA, seats).startswith("東家（Baba）のチョンボ：")
    assert speech_kana(SAMPLES[AnnouncementKind.CHOMBO], seats) == "とんちゃ ちょんぼ"
    assert speech_kana(SAMPLES[AnnouncementKind.CHOMBO]) == "にばんせき ちょんぼ"
    jun = announce(
        AnnouncementKind.WIN, Seat.S0, target=0, han=0, points=1800, yaku=(), deltas=(1800, -600, -600, -600)
    )
    assert render(jun, Language.EN, seats).startswith("North (Aoki) wins by tsumo: no yaku; 0 han, 1800 points")
