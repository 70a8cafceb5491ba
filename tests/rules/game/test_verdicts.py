"""Every illegal act the spec names gets a verdict with a reason, and each profile's consequence."""

from __future__ import annotations

from dataclasses import replace

import pytest

from table_app.domain.notation import parse_tile, parse_tiles
from table_app.domain.seat import Seat
from table_app.rules.events import Ankan, Chi, Daiminkan, DrawKind, Reach, Ryukyoku, ShownHand
from table_app.rules.fold import apply
from table_app.rules.legality import judge, judge_claims
from table_app.rules.profiles import JPML, JUN, MLEAGUE, TENHOU, ChomboPenalty
from table_app.rules.verdicts import Consequence, Reason

from .scenario import chi, discard, draw, go_around, play, pon, riichi, ron, start

SHANPON = "234m567p33p678s55s"  # waits on 3p and 5s


def verdict_after(events, event, profile=TENHOU):
    state = play(events, profile)
    return judge(state.hand, event, profile)


def assert_rejected(verdict, reason: Reason, consequence: Consequence):
    assert verdict.reason is reason, verdict
    assert verdict.consequence is consequence, verdict


# --- calls -------------------------------------------------------------------------


def test_chi_only_from_the_left():
    events = [*start({}), *go_around(0, ["3m"])]
    assert verdict_after(events, chi(1, 0, "3m", "45m")).accepted
    assert_rejected(verdict_after(events, chi(2, 0, "3m", "45m")), Reason.CHI_NOT_FROM_LEFT, Consequence.VOID)


def test_no_call_on_ones_own_discard():
    events = [*start({}), *go_around(0, ["3m"])]
    assert_rejected(verdict_after(events, pon(0, 0, "3m")), Reason.CALL_ON_OWN_DISCARD, Consequence.VOID)


def test_a_call_after_the_next_draw_is_void():
    events = [*start({}), *go_around(0, ["3m"]), draw(1)]
    assert_rejected(verdict_after(events, pon(2, 0, "3m")), Reason.CALL_AFTER_NEXT_DRAW, Consequence.VOID)


def test_only_the_last_discard_can_be_called():
    events = [*start({}), *go_around(0, ["3m", "4p"])]
    assert_rejected(verdict_after(events, pon(2, 0, "3m")), Reason.CALL_NOT_LAST_DISCARD, Consequence.VOID)
    assert verdict_after(events, pon(2, 1, "4p")).accepted


def test_no_call_after_riichi():
    events = [*start({}), *riichi(0, "1z"), *go_around(1, ["2z", "3z"])]
    assert_rejected(verdict_after(events, pon(0, 2, "3z")), Reason.CALL_IN_RIICHI, Consequence.VOID)


def test_a_call_needs_the_tiles_in_a_known_hand():
    events = [*start({1: SHANPON}), *go_around(0, ["9m"])]
    false_chi = Chi(Seat.S1, Seat.S0, parse_tile("9m"), parse_tiles("78m"))
    assert_rejected(verdict_after(events, false_chi), Reason.CALL_TILES_NOT_HELD, Consequence.CHOMBO)
    assert_rejected(verdict_after(events, false_chi, JUN), Reason.CALL_TILES_NOT_HELD, Consequence.LOSS_OF_RIGHTS)


def test_priority_ron_over_pon_over_chi():
    events = [*start({1: SHANPON}), *go_around(0, ["5s"])]
    state = play(events)
    claims = (chi(1, 0, "5s", "67s"), pon(2, 0, "5s"), ron(1, 0, "5s"))
    chi_v, pon_v, ron_v = judge_claims(state.hand, claims, TENHOU)
    assert ron_v.accepted
    assert_rejected(pon_v, Reason.CALL_PRIORITY, Consequence.VOID)
    assert_rejected(chi_v, Reason.CALL_PRIORITY, Consequence.VOID)
    chi_v, pon_v = judge_claims(state.hand, claims[:2], TENHOU)
    assert pon_v.accepted
    assert chi_v.reason is Reason.CALL_PRIORITY


def test_head_bump_voids_the_farther_ron():
    events = [*start({1: SHANPON, 2: "345m678p22p234s46s"}), *go_around(0, ["1z", "2z", "3z"]), draw(3)]
    state = play([*events, discard(3, "5s")], MLEAGUE)
    far, near = judge_claims(state.hand, (ron(2, 3, "5s"), ron(1, 3, "5s")), MLEAGUE)
    assert near.accepted
    assert far.reason is Reason.CALL_PRIORITY
    both = judge_claims(play([*events, discard(3, "5s")]).hand, (ron(2, 3, "5s"), ron(1, 3, "5s")), TENHOU)
    assert all(v.accepted for v in both)


