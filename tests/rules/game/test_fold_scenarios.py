"""Hand-written hands through the fold: riichi sticks, ippatsu, multiple ron, draws, pao."""

from __future__ import annotations

from dataclasses import replace

import pytest

from table_app.domain.notation import parse_tiles
from table_app.domain.seat import Seat
from table_app.rules.events import EndKyoku, Reach, ReachAccepted, Ryukyoku, ShownHand
from table_app.rules.fold import apply
from table_app.rules.profiles import MLEAGUE, TENHOU
from table_app.rules.record import HandEnding
from table_app.rules.state import RiichiStage

from .scenario import (
    ankan,
    discard,
    draw,
    go_around,
    play,
    pon,
    riichi,
    ron,
    start,
    tsumo_win,
)

# Dealer's riichi hand: 234m 22p 456p 678s 67s, waiting on 5s or 8s (pinfu, tanyao).
DEALER_PINFU = "234m22456p67678s"
# 234m 567p 678s with 33p and 55s: a shanpon on 3p / 5s, tanyao.
SHANPON = "234m567p33p678s55s"
# 345m 678p 22p 234s and 46s: a kanchan on 5s, tanyao.
KANCHAN = "345m678p22p234s46s"


def test_riichi_on_the_first_discard_is_a_double_riichi():
    events = [*start({0: DEALER_PINFU}), *riichi(0, "1z", drawn="1z"), *go_around(1, ["2z", "3z", "4z"])]
    state = play([*events, draw(0, "5s"), tsumo_win(0, "5s"), EndKyoku()])
    (win,) = state.results[0].wins
    assert "Double Riichi" in win.yaku
    assert "Riichi" not in win.yaku


def test_riichi_stick_is_paid_when_the_declaration_tile_passes():
    state = play([*start({0: DEALER_PINFU}), *riichi(0, "1z", drawn="1z")])
    hand = state.hand
    assert hand.scores[0] == 24000
    assert hand.kyotaku == 1
    player = hand.player(Seat.S0)
    assert player.riichi is RiichiStage.ACCEPTED
    assert player.ippatsu
    assert player.pond[-1].riichi


def test_ronned_declaration_tile_pays_no_stick():
    events = [*start({1: SHANPON}), draw(0), Reach(Seat.S0), discard(0, "5s"), ron(1, 0, "5s"), EndKyoku()]
    state = play(events)
    (result,) = state.results
    # Tanyao, 40 fu (20 + 10 closed ron + 2 for the triplet completed by ron, rounded up): 1300.
    assert result.wins[0].points == 1300
    assert result.deltas == (-1300, 1300, 0, 0)
    assert state.scores == (23700, 26300, 25000, 25000)
    assert state.next_hand.kyotaku == 0
    assert (state.next_hand.oya, state.next_hand.honba) == (Seat.S1, 0)


def test_called_riichi_tile_turns_the_next_discard_sideways():
    events = [
        *start({}),
        draw(0),
        Reach(Seat.S0),
        discard(0, "5s"),
        ReachAccepted(Seat.S0),
        pon(2, 0, "5s"),
        discard(2, "1z"),
        *go_around(3, ["2z", "3z"]),
    ]
    pond = play(events).hand.player(Seat.S0).pond
    assert [(t.riichi, t.called) for t in pond] == [(True, True), (True, False)]


@pytest.mark.parametrize("interrupted", [False, True])
def test_ippatsu_is_broken_by_any_call(interrupted: bool):
    # A first go-around first, so that the riichi is not a double riichi.
    events = [*start({0: DEALER_PINFU}), *go_around(0, ["9m", "1z", "1z", "1z"]), *riichi(0, "2z", drawn="2z")]
    if interrupted:
        events += [draw(1), discard(1, "3z"), pon(3, 1, "3z"), discard(3, "7z")]
    else:
        events += go_around(1, ["3z", "4z", "4z"])
    events += [draw(0, "5s"), tsumo_win(0, "5s"), EndKyoku()]
    (win,) = play(events).results[0].wins
    assert ("Ippatsu" in win.yaku) is not interrupted
    # Riichi, tsumo, pinfu, tanyao (+ ippatsu): dealer mangan 4000 all, else 4 han 20 fu 2600 all.
    assert win.points == (7800 if interrupted else 12000)
    each = 2600 if interrupted else 4000
    assert win.deltas == (3 * each + 1000, -each, -each, -each)  # the winner takes back their stick


