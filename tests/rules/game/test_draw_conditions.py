"""Every abortive draw and every second win is checked against its conditions, per profile,
before it is accepted: a claim whose conditions are unmet is refused with a reason code."""

from __future__ import annotations

import pytest

from table_app.domain.notation import parse_tiles
from table_app.domain.seat import Seat
from table_app.rules.events import DrawKind, Ryukyoku, ShownHand
from table_app.rules.fold import apply
from table_app.rules.legality import judge
from table_app.rules.profiles import JPML, JUN, MLEAGUE, TENHOU
from table_app.rules.verdicts import Consequence, Reason

from .scenario import ankan, draw, go_around, play, riichi, ron, start, tsumo_win

SHANPON = "234m567p33p678s55s"  # waits on 3p and 5s
KANCHAN = "345m678p22p234s46s"  # waits on 5s
TANKI = "123m456m789m123p4p"  # waits on 4p


def _refused(verdict, reason: Reason, consequence: Consequence = Consequence.VOID) -> None:
    assert not verdict.accepted, verdict
    assert verdict.reason is reason, verdict
    assert verdict.consequence is consequence, verdict


# --- four winds ---------------------------------------------------------------------


@pytest.mark.parametrize("profile", [TENHOU, JPML], ids=lambda p: p.name)
def test_four_winds_needs_the_same_wind_four_times(profile):
    same = play([*start({}), *go_around(0, ["2z", "2z", "2z", "2z"])], profile)
    assert judge(same.hand, Ryukyoku(DrawKind.FOUR_WINDS), profile).accepted
    for firsts in (["1z", "1z", "1z", "2z"], ["5z", "5z", "5z", "5z"], ["1m", "1m", "1m", "1m"]):
        state = play([*start({}), *go_around(0, firsts)], profile)
        _refused(judge(state.hand, Ryukyoku(DrawKind.FOUR_WINDS), profile), Reason.DRAW_CONDITIONS_UNMET)


def test_four_winds_is_void_after_a_call_or_before_the_fourth_discard():
    closed_kan = [*start({}), draw(0), ankan(0, "9p"), draw(0), *go_around(0, ["1z", "1z", "1z", "1z"])[1:]]
    state = play(closed_kan)
    _refused(judge(state.hand, Ryukyoku(DrawKind.FOUR_WINDS), TENHOU), Reason.DRAW_CONDITIONS_UNMET)
    three = play([*start({}), *go_around(0, ["1z", "1z", "1z"])])
    _refused(judge(three.hand, Ryukyoku(DrawKind.FOUR_WINDS), TENHOU), Reason.DRAW_CONDITIONS_UNMET)
    five = play([*start({}), *go_around(0, ["1z", "1z", "1z", "1z", "1z"])])
    _refused(judge(five.hand, Ryukyoku(DrawKind.FOUR_WINDS), TENHOU), Reason.DRAW_CONDITIONS_UNMET)


@pytest.mark.parametrize("profile", [MLEAGUE, JUN], ids=lambda p: p.name)
def test_four_winds_where_the_profile_has_none(profile):
    state = play([*start({}), *go_around(0, ["1z", "1z", "1z", "1z"])], profile)
    _refused(judge(state.hand, Ryukyoku(DrawKind.FOUR_WINDS), profile), Reason.DRAW_NOT_IN_PROFILE)


# --- four kans, four riichi ------------------------------------------------------------


def test_four_kans_needs_four_kans_by_two_players():
    three = [*start({}), draw(0), ankan(0, "1m"), draw(0), *go_around(0, ["9p"])[1:]]
    three += [draw(1), ankan(1, "2m"), draw(1), *go_around(1, ["9p"])[1:]]
    three += [draw(2), ankan(2, "3m"), draw(2), *go_around(2, ["9p"])[1:]]
    state = play(three)
    _refused(judge(state.hand, Ryukyoku(DrawKind.FOUR_KANS), TENHOU), Reason.DRAW_CONDITIONS_UNMET)
    four = [*three, draw(3), ankan(3, "4m"), draw(3), *go_around(3, ["9p"])[1:]]
    assert judge(play(four).hand, Ryukyoku(DrawKind.FOUR_KANS), TENHOU).accepted


def test_four_riichi_needs_four_riichi():
    three = [*start({})]
    for seat, tile in enumerate(["1z", "2z", "3z"]):
        three += riichi(seat, tile)
    state = play(three)
    _refused(judge(state.hand, Ryukyoku(DrawKind.FOUR_RIICHI), TENHOU), Reason.DRAW_CONDITIONS_UNMET)
    four = play([*three, *riichi(3, "4z")])
    assert judge(four.hand, Ryukyoku(DrawKind.FOUR_RIICHI), TENHOU).accepted