@pytest.mark.parametrize(
    ("profile", "swap", "banned"),
    [
        (TENHOU, "3m", True),
        (TENHOU, "6m", True),
        (TENHOU, "9p", False),
        (MLEAGUE, "3m", True),
        (MLEAGUE, "6m", True),
        (MLEAGUE, "9p", False),
        (JPML, "3m", True),
        (JPML, "6m", True),
        (JUN, "3m", False),
        (JUN, "6m", False),
    ],
    ids=lambda v: getattr(v, "name", str(v)),
)
def test_kuikae_per_profile(profile, swap, banned):
    events = [*start({1: "33456m234p678s99p"}, dora="1z"), *go_around(0, ["3m"]), chi(1, 0, "3m", "45m")]
    verdict = verdict_after(events, discard(1, swap), profile)
    if banned:
        assert_rejected(verdict, Reason.KUIKAE, Consequence.CHOMBO)
    else:
        assert verdict.accepted


# --- riichi ------------------------------------------------------------------------


def test_riichi_needs_a_closed_hand():
    events = [*start({}), *go_around(0, ["3m"]), pon(2, 0, "3m"), discard(2, "9p"), *go_around(3, ["1z", "2z", "3z"])]
    events.append(draw(2))
    assert_rejected(verdict_after(events, Reach(Seat.S2)), Reason.RIICHI_OPEN_HAND, Consequence.VOID)
    assert_rejected(verdict_after(events, Reach(Seat.S2), JUN), Reason.RIICHI_OPEN_HAND, Consequence.LOSS_OF_RIGHTS)


def test_riichi_needs_points_and_tiles_in_the_wall():
    poor = [*start({}, scores=(900, 33000, 33000, 33100)), draw(0)]
    assert_rejected(verdict_after(poor, Reach(Seat.S0)), Reason.RIICHI_TOO_FEW_POINTS, Consequence.VOID)
    state = play([*start({}), draw(0)])
    late = replace(state.hand, live_wall=3)
    verdict = judge(late, Reach(Seat.S0), TENHOU)
    assert_rejected(verdict, Reason.RIICHI_TOO_FEW_TILES, Consequence.VOID)
    assert judge(replace(state.hand, live_wall=4), Reach(Seat.S0), TENHOU).accepted


def test_riichi_on_a_hand_that_is_not_tenpai():
    events = [*start({0: "159m159p159s1234z"}), draw(0, "5z"), Reach(Seat.S0)]
    assert_rejected(verdict_after(events, discard(0, "5z")), Reason.RIICHI_NOT_TENPAI, Consequence.CHOMBO)
    assert verdict_after(events, discard(0, "5z"), JUN).accepted


def test_riichi_twice():
    events = [*start({}), *riichi(0, "1z"), *go_around(1, ["2z", "3z", "4z"]), draw(0)]
    assert_rejected(verdict_after(events, Reach(Seat.S0)), Reason.RIICHI_TWICE, Consequence.VOID)


def test_a_riichi_player_must_discard_the_drawn_tile():
    events = [*start({}), *riichi(0, "1z"), *go_around(1, ["2z", "3z", "4z"]), draw(0)]
    assert_rejected(verdict_after(events, discard(0, "5m")), Reason.RIICHI_DISCARD_CHOICE, Consequence.CHOMBO)
    assert verdict_after(events, discard(0, "5m", tsumogiri=True)).accepted


@pytest.mark.parametrize(
    ("kan", "profile", "legal"),
    [("1m", TENHOU, True), ("1m", JPML, False), ("8p", JPML, True), ("8p", MLEAGUE, True)],
)
def test_closed_kan_after_riichi_at_the_profiles_strictness(kan, profile, legal):
    # 111m 22m 333m 888p 66z (spec §2.4): a 1m kan keeps the waits, loses the 123m×3 reading.
    events = [*start({0: "111m22m333m888p66z"}, dora="1z"), *riichi(0, "9s", drawn="9s")]
    events += [*go_around(1, ["1z", "2z", "3z"]), draw(0, kan)]
    verdict = verdict_after(events, Ankan(Seat.S0, (parse_tile(kan),) * 4), profile)
    if legal:
        assert verdict.accepted
    else:
        assert_rejected(verdict, Reason.RIICHI_KAN, Consequence.CHOMBO)
        assert verdict.penalty is ChomboPenalty.FINAL_TALLY