@pytest.mark.parametrize("order", [(1, 2), (2, 1)])
def test_double_ron_gives_honba_and_sticks_to_the_first_after_the_discarder(order: tuple[int, int]):
    events = [*start({1: SHANPON, 2: KANCHAN}, honba=2, kyotaku=1), *go_around(0, ["1z", "2z", "3z"])]
    events += [draw(3), discard(3, "5s"), *(ron(seat, 3, "5s") for seat in order), EndKyoku()]
    state = play(events)
    (result,) = state.results
    # Seat 1 comes first after seat 3: 1300 + 2 honba (600) + 1 stick (1000); seat 2 just 1300.
    assert result.deltas == (0, 2900, 1300, -3200)
    assert state.next_hand.kyotaku == 0


def test_head_bump_lets_only_the_first_after_the_discarder_win():
    events = [*start({1: SHANPON, 2: KANCHAN}, honba=2, kyotaku=1), *go_around(0, ["1z", "2z", "3z"])]
    events += [draw(3), discard(3, "5s"), ron(2, 3, "5s"), ron(1, 3, "5s"), EndKyoku()]
    (result,) = play(events, MLEAGUE).results
    assert [w.winner for w in result.wins] == [Seat.S1]
    assert result.deltas == (0, 2900, 0, -1900)  # 1300 + 600 honba from seat 3, plus the stick


def _at_wall_end(events, *, honba: int = 0):
    state = play(events)
    return replace(state, hand=replace(state.hand, live_wall=0))


@pytest.mark.parametrize(
    ("tenpai", "deltas", "next_oya"),
    [
        ((0, 2), (1500, -1500, 1500, -1500), Seat.S0),
        ((2,), (-1000, -1000, 3000, -1000), Seat.S1),
        ((), (0, 0, 0, 0), Seat.S1),
    ],
)
def test_exhaustive_draw_pays_the_pool_and_decides_the_dealer(tenpai, deltas, next_oya):
    hands = {0: DEALER_PINFU, 2: SHANPON}
    state = _at_wall_end(start({}, honba=1, kyotaku=2))
    shown = tuple(ShownHand(Seat(s), parse_tiles(hands[s])) for s in tenpai)
    state = apply(apply(state, Ryukyoku(shown=shown)), EndKyoku())
    (result,) = state.results
    assert result.ending is HandEnding.EXHAUSTIVE
    assert result.deltas == deltas
    assert (state.next_hand.oya, state.next_hand.honba, state.next_hand.kyotaku) == (next_oya, 2, 2)


def test_four_riichi_is_inferred_when_the_source_does_not_say():
    events = [*start({})]
    for seat, tile in enumerate(["1z", "2z", "3z", "4z"]):
        events += riichi(seat, tile)
    state = play([*events, Ryukyoku(), EndKyoku()])
    (result,) = state.results
    assert result.ending is HandEnding.FOUR_RIICHI
    assert result.deltas == (0, 0, 0, 0)
    assert state.scores == (24000, 24000, 24000, 24000)
    nxt = state.next_hand
    assert (nxt.oya, nxt.honba, nxt.kyotaku, nxt.kyoku) == (Seat.S0, 1, 4, 1)


def test_four_winds_and_nine_terminals_are_inferred():
    winds = play([*start({}), *go_around(0, ["1z", "1z", "1z", "1z"]), Ryukyoku(), EndKyoku()])
    assert winds.results[0].ending is HandEnding.FOUR_WINDS
    nine = play([*start({}), draw(0), Ryukyoku(), EndKyoku()])
    assert nine.results[0].ending is HandEnding.NINE_TERMINALS