def _four_riichi(profile):
    events = [*start({}, scores=(profile.start_points,) * 4)]
    for seat, tile in enumerate(["1z", "2z", "3z", "4z"]):
        events += riichi(seat, tile)
    return play(events, profile)


@pytest.mark.parametrize("profile", [TENHOU, JPML], ids=lambda p: p.name)
def test_a_noten_riichi_shown_at_the_four_riichi_abort_is_chombo(profile):
    state = _four_riichi(profile)
    tenpai = tuple(ShownHand(Seat(s), parse_tiles(SHANPON)) for s in range(4))
    noten = (*tenpai[:2], ShownHand(Seat.S2, parse_tiles("159m159p159s1234z")), tenpai[3])
    assert judge(state.hand, Ryukyoku(DrawKind.FOUR_RIICHI, tenpai), profile).accepted
    verdict = judge(state.hand, Ryukyoku(DrawKind.FOUR_RIICHI, noten), profile)
    _refused(verdict, Reason.NOTEN_RIICHI, Consequence.CHOMBO)
    assert verdict.seat == Seat.S2
    assert verdict.penalty is profile.chombo


# --- triple ron -------------------------------------------------------------------------


def _triple(profile, hands):
    return play([*start(hands, scores=(profile.start_points,) * 4), *go_around(0, ["5s"])], profile)


def test_triple_ron_needs_three_hands_that_win_on_the_tile():
    hands = {1: SHANPON, 2: KANCHAN, 3: SHANPON}
    state = _triple(TENHOU, hands)
    shown = tuple(ShownHand(Seat(s), parse_tiles(hands[s])) for s in (1, 2, 3))
    assert judge(state.hand, Ryukyoku(DrawKind.TRIPLE_RON, shown), TENHOU).accepted
    wrong = (*shown[:2], ShownHand(Seat.S3, parse_tiles(TANKI)))
    refused = judge(state.hand, Ryukyoku(DrawKind.TRIPLE_RON, wrong), TENHOU)
    _refused(refused, Reason.DRAW_CONDITIONS_UNMET)
    # The seat is mentioned, and named by the convention where the verdict is shown (seat 0 deals).
    assert state.seat_naming().fill_en(refused.message) == "the hand of North does not win on 5s"
    two = shown[:2]
    _refused(judge(state.hand, Ryukyoku(DrawKind.TRIPLE_RON, two), TENHOU), Reason.DRAW_CONDITIONS_UNMET)
    for profile in (MLEAGUE, JPML, JUN):
        refused = judge(_triple(profile, hands).hand, Ryukyoku(DrawKind.TRIPLE_RON, shown), profile)
        _refused(refused, Reason.DRAW_NOT_IN_PROFILE)


def test_a_triple_ron_on_no_discard_is_refused():
    state = play([*start({}), draw(0)])
    _refused(judge(state.hand, Ryukyoku(DrawKind.TRIPLE_RON), TENHOU), Reason.DRAW_CONDITIONS_UNMET)


# --- wins after wins, draws after wins ---------------------------------------------------


def test_double_ron_is_checked_against_its_conditions():
    state = _triple(TENHOU, {1: SHANPON, 3: SHANPON})
    once = apply(state, ron(3, 0, "5s"))
    assert judge(once.hand, ron(1, 0, "5s"), TENHOU).accepted
    _refused(judge(once.hand, ron(3, 0, "5s"), TENHOU), Reason.HAND_ENDED)
    _refused(judge(once.hand, tsumo_win(1, "5s"), TENHOU), Reason.HAND_ENDED)
    _refused(judge(once.hand, Ryukyoku(DrawKind.EXHAUSTIVE), TENHOU), Reason.HAND_ENDED)


def test_head_bump_refuses_a_farther_ron_after_a_nearer_one_and_takes_a_nearer_one():
    state = _triple(MLEAGUE, {1: SHANPON, 3: SHANPON})
    near_first = apply(state, ron(1, 0, "5s"))
    _refused(judge(near_first.hand, ron(3, 0, "5s"), MLEAGUE), Reason.CALL_PRIORITY)
    far_first = apply(state, ron(3, 0, "5s"))
    assert judge(far_first.hand, ron(1, 0, "5s"), MLEAGUE).accepted
    assert [w.winner for w in apply(far_first, ron(1, 0, "5s")).hand.wins] == [Seat.S1]


def test_no_win_after_a_draw():
    ended = apply(_four_riichi(TENHOU), Ryukyoku(DrawKind.FOUR_RIICHI))
    _refused(judge(ended.hand, ron(0, 3, "4z"), TENHOU), Reason.HAND_ENDED)