def test_no_kans_in_jun_mahjong():
    events = [*start({}), *go_around(0, ["3m"])]
    kan = Daiminkan(Seat.S2, Seat.S0, parse_tile("3m"), parse_tiles("333m"))
    assert_rejected(verdict_after(events, kan, JUN), Reason.NO_KANS, Consequence.VOID)
    assert verdict_after(events, kan, TENHOU).accepted


# --- wins ------------------------------------------------------------------------


def test_ron_on_a_tile_that_does_not_complete_the_hand_is_false():
    events = [*start({1: SHANPON}), *go_around(0, ["9m"])]
    assert_rejected(verdict_after(events, ron(1, 0, "9m")), Reason.FALSE_WIN, Consequence.CHOMBO)
    assert_rejected(verdict_after(events, ron(1, 0, "9m"), JUN), Reason.FALSE_WIN, Consequence.LOSS_OF_RIGHTS)


def test_ron_on_a_tile_that_was_not_just_played_is_false():
    events = [*start({1: SHANPON}), *go_around(0, ["5s", "1z"])]
    assert_rejected(verdict_after(events, ron(1, 0, "5s")), Reason.FALSE_WIN, Consequence.CHOMBO)


def test_furiten_on_ones_own_discard():
    events = [*start({1: SHANPON}), *go_around(0, ["1z"]), draw(1, "3p"), discard(1, "3p"), *go_around(2, ["2z"])]
    events += [draw(0), discard(0, "5s")]
    assert_rejected(verdict_after(events, ron(1, 0, "5s")), Reason.FURITEN_RON, Consequence.CHOMBO)


def test_a_passed_winning_tile_makes_furiten_until_ones_own_discard():
    passed = [*start({1: SHANPON}), *go_around(0, ["5s"]), draw(1), discard(1, "1z"), *go_around(2, ["2z"])]
    # Seat 1 let 5s pass, then discarded: the temporary furiten is over.
    assert verdict_after([*passed, draw(0), discard(0, "3p")], ron(1, 0, "3p")).accepted
    within = [*start({1: SHANPON}), *go_around(0, ["1z", "2z"]), draw(2), discard(2, "5s"), draw(3), discard(3, "3p")]
    assert_rejected(verdict_after(within, ron(1, 3, "3p")), Reason.FURITEN_RON, Consequence.CHOMBO)


def test_a_riichi_player_who_passes_a_winning_tile_stays_furiten():
    events = [*start({1: SHANPON}), *go_around(0, ["1z"]), *riichi(1, "9m", drawn="9m"), *go_around(2, ["5s", "2z"])]
    events += [draw(1, "4z"), discard(1, "4z", tsumogiri=True), *go_around(2, ["3z", "3p"])]
    assert_rejected(verdict_after(events, ron(1, 3, "3p")), Reason.FURITEN_RON, Consequence.CHOMBO)


# --- draws -----------------------------------------------------------------------


def _wall_end(events, profile=TENHOU):
    state = play(events, profile)
    return replace(state.hand, live_wall=0)


def test_noten_riichi_is_chombo_at_an_exhaustive_draw():
    hand = _wall_end([*start({}), *riichi(0, "1z")])
    noten = Ryukyoku(DrawKind.EXHAUSTIVE, (ShownHand(Seat.S0, parse_tiles("159m159p159s1234z")),))
    tenpai = Ryukyoku(DrawKind.EXHAUSTIVE, (ShownHand(Seat.S0, parse_tiles(SHANPON)),))
    assert_rejected(judge(hand, noten, TENHOU), Reason.NOTEN_RIICHI, Consequence.CHOMBO)
    assert judge(hand, tenpai, TENHOU).accepted
    assert judge(hand, noten, JUN).accepted


def test_exhaustive_draw_needs_an_empty_wall():
    state = play([*start({}), *go_around(0, ["1z"])])
    verdict = judge(state.hand, Ryukyoku(DrawKind.EXHAUSTIVE), TENHOU)
    assert_rejected(verdict, Reason.DRAW_CONDITIONS_UNMET, Consequence.VOID)


def test_abortive_draws_the_profile_does_not_have():
    state = play([*start({}), *go_around(0, ["1z", "1z", "1z", "1z"])], MLEAGUE)
    verdict = judge(state.hand, Ryukyoku(DrawKind.FOUR_WINDS), MLEAGUE)
    assert_rejected(verdict, Reason.DRAW_NOT_IN_PROFILE, Consequence.VOID)
    assert judge(state.hand, Ryukyoku(DrawKind.FOUR_WINDS), JPML).accepted


