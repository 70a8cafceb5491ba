"""純麻雀's own yaku (seed 001 第26条) and its fixed table (第25条)."""

from __future__ import annotations

import pytest

from table_app.domain.hand import Hand
from table_app.domain.meld import parse_meld
from table_app.domain.notation import parse_tile
from table_app.domain.seat import Wind
from table_app.rules.jun_yaku import jun_value
from table_app.rules.profiles import JUN
from table_app.rules.scoring import WinSituation, score_win


def value(concealed: str, win: str, *, melds=(), tsumo=False, riichi=False, seat=Wind.SOUTH, round_=Wind.EAST):
    hand = Hand.parse(concealed, tuple(parse_meld(m) for m in melds))
    return jun_value(hand, parse_tile(win), tsumo=tsumo, riichi=riichi, seat_wind=seat, round_wind=round_)


def test_pinfu_is_any_wait_with_a_number_pair():
    # A kanchan wait would not be pinfu in standard rules; 純麻雀 does not ask how it was won.
    result = value("234m567p678s13s99p", "2s")
    assert result.yaku == ("平和",)
    assert result.han == 1


def test_three_consecutive_triplets_beat_three_identical_sequences():
    result = value("111222333m456p9s", "9s")
    assert set(result.yaku) == {"三連刻", "三暗刻"}
    assert result.han == 3


def test_three_wind_triplets_and_value_winds():
    south = value("111z222z333z456m9s", "9s", seat=Wind.SOUTH, round_=Wind.EAST)
    assert {"三風刻", "三暗刻"} <= set(south.yaku)
    assert south.yaku.count("翻牌") == 2  # East (round) and South (seat)
    east = value("111z222z333z456m9s", "9s", seat=Wind.EAST, round_=Wind.EAST)
    assert "連風牌" in east.yaku  # East as both seat and round wind: 2 han
    assert east.yaku.count("翻牌") == 0  # South is no value wind for the East player
    assert east.han == 2 + 2 + 2  # 三風刻, 三暗刻, 連風牌


def test_open_hands_lose_a_han_on_marked_yaku():
    closed = value("123456789m234p5s", "5s")
    opened = value("789m234p5s", "5s", melds=("chi:123m", "chi:546m"))
    assert set(closed.yaku) == {"一通", "平和"}
    assert closed.han == 2 + 1
    assert opened.yaku == ("一通",)
    assert opened.han == 1  # ▼: one han less when open


def test_seven_pairs_is_one_han():
    assert value("1133m5577p2299s1z", "1z").yaku == ("七対子",)


@pytest.mark.parametrize(
    ("concealed", "win", "limit"),
    [
        ("555z666z777z234m9s", "9s", 1),  # 大三元: 役満貫
        ("111z222z333z444z5z", "5z", 2),  # 字一色 and 大四喜: 大役満
        ("19m19p19s1234567z", "1m", 2),  # 国士無双
    ],
)
def test_limit_hands(concealed, win, limit):
    assert value(concealed, win).limit == limit


def test_the_fixed_table_pays_by_han_alone_and_zero_han_still_wins():
    situation = WinSituation(tsumo=False, dealer=False, seat_wind=Wind.SOUTH, round_wind=Wind.EAST)
    no_yaku = score_win(
        Hand.parse("234m567p99p56s").concealed,
        win=parse_tile("4s"),
        melds=(parse_meld("pon:999m@left"),),
        situation=situation,
        dora_markers=(),
        ura_markers=(),
        profile=JUN,
    )
    assert (no_yaku.han, no_yaku.points, no_yaku.error) == (0, 600, None)
    big = score_win(
        Hand.parse("555z666z777z234m9s").concealed,
        win=parse_tile("9s"),
        melds=(),
        situation=situation,
        dora_markers=(),
        ura_markers=(),
        profile=JUN,
    )
    assert big.points == 27000
    tsumo = WinSituation(tsumo=True, dealer=True, seat_wind=Wind.EAST, round_wind=Wind.EAST)
    each = score_win(
        Hand.parse("234m567p678s13s99p").concealed,
        win=parse_tile("2s"),
        melds=(),
        situation=tsumo,
        dora_markers=(),
        ura_markers=(),
        profile=JUN,
    )
    # 自摸和 + 平和 = 2 han: 1000 from each, the dealer no more than the others.
    assert (each.han, each.others_pay, each.points) == (2, 1000, 3000)
