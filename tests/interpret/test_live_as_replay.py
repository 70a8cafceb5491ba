"""The live referee announces exactly the endings and payments that replay decides, once each,
in seat order from the discarder: the same games fed to the referee core as a camera and board
would show them (``jantaku run``'s ``[feed]``) and replayed through the rules core."""

from __future__ import annotations

import pytest

from table_app.announce import AnnouncementKind, Language, render
from table_app.announce.endings import hand_ending
from table_app.domain.notation import parse_tiles
from table_app.domain.seat import Seat
from table_app.interpret import TableSetup, new_session
from table_app.interpret.event_observations import FeedOptions, log_observations
from table_app.rules.events import Chombo, DrawKind, EndKyoku, GameEvent, Ryukyoku, ShownHand
from table_app.rules.fold import replay
from table_app.rules.profiles import JPML, JUN, MLEAGUE, TENHOU, RuleProfile
from tests.interpret.helpers import Table
from tests.rules.game.scenario import go_around, riichi, ron, start

ENDINGS = frozenset(
    {
        AnnouncementKind.WIN,
        AnnouncementKind.EXHAUSTIVE_DRAW,
        AnnouncementKind.ABORTIVE_DRAW,
        AnnouncementKind.NAGASHI_MANGAN,
        AnnouncementKind.CHOMBO,
    }
)
SHANPON = "234m567p33p678s55s"  # waits on 3p and 5s (tanyao)
KANCHAN = "345m678p22p234s46s"  # waits on 5s (tanyao)
MIDDLES = ["2m", "3m", "4m", "6m", "7m", "8m", "2p", "3p", "4p", "6p", "7p", "8p", "2s", "3s", "4s", "6s"]
TERMINALS = ["1m", "9m", "1p", "9p", "1s", "9s", "5z", "6z", "7z"]


def _live(events: list[GameEvent], profile: RuleProfile) -> Table:
    table = Table(new_session(TableSetup(profile, settle_s=1.0)))
    table.see(*log_observations(tuple(events), profile, FeedOptions(trays=True)))
    return table


def _said(table: Table) -> list:
    return [a for a in table.said if a.kind in ENDINGS]


def _replayed(events: list[GameEvent], profile: RuleProfile) -> list:
    return [a for result in replay(events, profile).results for a in hand_ending(result, profile)]


def _same(events: list[GameEvent], profile: RuleProfile) -> list:
    """Fed live and replayed: the same results, the same ending announcements; no alarm."""
    table = _live(events, profile)
    assert table.session.game.results == replay(events, profile).results
    said = _said(table)
    assert said == _replayed(events, profile)
    assert AnnouncementKind.ILLEGAL_ACT not in table.kinds()
    assert AnnouncementKind.QUESTION not in table.kinds()
    return said


def _start(hands: dict[int, str], profile: RuleProfile) -> list[GameEvent]:
    return start(hands, scores=(profile.start_points,) * 4)


def test_a_double_ron_whose_far_seat_called_first_announces_each_winner_once_nearest_first():
    events = [*_start({1: KANCHAN, 3: SHANPON}, TENHOU), *go_around(0, ["5s"]), ron(3, 0, "5s"), ron(1, 0, "5s")]
    said = _same([*events, EndKyoku()], TENHOU)
    assert [(a.kind, a.seat) for a in said] == [(AnnouncementKind.WIN, Seat.S1), (AnnouncementKind.WIN, Seat.S3)]
    calls = [(a.seat, a.text_param("call")) for a in _live([*events, EndKyoku()], TENHOU).said if a.kind == "call"]
    assert calls == [(Seat.S3, "ron"), (Seat.S1, "ron")]  # the calls as made; the wins once the hand ended


@pytest.mark.parametrize("profile", [JPML, MLEAGUE], ids=lambda p: p.name)
def test_a_head_bump_announces_only_the_nearer_win(profile):
    events = [*_start({1: KANCHAN, 3: SHANPON}, profile), *go_around(0, ["5s"]), ron(3, 0, "5s"), ron(1, 0, "5s")]
    said = _same([*events, EndKyoku()], profile)
    assert [(a.kind, a.seat) for a in said] == [(AnnouncementKind.WIN, Seat.S1)]
    assert said[0].ints_param("deltas") == replay([*events, EndKyoku()], profile).results[0].deltas


def test_a_tenhou_triple_ron_announces_the_abort_and_no_win():
    hands = {1: KANCHAN, 2: SHANPON, 3: SHANPON}
    events = [*_start(hands, TENHOU), *go_around(0, ["5s"]), Ryukyoku(DrawKind.TRIPLE_RON), EndKyoku()]
    said = _same(events, TENHOU)
    assert [(a.kind, a.text_param("draw")) for a in said] == [(AnnouncementKind.ABORTIVE_DRAW, "triple_ron")]