@pytest.mark.parametrize("called", [False, True])
def test_nagashi_mangan_needs_every_discard_terminal_and_none_called(called: bool):
    events = [*start({})]
    for tile in ["1m", "9p", "1z", "7z"]:
        events += go_around(0, [tile, "5m", "5p", "5s"])
    if called:
        events += [draw(0), discard(0, "9s"), pon(2, 0, "9s"), discard(2, "4p")]
    state = _at_wall_end(events)
    state = apply(apply(state, Ryukyoku()), EndKyoku())
    (result,) = state.results
    if called:
        assert result.ending is HandEnding.EXHAUSTIVE
    else:
        assert result.ending is HandEnding.NAGASHI_MANGAN
        assert result.deltas == (12000, -4000, -4000, -4000)


def _big_three_dragons(final: list):
    return [
        *start({1: "234m99p11s556677z"}),
        draw(0),
        discard(0, "5z"),
        pon(1, 0, "5z"),
        discard(1, "1s"),
        draw(2),
        discard(2, "6z"),
        pon(1, 2, "6z"),
        discard(1, "1s"),
        *go_around(2, ["2z"]),
        draw(3),
        discard(3, "7z"),
        pon(1, 3, "7z"),
        discard(1, "9p"),
        *final,
        EndKyoku(),
    ]


def test_pao_pays_a_big_three_dragons_tsumo_alone():
    events = _big_three_dragons([*go_around(2, ["3z", "4z", "1z"]), draw(1, "9p"), tsumo_win(1, "9p")])
    (win,) = play(events).results[0].wins
    assert win.pao == Seat.S3
    assert win.deltas == (0, 32000, 0, -32000)


def test_pao_splits_a_big_three_dragons_ron_with_the_discarder():
    events = _big_three_dragons([*go_around(2, ["3z", "4z"]), draw(0), discard(0, "9p"), ron(1, 0, "9p")])
    (win,) = play(events).results[0].wins
    assert win.deltas == (-16000, 32000, 0, -16000)


def test_rinshan_win_on_the_replacement_tile():
    events = [*start({0: "111m234p567s789s5p"}), draw(0, "1m"), ankan(0, "1m"), draw(0, "5p"), tsumo_win(0, "5p")]
    (win,) = play([*events, EndKyoku()]).results[0].wins
    assert "Rinshan Kaihou" in win.yaku


def test_haitei_on_the_last_tile_of_the_live_wall():
    state = play([*start({0: DEALER_PINFU}), *riichi(0, "1z", drawn="1z"), *go_around(1, ["2z", "3z", "4z"])])
    state = replace(state, hand=replace(state.hand, live_wall=1))
    for event in (draw(0, "8s"), tsumo_win(0, "8s"), EndKyoku()):
        state = apply(state, event)
    assert "Haitei Raoyue" in state.results[0].wins[0].yaku


def test_red_five_counts_only_when_red():
    plain = play([*start({1: SHANPON}), draw(0), discard(0, "5s"), ron(1, 0, "5s"), EndKyoku()])
    red = play([*start({1: SHANPON}), draw(0), discard(0, "0s"), ron(1, 0, "0s"), EndKyoku()])
    assert "Aka Dora" not in plain.results[0].wins[0].yaku
    assert red.results[0].wins[0].han == plain.results[0].wins[0].han + 1


def test_fold_follows_a_hand_it_cannot_see():
    events = [*start({}), *go_around(0, ["1z", "2z", "3z", "4z"]), draw(0), discard(0, "9m")]
    state = play(events, TENHOU)
    assert state.hand.live_wall == 65
    assert [len(p.pond) for p in state.hand.players] == [2, 1, 1, 1]
    assert all(len(p.concealed) == 13 for p in state.hand.players)


def test_a_profile_change_between_hands_is_folded_and_one_inside_a_hand_is_impossible():
    from table_app.rules.events import ProfileChange
    from table_app.rules.fold import new_game, replay
    from table_app.rules.turns import ImpossibleEventError

    assert apply(new_game(TENHOU), ProfileChange("mleague")).profile == MLEAGUE
    assert replay([ProfileChange("mleague")], TENHOU).profile == MLEAGUE
    in_hand = play(list(start({0: DEALER_PINFU})))
    with pytest.raises(ImpossibleEventError, match="between hands only"):
        apply(in_hand, ProfileChange("mleague"))
