"""Between hands and at the end: dealer, honba, game over, the final tally."""

from __future__ import annotations

from dataclasses import replace

import pytest

from table_app.domain.seat import Seat, Wind
from table_app.rules.game_flow import final_points, final_scores, next_hand, ranking
from table_app.rules.profiles import JUN, MLEAGUE, TENHOU
from table_app.rules.record import HandEnding
from table_app.rules.results import HandResult
from table_app.rules.state import KyokuState, PlayerState

S0, S1, S2, S3 = Seat


def hand(bakaze: Wind, kyoku: int, scores, *, honba: int = 0, kyotaku: int = 0) -> KyokuState:
    oya = Seat(kyoku - 1)
    players = tuple(PlayerState(concealed=()) for _ in range(4))
    return KyokuState(bakaze, kyoku, honba, kyotaku, oya, tuple(scores), (), players)


def win_by(seat: Seat) -> HandResult:
    from table_app.rules.results import WinResult
    from table_app.rules.scoring import WinValue

    value = WinValue(1, 30, 1000, 0, 0, (), 0)
    return HandResult("x", HandEnding.WIN, (0, 0, 0, 0), (WinResult(seat, seat, value, (0, 0, 0, 0)),))


def draw(ending: HandEnding, tenpai=()) -> HandResult:
    return HandResult("x", ending, (0, 0, 0, 0), (), tuple(tenpai))


EVEN = (25000, 25000, 25000, 25000)


def test_dealer_win_repeats_and_adds_honba():
    nxt = next_hand(hand(Wind.EAST, 2, EVEN, honba=1), win_by(S1), TENHOU)
    assert (nxt.kyoku, nxt.oya, nxt.honba) == (2, S1, 2)


def test_non_dealer_win_passes_the_deal_and_clears_honba():
    nxt = next_hand(hand(Wind.EAST, 4, EVEN, honba=2), win_by(S0), TENHOU)
    assert (nxt.bakaze, nxt.kyoku, nxt.oya, nxt.honba) == (Wind.SOUTH, 1, S0, 0)


@pytest.mark.parametrize(("tenpai", "repeat"), [((S0,), True), ((S1,), False)])
def test_exhaustive_draw_repeats_only_on_dealer_tenpai(tenpai, repeat):
    nxt = next_hand(hand(Wind.EAST, 1, EVEN, kyotaku=2), draw(HandEnding.EXHAUSTIVE, tenpai), TENHOU)
    assert (nxt.oya == S0) is repeat
    assert (nxt.honba, nxt.kyotaku) == (1, 2)


def test_abortive_draw_repeats_with_honba():
    nxt = next_hand(hand(Wind.EAST, 3, EVEN), draw(HandEnding.FOUR_WINDS), TENHOU)
    assert (nxt.oya, nxt.honba) == (S2, 1)


def test_jun_always_passes_the_deal_and_has_no_honba():
    nxt = next_hand(hand(Wind.EAST, 1, EVEN), win_by(S0), JUN)
    assert (nxt.oya, nxt.honba) == (S1, 0)
    assert not next_hand(hand(Wind.WEST, 4, EVEN), win_by(S0), JUN).game_over
    assert next_hand(hand(Wind.NORTH, 4, EVEN), win_by(S0), JUN).game_over


def test_bust_ends_the_game():
    assert next_hand(hand(Wind.EAST, 1, (50000, 26000, 24100, -100)), win_by(S0), TENHOU).game_over
    assert not next_hand(hand(Wind.EAST, 1, (50000, 26000, 24000, 0)), win_by(S0), TENHOU).game_over
    assert not next_hand(hand(Wind.EAST, 1, (50000, 26000, 24100, -100)), win_by(S0), MLEAGUE).game_over


ALL_LAST_TOP_DEALER = (20000, 20000, 20000, 40000)


@pytest.mark.parametrize(
    ("result", "over"),
    [
        (win_by(S3), True),  # アガリ止め
        (draw(HandEnding.EXHAUSTIVE, (S3,)), True),  # テンパイ止め
        (draw(HandEnding.NINE_TERMINALS), False),  # an abort does not stop the game
        (win_by(S0), True),  # the deal passes and someone has 30000
    ],
)
def test_all_last(result, over):
    assert next_hand(hand(Wind.SOUTH, 4, ALL_LAST_TOP_DEALER), result, TENHOU).game_over is over


def test_all_last_tenpai_stop_is_a_switch():
    early = replace(TENHOU, last_dealer_may_stop_on_tenpai=False)
    assert not next_hand(hand(Wind.SOUTH, 4, ALL_LAST_TOP_DEALER), draw(HandEnding.EXHAUSTIVE, (S3,)), early).game_over


def test_sudden_death_into_west_until_someone_reaches_30000():
    below = (26000, 26000, 24000, 24000)
    assert not next_hand(hand(Wind.SOUTH, 4, below), win_by(S0), TENHOU).game_over
    assert next_hand(hand(Wind.SOUTH, 4, below), win_by(S0), MLEAGUE).game_over
    assert next_hand(hand(Wind.WEST, 4, below), win_by(S0), TENHOU).game_over


def test_ties_go_to_the_seat_nearer_the_first_dealer():
    scores = (20000, 30000, 20000, 30000)
    assert ranking(scores, S0) == (S1, S3, S0, S2)
    assert ranking(scores, S2) == (S3, S1, S2, S0)


def test_leftover_sticks_go_to_the_top():
    assert final_scores((20000, 30000, 20000, 28000), 2, S0, TENHOU) == (20000, 32000, 20000, 28000)


@pytest.mark.parametrize(
    ("scores", "points"),
    [
        # Tallies of real Tenhou games (the logs' own figures).
        ((20100, 35800, 5200, 38900), (-20.0, 16.0, -45.0, 49.0)),
        ((21500, -28800, 34500, 72800), (-18.0, -79.0, 15.0, 82.0)),
        ((-2500, 61900, 19300, 21300), (-53.0, 73.0, -21.0, 1.0)),
    ],
)
def test_tenhou_tally_rounds_each_score_to_thousands(scores, points):
    assert final_points(scores, S0, TENHOU) == points


def test_exact_tally_without_rounding():
    points = final_points((21500, 33700, 29800, 15000), S0, MLEAGUE)
    assert points == (-18.5, 3.7 + 30 + 20, 9.8, -45.0)  # the top: score, uma, oka
    assert sum(points) == pytest.approx(0)