def test_nagashi_mangan_is_announced_with_its_payments():
    tiles = [TERMINALS[i // 4 % len(TERMINALS)] if i % 4 == 0 else MIDDLES[i % len(MIDDLES)] for i in range(70)]
    events = [*_start({}, TENHOU), *go_around(0, tiles), Ryukyoku(DrawKind.NAGASHI_MANGAN), EndKyoku()]
    (said,) = _same(events, TENHOU)
    assert said.kind is AnnouncementKind.NAGASHI_MANGAN
    assert said.ints_param("seats") == (0,)
    assert said.ints_param("deltas") == (12000, -4000, -4000, -4000)
    # Said after the hand ended: seats by that hand's winds (seat 0 dealt it).
    naming = replay(events, TENHOU).seat_naming()
    assert "Payments: East +12000, South -4000" in render(said, Language.EN, naming)
    assert "Payments: Seat 1 +12000" in render(said, Language.EN)  # with no hand to name winds by


def test_four_winds_that_the_rule_set_lacks_is_not_announced_and_play_goes_on():
    tiles = ["1z", "1z", "1z", "1z", *[MIDDLES[i % len(MIDDLES)] for i in range(66)]]
    events = [*_start({}, MLEAGUE), *go_around(0, tiles), Ryukyoku(DrawKind.EXHAUSTIVE), EndKyoku()]
    said = _same(events, MLEAGUE)
    assert [a.kind for a in said] == [AnnouncementKind.EXHAUSTIVE_DRAW]
    tenhou = _live([*_start({}, TENHOU), *go_around(0, tiles[:4])], TENHOU)
    assert [a.text_param("draw") for a in _said(tenhou)] == ["four_winds"]  # where the rule set has it


def test_a_jun_zero_han_win_is_announced_with_what_the_fixed_table_pays():
    events = [*_start({1: "111m456p678s33s55p"}, JUN), *go_around(0, ["5p"]), ron(1, 0, "5p"), EndKyoku()]
    (said,) = _same(events, JUN)
    assert said.ints_param("deltas") == (-600, 600, 0, 0)
    naming = replay(events, JUN).seat_naming()
    text = render(said, Language.EN, naming)
    assert text == "South wins by ron on East: no yaku; 0 han, 600 points (East -600, South +600)"
    assert "fu" not in text
    assert "役なし　0翻 600点" in render(said, Language.JA, naming)


def _four_riichi(shown_hands: dict[int, str]) -> list[GameEvent]:
    events = list(_start({}, TENHOU))
    for seat, tile in enumerate(["1z", "2z", "3z", "4z"]):
        events += riichi(seat, tile)
    shown = tuple(ShownHand(Seat(s), parse_tiles(h)) for s, h in sorted(shown_hands.items()))
    return [*events, Ryukyoku(DrawKind.FOUR_RIICHI, shown)]


def test_four_riichi_with_every_hand_tenpai_is_the_abortive_draw():
    said = _same([*_four_riichi(dict.fromkeys(range(4), SHANPON)), EndKyoku()], TENHOU)
    assert [(a.kind, a.text_param("draw")) for a in said] == [(AnnouncementKind.ABORTIVE_DRAW, "four_riichi")]


def test_a_noten_riichi_shown_at_four_riichi_is_announced_and_put_to_the_referee():
    hands = {**dict.fromkeys(range(4), SHANPON), 2: "159m159p159s1234z"}
    events = [*_four_riichi(hands), Chombo(Seat.S2, "noten_riichi"), EndKyoku()]
    table = _live(events, TENHOU)
    illegal = [a for a in table.said if a.kind is AnnouncementKind.ILLEGAL_ACT]
    assert [(a.seat, a.text_param("reason"), a.text_param("consequence")) for a in illegal] == [
        (Seat.S2, "noten_riichi", "chombo")
    ]
    assert AnnouncementKind.QUESTION in table.kinds()  # the penalty is the referee's to confirm
    table_played = [e for e in events if not isinstance(e, Ryukyoku)]  # a refused draw is not folded
    assert table.session.game.results == replay(table_played, TENHOU).results
    assert _said(table) == _replayed(table_played, TENHOU)
    (chombo,) = _said(table)
    assert chombo.kind is AnnouncementKind.CHOMBO
    assert chombo.seat == Seat.S2
    assert chombo.ints_param("deltas") == (5000, 3000, -7000, 3000)  # a mangan, and the riichi sticks back
