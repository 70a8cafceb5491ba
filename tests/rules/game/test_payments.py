"""Payments: the noten pool, wins with honba and sticks, pao, nagashi mangan."""

from __future__ import annotations

import pytest

from table_app.domain.seat import Seat
from table_app.rules.payments import nagashi_deltas, noten_deltas, win_deltas
from table_app.rules.profiles import JUN, TENHOU
from table_app.rules.scoring import WinValue

S0, S1, S2, S3 = Seat


@pytest.mark.parametrize(
    ("tenpai", "expected"),
    [
        ((), (0, 0, 0, 0)),
        ((S1,), (-1000, 3000, -1000, -1000)),
        ((S1, S3), (-1500, 1500, -1500, 1500)),
        ((S0, S1, S2), (1000, 1000, 1000, -3000)),
        ((S0, S1, S2, S3), (0, 0, 0, 0)),
    ],
)
def test_noten_pool_is_3000_split_by_tenpai_count(tenpai, expected):
    assert noten_deltas(tenpai, 3000) == expected


def test_no_pool_when_the_profile_has_none():
    assert noten_deltas((S1,), JUN.noten_pool) == (0, 0, 0, 0)


NON_DEALER_TSUMO = WinValue(han=3, fu=30, points=4000, dealer_pays=2000, others_pay=1000, yaku=(), yakuman=0)
RON_7700 = WinValue(han=4, fu=30, points=7700, dealer_pays=0, others_pay=0, yaku=(), yakuman=0)


def test_non_dealer_tsumo_with_honba_and_sticks():
    deltas = win_deltas(NON_DEALER_TSUMO, S2, S2, S0, honba=1, sticks=2, pao=None, profile=TENHOU)
    assert deltas == (-2100, -1100, 4000 + 300 + 2000, -1100)


def test_ron_with_honba_and_sticks():
    deltas = win_deltas(RON_7700, S1, S3, S0, honba=3, sticks=1, pao=None, profile=TENHOU)
    assert deltas == (0, 7700 + 900 + 1000, 0, -8600)


def test_no_honba_in_jun_mahjong():
    deltas = win_deltas(RON_7700, S1, S3, S0, honba=3, sticks=0, pao=None, profile=JUN)
    assert deltas == (0, 7700, 0, -7700)


def test_pao_on_tsumo_pays_everything():
    yakuman = WinValue(13, 30, 32000, 16000, 8000, ("Daisangen",), 1)
    assert win_deltas(yakuman, S2, S2, S0, honba=1, sticks=0, pao=S0, profile=TENHOU) == (-32300, 0, 32300, 0)


def test_nagashi_is_a_mangan_tsumo_for_each_player_who_made_it():
    assert nagashi_deltas((S0,), S0) == (12000, -4000, -4000, -4000)
    assert nagashi_deltas((S1,), S0) == (-4000, 8000, -2000, -2000)
    assert sum(nagashi_deltas((S1, S2), S0)) == 0