def test_nine_terminals_is_checked_when_shown_and_void_after_a_call():
    shown = Ryukyoku(DrawKind.NINE_TERMINALS, (ShownHand(Seat.S0, parse_tiles("19m19p19s12345z5m")),), Seat.S0)
    assert judge(play([*start({}), draw(0)]).hand, shown, TENHOU).accepted
    too_few = Ryukyoku(DrawKind.NINE_TERMINALS, (ShownHand(Seat.S0, parse_tiles("19m19p123456789s5m")),), Seat.S0)
    assert_rejected(
        judge(play([*start({}), draw(0)]).hand, too_few, TENHOU), Reason.DRAW_CONDITIONS_UNMET, Consequence.VOID
    )
    called = play(
        [*start({}), *go_around(0, ["1z"]), pon(2, 0, "1z"), discard(2, "2z"), *go_around(3, ["3z"]), draw(1)]
    )
    verdict = judge(called.hand, Ryukyoku(DrawKind.NINE_TERMINALS, (), Seat.S1), TENHOU)
    assert verdict.reason is Reason.DRAW_CONDITIONS_UNMET


def test_logged_acts_fold_after_an_accepted_verdict():
    events = [*start({1: SHANPON}), *go_around(0, ["5s"])]
    state = play(events)
    assert judge(state.hand, ron(1, 0, "5s"), TENHOU).accepted
    assert apply(state, ron(1, 0, "5s")).hand.wins


# --- chombo per profile -------------------------------------------------------------


def _chombo_after_riichi(profile):
    from table_app.rules.events import Chombo, EndKyoku

    scores = (profile.start_points,) * 4
    events = [*start({}, honba=1, kyotaku=1, scores=scores), *go_around(0, ["1z"]), *riichi(1, "2z")]
    events += go_around(2, ["3z", "4z"])
    return play([*events, Chombo(Seat.S3, "false_win"), EndKyoku()], profile)


def test_chombo_mangan_payment_returns_sticks_and_replays_the_hand():
    state = _chombo_after_riichi(MLEAGUE)
    (result,) = state.results
    # Non-dealer offender: 4000 to the dealer, 2000 to each other; seat 1 gets its stick back.
    assert result.deltas == (4000, 2000 + 1000, 2000, -8000)
    assert state.scores == (29000, 27000, 27000, 17000)
    nxt = state.next_hand
    assert (nxt.kyoku, nxt.oya, nxt.honba, nxt.kyotaku, nxt.game_over) == (1, Seat.S0, 1, 1, False)


def test_chombo_in_jpml_costs_points_on_the_final_tally():
    from table_app.rules.events import EndGame

    state = _chombo_after_riichi(JPML)
    assert state.results[0].deltas == (0, 1000, 0, 0)
    assert state.tally_deductions == (0, 0, 0, 20)
    final = apply(state, EndGame())
    # Equal scores: ranks by seat order from the first dealer, uma 15/5/-5/-15, then -20.
    assert final.final_points == (15.0, 5.0, -5.0, -35.0)


def test_chombo_in_jun_takes_rights_and_the_hand_goes_on():
    from table_app.rules.events import Chombo

    events = [*start({3: SHANPON}), *go_around(0, ["1z", "2z"]), Chombo(Seat.S3, "false_win")]
    state = play(events, JUN)
    assert state.hand.result is None
    player = state.hand.player(Seat.S3)
    assert player.lost_call_rights
    assert player.lost_win_right
    assert_rejected(judge(state.hand, pon(3, 1, "2z"), JUN), Reason.RIGHTS_LOST, Consequence.VOID)
    later = play([*events, draw(2), discard(2, "5s")], JUN)
    assert_rejected(judge(later.hand, ron(3, 2, "5s"), JUN), Reason.RIGHTS_LOST, Consequence.VOID)


# --- what only the hand laid open shows ----------------------------------------------


def test_a_tsumo_on_a_hand_it_does_not_complete_is_false():
    events = [*start({1: SHANPON}), *go_around(0, ["1z"]), draw(1, "9m")]
    from table_app.rules.events import Hora

    verdict = verdict_after(events, Hora(Seat.S1, Seat.S1, parse_tile("9m")))
    assert_rejected(verdict, Reason.FALSE_WIN, Consequence.CHOMBO)


