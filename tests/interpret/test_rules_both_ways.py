"""Rules of shared/spec/rules.md that the camera can see, each in a game that keeps it and one
that breaks it, per profile where the profiles differ: the live referee (fed as a camera and
board would show the game) refuses exactly the acts replay refuses, for the same reason."""

from __future__ import annotations

import pytest

from table_app.announce import AnnouncementKind
from table_app.domain.notation import parse_tiles
from table_app.domain.seat import Seat
from table_app.interpret import TableSetup, new_session
from table_app.interpret.event_observations import FeedOptions, log_observations
from table_app.rules.check import check_game
from table_app.rules.events import DrawKind, EndKyoku, GameEvent, Reach, Ryukyoku, ShownHand
from table_app.rules.profiles import JPML, JUN, MLEAGUE, TENHOU, RuleProfile
from table_app.rules.record import GameLog
from tests.interpret.helpers import Table
from tests.rules.game.scenario import chi, discard, draw, go_around, pon, riichi, ron, start

SHANPON = "234m567p33p678s55s"
KANCHAN = "345m678p22p234s46s"


def _refusals(events: list[GameEvent], profile: RuleProfile) -> tuple[list, list]:
    """(replay's refused acts, the live referee's), each as (seat, reason)."""
    checked = check_game(GameLog("made.jsonl", 4, tuple(events), (), None, complete=False), profile)
    replayed = [(a.verdict.seat, a.verdict.reason.value) for a in checked.verdicts if not a.verdict.accepted]
    table = Table(new_session(TableSetup(profile, settle_s=1.0)))
    table.see(*log_observations(tuple(events), profile, FeedOptions(trays=True)))
    live = [(a.seat, a.text_param("reason")) for a in table.said if a.kind is AnnouncementKind.ILLEGAL_ACT]
    return replayed, live


def _opening(profile: RuleProfile, hands: dict[int, str] | None = None, scores=None) -> list[GameEvent]:
    return start(hands or {}, scores=scores or (profile.start_points,) * 4)


# (name, events, {profile: expected refusal or None})
def _riichi_open_hand(profile):
    return [
        *_opening(profile),
        *go_around(0, ["3m"]),
        pon(2, 0, "3m"),
        discard(2, "9p"),
        draw(3),
        discard(3, "1z"),
        draw(0),
        discard(0, "2z"),
        draw(1),
        discard(1, "3z"),
        draw(2),
        Reach(Seat.S2),
        discard(2, "4z"),
    ]


def _riichi_closed_hand(profile):
    return [*_opening(profile), *go_around(0, ["3m", "1z", "4p"]), *riichi(3, "2z")]


MIDDLES = ["2m", "3m", "4m", "6m", "7m", "8m", "2p", "3p", "4p", "6p", "7p", "8p"]


def _riichi_with_tiles_left(left: int):
    def build(profile):
        drawn = 70 - left - 1  # the riichi player's own draw is the last
        tiles = [MIDDLES[i % len(MIDDLES)] for i in range(drawn)]
        return [*_opening(profile), *go_around(0, tiles), *riichi(drawn % 4, "2z")]

    return build


def _call_after_riichi(profile):
    return [*_opening(profile), *riichi(0, "1z"), *go_around(1, ["2z", "3z"]), pon(0, 2, "3z")]


def _call_before_riichi(profile):
    return [*_opening(profile), *go_around(0, ["1z", "2z", "3z"]), pon(0, 2, "3z")]


def _chi_from_across(profile):
    return [*_opening(profile), *go_around(0, ["3m"]), chi(2, 0, "3m", "45m")]


def _chi_from_left(profile):
    return [*_opening(profile), *go_around(0, ["3m"]), chi(1, 0, "3m", "45m")]


def _kuikae(profile):
    return [*_chi_from_left(profile), discard(1, "6m")]


def _no_kuikae(profile):
    return [*_chi_from_left(profile), discard(1, "9p")]


def _far_ron_after_near(profile):
    hands = {1: KANCHAN, 3: SHANPON}
    return [*_opening(profile, hands), *go_around(0, ["5s"]), ron(1, 0, "5s"), ron(3, 0, "5s")]


def _riichi_hand_shown_at_the_draw(tiles: str):
    def build(profile):
        rest: list[GameEvent] = []
        for turn in range(1, profile.live_wall_at_start):  # the riichi player discards each tile drawn
            seat = turn % 4
            rest += [draw(seat), discard(seat, MIDDLES[turn % len(MIDDLES)], tsumogiri=seat == 0)]
        shown = (ShownHand(Seat.S0, parse_tiles(tiles)),)
        draw_ends = [Ryukyoku(DrawKind.EXHAUSTIVE, shown), EndKyoku()]  # the referee's CONFIRM
        return [*_opening(profile), *riichi(0, "1z"), *rest, *draw_ends]

    return build


CASES = {
    "a noten riichi shown at the exhaustive draw (§2.5, §4)": (
        _riichi_hand_shown_at_the_draw("159m159p159s1234z"),
        (Seat.S0, "noten_riichi"),
        {JUN: None},
    ),
    "a tenpai riichi shown at the exhaustive draw (§4)": (_riichi_hand_shown_at_the_draw(SHANPON), None, {}),
    "riichi with an open hand (§1.2)": (_riichi_open_hand, (Seat.S2, "riichi_open_hand"), {}),
    "riichi with a closed hand (§1.2)": (_riichi_closed_hand, None, {}),
    "riichi with 3 tiles left (§1.4)": (_riichi_with_tiles_left(3), (Seat.S2, "riichi_too_few_tiles"), {JUN: None}),
    "riichi with 4 tiles left (§1.4)": (_riichi_with_tiles_left(4), None, {}),
    "no call after riichi (§2.3)": (_call_after_riichi, (Seat.S0, "call_in_riichi"), {}),
    "a call before riichi (§2.3)": (_call_before_riichi, None, {}),
    "chi only from the left (§6)": (_chi_from_across, (Seat.S2, "chi_not_from_left"), {}),
    "chi from the left (§6)": (_chi_from_left, None, {}),
    "kuikae (§6)": (_kuikae, (Seat.S1, "kuikae"), {JUN: None}),
    "no kuikae (§6)": (_no_kuikae, None, {}),
    "a farther ron after a nearer one (§3, §6)": (
        _far_ron_after_near,
        None,
        {JPML: (Seat.S3, "call_priority"), MLEAGUE: (Seat.S3, "call_priority"), JUN: (Seat.S3, "call_priority")},
    ),
}


@pytest.mark.parametrize("profile", [TENHOU, MLEAGUE, JPML, JUN], ids=lambda p: p.name)
@pytest.mark.parametrize("name", sorted(CASES))
def test_live_refuses_what_replay_refuses(name, profile):
    build, refused, per_profile = CASES[name]
    expected = per_profile.get(profile, refused)
    replayed, live = _refusals(build(profile), profile)
    assert replayed == ([] if expected is None else [expected])
    assert live == replayed
