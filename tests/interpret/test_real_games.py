"""Real games, replayed as what a camera and the sensor board would have seen, come out the
same through the referee core as the logs' own events do through the rules core."""

from __future__ import annotations

from dataclasses import replace

from table_app.announce import AnnouncementKind
from table_app.interpret import RefereeSession, TableSetup
from table_app.interpret.event_observations import FeedOptions, log_observations
from table_app.interpret.session import SETTLE_S
from table_app.logs import read_log
from table_app.observations import Tick
from table_app.rules.check import profile_for_log
from table_app.rules.events import StartKyoku
from table_app.rules.fold import replay
from table_app.rules.profiles import TENHOU
from tests.interpret.helpers import FALSE_ALARMS, Table


def _games(logs_dir, count):
    paths = sorted((logs_dir / "tenhou6_json").iterdir())[:count]
    paths += [p for p in sorted((logs_dir / "mjx_fixtures").iterdir()) if "chankan" in p.name or "kan" in p.name][:3]
    # Tenhou client transcripts: only one player's tiles and what the others showed are known.
    paths += sorted((logs_dir / "dnovikoff_net").iterdir())[:2]
    return [g for p in paths for g in read_log(p) if g.players == 4 and g.rules.unsupported is None]


def _table_for(game):
    profile = profile_for_log(TENHOU, game.rules)
    first = next(e.oya for e in game.events if isinstance(e, StartKyoku))
    session = RefereeSession(setup=TableSetup(profile, first_dealer=first))
    return Table(replace(session, game=replace(session.game, profile=profile))), profile


def _with_time_passing(observations):
    """A tick after every observation, the settle time apart: a reading the game does not explain
    for two observations running would be announced (the board here reads in step)."""
    for index, observation in enumerate(observations):
        yield observation
        yield Tick(index * SETTLE_S)


def test_real_games_come_out_the_same_from_camera_and_board(logs_dir):
    games = _games(logs_dir, 6)
    assert len(games) >= 6
    for game in games:
        table, profile = _table_for(game)
        table.see(*_with_time_passing(log_observations(game.events, profile, FeedOptions(trays=True))))
        expected = replay(game.events, profile)
        assert table.session.game.results == expected.results, game.source
        assert table.session.game.scores == expected.scores, game.source
        assert table.session.game.finished == expected.finished, game.source
        assert not [a for a in table.said if a.kind in FALSE_ALARMS], game.source
        wins = sum(len(r.wins) for r in expected.results)
        assert table.kinds().count(AnnouncementKind.WIN) == wins
        assert table.kinds().count(AnnouncementKind.PAYMENTS_COMPLETE) == len(expected.results)


def test_a_bust_ends_with_the_trays_agreeing_and_the_debt_on_an_iou(logs_dir):
    game = read_log(logs_dir / "mjx_full" / "2010110100gm-00a9-0000-de3472e8.mjlog")[0]
    table, profile = _table_for(game)
    table.see(*_with_time_passing(log_observations(game.events, profile, FeedOptions(trays=True))))
    expected = replay(game.events, profile)
    assert min(expected.scores) < 0  # seat 4 went below zero: its tray is empty, the rest owed
    assert table.session.game.scores == expected.scores
    assert not [a for a in table.said if a.kind in FALSE_ALARMS]
    assert table.kinds().count(AnnouncementKind.PAYMENTS_COMPLETE) == len(expected.results)


def test_without_the_board_a_ron_or_tsumo_it_cannot_tell_is_asked(logs_dir):
    """With no wall count, 14 tiles laid open after a discard of the winning kind are put to the referee."""
    asked = 0
    for game in _games(logs_dir, 4):
        table, profile = _table_for(game)
        table.see(*log_observations(game.events, profile, FeedOptions(trays=False)))
        questions = [a for a in table.said if a.kind is AnnouncementKind.QUESTION]
        asked += len(questions)
        assert all("ron on the last discard, or tsumo" in q.text_param("topic") for q in questions)
    assert asked > 0


def test_a_triple_ron_is_the_abortive_draw(logs_dir):
    game = read_log(logs_dir / "mjx_fixtures" / "upd-aft-ron3.mjlog")[0]
    table, profile = _table_for(game)
    table.see(*log_observations(game.events, profile, FeedOptions(trays=True)))
    expected = replay(game.events, profile)
    assert table.session.game.results == expected.results
    draws = [a for a in table.said if a.kind is AnnouncementKind.ABORTIVE_DRAW]
    assert [a.text_param("draw") for a in draws] == ["triple_ron"]


def test_a_transcripts_nine_terminals_is_shown_as_the_log_shows_it(logs_dir):
    """A client transcript knows another player's tiles only as laid open at the draw: the feed
    shows those, and the referee declares the draw as the server did."""
    for name in ("444b3_2018-02-11_10_58_02.log", "82093_2018-01-21_21_40_03.log"):
        (game,) = read_log(logs_dir / "dnovikoff_net" / name)
        table, profile = _table_for(game)
        table.see(*_with_time_passing(log_observations(game.events, profile, FeedOptions(trays=True))))
        expected = replay(game.events, profile)
        assert table.session.game.results == expected.results, name
        assert "nine_terminals" in [r.ending.value for r in expected.results]
        assert not [a for a in table.said if a.kind in FALSE_ALARMS], name
