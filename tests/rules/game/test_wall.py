"""Each profile's wall: its size and dead wall come from the profile. 純麻雀 has no dead wall
(001 第6条: 17 stacks a side, 第11–12条: the deal, then every draw from the wall in turn), so the
hand runs until all 84 tiles after the deal are drawn; an exhaustive draw claimed with tiles
still in the live wall is refused."""

from __future__ import annotations

import pytest

from table_app.rules.events import DrawKind, EndKyoku, Ryukyoku
from table_app.rules.fold import apply
from table_app.rules.legality import judge
from table_app.rules.profiles import JPML, JUN, MLEAGUE, PROFILES, TENHOU
from table_app.rules.record import HandEnding
from table_app.rules.verdicts import Reason

from .scenario import go_around, play, start

MIDDLES = ["2m", "3m", "4m", "5m", "6m", "7m", "8m", "2p", "3p", "4p", "5p", "6p", "7p", "8p"]


def _after_draws(count: int, profile):
    tiles = [MIDDLES[i % len(MIDDLES)] for i in range(count)]
    return play([*start({}, scores=(profile.start_points,) * 4), *go_around(0, tiles)], profile)


@pytest.mark.parametrize(
    ("profile", "tiles", "dead", "live"),
    [(TENHOU, 136, 14, 70), (MLEAGUE, 136, 14, 70), (JPML, 136, 14, 70), (JUN, 136, 0, 84)],
    ids=lambda v: getattr(v, "name", str(v)),
)
def test_the_wall_comes_from_the_profile(profile, tiles, dead, live):
    assert (profile.wall_tiles, profile.dead_wall, profile.live_wall_at_start) == (tiles, dead, live)
    assert play(start({}, scores=(profile.start_points,) * 4), profile).hand.live_wall == live


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_an_exhaustive_draw_needs_the_live_wall_drawn_to_the_end(profile):
    live = profile.live_wall_at_start
    early = _after_draws(live - 1, profile)
    verdict = judge(early.hand, Ryukyoku(DrawKind.EXHAUSTIVE), profile)
    assert verdict.reason is Reason.DRAW_CONDITIONS_UNMET, verdict
    assert "1 tiles are left" in verdict.message
    ended = _after_draws(live, profile)
    assert judge(ended.hand, Ryukyoku(DrawKind.EXHAUSTIVE), profile).accepted
    state = apply(apply(ended, Ryukyoku(DrawKind.EXHAUSTIVE)), EndKyoku())
    assert state.results[-1].ending is HandEnding.EXHAUSTIVE


def test_jun_refuses_the_draw_with_fourteen_tiles_still_standing():
    state = _after_draws(70, JUN)
    assert state.hand.live_wall == 14
    verdict = judge(state.hand, Ryukyoku(DrawKind.EXHAUSTIVE), JUN)
    assert verdict.reason is Reason.DRAW_CONDITIONS_UNMET
    assert "14 tiles are left" in verdict.message
