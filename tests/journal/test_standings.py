"""Standings: uma, oka, ties and chombo deductions per preset, against Tenhou's own tallies."""

from __future__ import annotations

import pytest

from table_app.domain.seat import Seat
from table_app.logs import read_log
from table_app.rules.check import profile_for_log
from table_app.rules.fold import replay
from table_app.rules.profiles import JPML, TENHOU
from table_app.rules.standings import game_standing, standings_rule_named, standings_rule_of


def _points(scores, preset, **options):
    by_seat = {s.seat: s.points for s in game_standing(scores, standings_rule_named(preset), **options)}
    return tuple(by_seat[seat] for seat in Seat)


def test_tenhou_preset_gives_tenhous_own_tallies(logs_dir):
    checked = 0
    for path in sorted((logs_dir / "mjx_full").glob("*.mjlog")):
        (game,) = read_log(path)
        if game.final is None or game.final.points is None:
            continue  # a game cut short: no tally
        state = replay(game.events, profile_for_log(TENHOU, game.rules))
        standing = game_standing(state.scores, standings_rule_of(state.profile), first_dealer=state.first_dealer)
        by_seat = {s.seat: s.points for s in standing}
        assert tuple(by_seat[seat] for seat in Seat) == game.final.points, path.name  # owari
        checked += 1
    assert checked >= 20


def test_mleague_pays_the_oka_to_the_top():
    # 25000 start, 30000 return: the top takes 4 × 5 = 20 oka and the 30 uma.
    assert _points((45000, 25000, 20000, 10000), "mleague") == (65.0, 5.0, -20.0, -50.0)


@pytest.mark.parametrize("preset", ["wrc", "ema", "jpml"])
def test_tied_players_share_the_uma_of_the_places_they_hold(preset):
    points = _points((40000, 30000, 30000, 20000), preset)
    assert points == (25.0, 0.0, 0.0, -25.0)  # 10 + 15; 0 + (5 - 5) / 2 each; -10 - 15
    standing = game_standing((40000, 30000, 30000, 20000), standings_rule_named(preset))
    assert [s.rank for s in standing] == [1, 2, 2, 4]


def test_tenhou_breaks_ties_by_seat_from_the_first_dealer():
    points = _points((30000, 30000, 20000, 20000), "tenhou", first_dealer=Seat.S1)
    assert points == (10.0, 40.0, -20.0, -30.0)  # seat 1 dealt first: it ranks above seat 0


def test_a_chombo_is_deducted_once():
    scores = (40000, 30000, 30000, 20000)
    charged = _points(scores, "wrc", chombos=(0, 0, 0, 1))
    assert charged == (25.0, 0.0, 0.0, -45.0)
    # Already paid at the table (a mangan payment): not charged again on the tally.
    assert _points(scores, "wrc", chombos=(0, 0, 0, 1), chombos_paid=True) == (25.0, 0.0, 0.0, -25.0)


def test_a_profile_plays_to_its_own_tally():
    rule = standings_rule_of(JPML)
    assert (rule.start_points, rule.return_points, rule.uma, rule.chombo_points) == (30000, 30000, (15, 5, -5, -15), 20)
    assert standings_rule_of(TENHOU).whole_thousands


def test_an_unknown_preset_is_named():
    with pytest.raises(ValueError, match="unknown standings preset 'x' \\(one of tenhou, mleague, jpml, wrc, ema\\)"):
        standings_rule_named("x")