def test_a_win_without_yaku_is_false_except_in_jun():
    # 234m 567p 678s 33p 55s after a pon of 9m: open, no tanyao, no yaku on 5s.
    events = [*start({1: "234m567p99m33p55s6s"}, dora="1z"), *go_around(0, ["9m"]), pon(1, 0, "9m"), discard(1, "6s")]
    events += [*go_around(2, ["1z", "2z"]), draw(0), discard(0, "5s")]
    assert_rejected(verdict_after(events, ron(1, 0, "5s")), Reason.FALSE_WIN, Consequence.CHOMBO)
    assert verdict_after(events, ron(1, 0, "5s"), JUN).accepted  # 純麻雀: 0 han still wins (600)


def test_an_illegal_closed_kan_after_riichi_is_found_when_the_hand_is_shown():
    from table_app.domain.tile import UNKNOWN
    from table_app.rules.events import Hora

    # The referee never saw the hand: 111m 22m 333m 888p 66z, riichi, kan of the fourth 1m.
    events = [*start({}, dora="1z"), *riichi(0, "9s"), *go_around(1, ["1z", "2z", "3z"])]
    events += [draw(0, "1m"), Ankan(Seat.S0, (parse_tile("1m"),) * 4), draw(0), discard(0, "7z", tsumogiri=True)]
    events += [draw(1), discard(1, "6z")]
    shown = Hora(Seat.S0, Seat.S1, parse_tile("6z"), hand=parse_tiles("22m333m888p66z"))
    assert UNKNOWN in play(events).hand.player(Seat.S0).concealed
    assert verdict_after(events, shown, TENHOU).accepted  # waits unchanged: legal on Tenhou
    verdict = verdict_after(events, shown, JPML)
    assert_rejected(verdict, Reason.RIICHI_KAN, Consequence.CHOMBO)


def _hidden_ron(events, winner, target, tile, hand):
    from table_app.rules.events import Hora

    return verdict_after(events, Hora(Seat(winner), Seat(target), parse_tile(tile), hand=parse_tiles(hand)))


def test_furiten_from_a_passed_tile_is_found_when_a_hidden_hand_is_shown():
    # Seat 1's hand was never seen: it lets 5s pass, then rons 3p before discarding again.
    within = [*start({}), *go_around(0, ["1z", "2z"]), draw(2), discard(2, "5s"), draw(3), discard(3, "3p")]
    assert_rejected(_hidden_ron(within, 1, 3, "3p", SHANPON), Reason.FURITEN_RON, Consequence.CHOMBO)
    # Passed before its own last discard: that furiten is over.
    earlier = [*start({}), *go_around(0, ["5s", "1z", "2z", "3z"]), draw(0), discard(0, "3p")]
    assert _hidden_ron(earlier, 1, 0, "3p", SHANPON).accepted


def test_a_hidden_riichi_hand_that_let_a_winning_tile_pass_is_furiten_when_shown():
    events = [*start({}), *go_around(0, ["1z"]), *riichi(1, "9m"), *go_around(2, ["5s", "2z", "3z"])]
    events += [draw(1), discard(1, "4z", tsumogiri=True), *go_around(2, ["6z", "3p"])]
    assert_rejected(_hidden_ron(events, 1, 3, "3p", SHANPON), Reason.FURITEN_RON, Consequence.CHOMBO)


def test_kokushi_is_furiten_after_any_terminal_discard_in_jun():
    events = [*start({1: "19m19p19s1234566z"}), *go_around(0, ["1z"]), draw(1, "9m"), discard(1, "9m")]
    events += [*go_around(2, ["2z", "3z"]), draw(0), discard(0, "7z")]
    # Seat 1 discarded a 9m (not its wait, 7z): furiten only under 純麻雀's kokushi rule.
    assert verdict_after(events, ron(1, 0, "7z"), TENHOU).accepted
    verdict = verdict_after(events, ron(1, 0, "7z"), JUN)
    assert_rejected(verdict, Reason.FURITEN_RON, Consequence.LOSS_OF_RIGHTS)


def test_only_thirteen_orphans_may_rob_a_closed_kan():
    events = [*start({1: "9m19p19s12345677z", 2: SHANPON}, dora="1z"), draw(0, "1m")]  # kokushi on 1m
    events.append(Ankan(Seat.S0, (parse_tile("1m"),) * 4))
    assert verdict_after(events, ron(1, 0, "1m"), TENHOU).accepted
    assert_rejected(verdict_after(events, ron(1, 0, "1m"), JPML), Reason.FALSE_WIN, Consequence.CHOMBO)
    state = play([*events, ron(1, 0, "1m")])
    assert state.hand.wins[0].deltas == (-32000, 32000, 0, 0)
    assert_rejected(verdict_after([*events, draw(0)], ron(1, 0, "1m"), TENHOU), Reason.FALSE_WIN, Consequence.CHOMBO)
