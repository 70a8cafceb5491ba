"""The shipped demo game's first two hands as a perfect camera would read them, through the
tracker and then the referee core: the referee reaches the log's own results, and the tracker
posts what the log feed (the camera's stand-in so far) posts."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from table_app.interpret import RefereeSession, TableSetup
from table_app.logs import read_log
from table_app.observations import ButtonPress, HandStarted
from table_app.rules.check import compare_hand, profile_for_log
from table_app.rules.events import EndKyoku, StartKyoku
from table_app.rules.fold import replay
from table_app.rules.profiles import TENHOU
from table_app.runtime.log_feed import log_observations
from tests.interpret.helpers import Table
from tests.vision.perfect_table import perfect_readings
from vision.reading import TableReading
from vision.tracking import Tracker

DEMO = Path(__file__).resolve().parents[2] / "table_app" / "demo_data" / "demo-game.mjlog"


@pytest.fixture(scope="module")
def two_hands():
    game = read_log(DEMO)[0]
    starts = [i for i, e in enumerate(game.events) if isinstance(e, StartKyoku)]
    events = game.events[: starts[2]]
    assert sum(isinstance(e, EndKyoku) for e in events) == 2
    return game, events


def _tracked(events, profile):
    tracker = Tracker()
    for item in perfect_readings(events, profile):
        if isinstance(item, TableReading):
            yield from tracker.update(item)
        else:
            yield item


def _comparable(observation):
    """An observation without its time and confidence (the feed's clock is not the camera's)."""
    fields = {"at": 0.0} | ({"confidence": 1.0} if hasattr(observation, "confidence") else {})
    return replace(observation, **fields)


def test_the_referee_scores_the_tracked_hands_as_the_log_does(two_hands):
    game, events = two_hands
    profile = profile_for_log(TENHOU, game.rules)
    first = next(e.oya for e in events if isinstance(e, StartKyoku))
    table = Table(RefereeSession(setup=TableSetup(profile, first_dealer=first)))
    table.session = replace(table.session, game=replace(table.session.game, profile=profile))
    table.see(*_tracked(events, profile))
    results = table.session.game.results
    assert len(results) == 2
    for result, record in zip(results, game.hands[:2], strict=True):
        assert compare_hand(result, record) == []
    assert results == replay(events, profile).results
    assert not [a for a in table.said if a.kind.name in ("QUESTION", "ILLEGAL_ACT")]


def test_the_tracker_posts_what_the_log_feed_posts(two_hands):
    game, events = two_hands
    profile = profile_for_log(TENHOU, game.rules)
    tracked = [_comparable(o) for o in _tracked(events, profile) if not isinstance(o, ButtonPress)]
    fed = [_comparable(o) for o in log_observations(events, profile) if not isinstance(o, ButtonPress)]
    # The feed starts the first hand with HandStarted; a tracker that saw no hand before has
    # nothing to clear (the referee awaits the first deal anyway), and it sees the table cleared
    # after the last hand, which the feed's events stop short of.
    assert fed[0] == HandStarted(0.0)
    assert tracked[-1] == HandStarted(0.0)
    assert tracked[:-1] == fed[1:]
