"""The shipped demo game's first two hands as a perfect camera would read them, through the
tracker and then the referee core: the referee reaches the log's own results, and the tracker
posts what the log feed (the camera's stand-in so far) posts."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from table_app.announce import AnnouncementKind
from table_app.domain.tile import tile_of_kind
from table_app.interpret import RefereeSession, TableSetup
from table_app.interpret.event_observations import log_observations
from table_app.logs import read_log
from table_app.observations import ButtonPress, HandStarted, RefereeButton
from table_app.rules.check import compare_hand, profile_for_log
from table_app.rules.events import EndKyoku, StartKyoku
from table_app.rules.fold import replay
from table_app.rules.profiles import TENHOU
from table_app.runtime.demo_support import check_against_log
from tests.interpret.helpers import Table
from tests.vision.perfect_table import perfect_readings
from vision.live.reading import TableReading, Zone
from vision.live.tracking import Tracker

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


def _same_view(item, first) -> bool:
    return isinstance(item, TableReading) and isinstance(first, TableReading) and item == replace(first, at=item.at)


def _noisy(items, rng: random.Random):
    """The perfect camera with one bad frame early in half of its runs of equal frames: a pond's
    last tile missed, a tile misread, or an arm over a pond (which hides what is under it)."""
    items = list(items)
    index = 0
    while index < len(items):
        end = index
        while end < len(items) and _same_view(items[end], items[index]):
            end += 1
        if end - index >= 4 and rng.random() < 0.5:
            bad = index + rng.randrange(2)
            items[bad] = _spoil(items[bad], rng)
        index = max(end, index + 1)
    return items


def _spoil(reading: TableReading, rng: random.Random) -> TableReading:
    seats = list(reading.seats)
    seat = rng.randrange(4)
    pond = seats[seat].pond
    damage = rng.choice(["missed", "misread", "arm"])
    if damage == "arm":
        seats[seat] = replace(seats[seat], pond=pond[: len(pond) // 2], occluded=frozenset({Zone.POND}))
    elif pond and damage == "missed":
        seats[seat] = replace(seats[seat], pond=pond[:-1])
    elif pond:
        wrong = tile_of_kind((pond[-1].tile.kind + 1) % 34)
        seats[seat] = replace(seats[seat], pond=(*pond[:-1], replace(pond[-1], tile=wrong, confidence=0.5)))
    return replace(reading, seats=tuple(seats))


def test_a_noisy_camera_referees_the_whole_demo_game_as_the_log(two_hands):
    """Single bad frames change nothing; a tile the confirming frames disagree on is taken with
    a low confidence and put to the referee, who confirms it (CONFIRM) as a referee would."""
    game, _ = two_hands
    profile = profile_for_log(TENHOU, game.rules)
    first = next(e.oya for e in game.events if isinstance(e, StartKyoku))
    table = Table(RefereeSession(setup=TableSetup(profile, first_dealer=first)))
    table.session = replace(table.session, game=replace(table.session.game, profile=profile))
    tracker = Tracker()
    spoilt = _noisy(perfect_readings(game.events, profile, frames=4, board=True), random.Random(5))
    assert sum(isinstance(i, TableReading) and any(s.occluded for s in i.seats) for i in spoilt) > 10
    confirmed = []
    for item in spoilt:
        for observation in tracker.update(item) if isinstance(item, TableReading) else (item,):
            for said in table.see(observation):
                if said.kind is AnnouncementKind.QUESTION and "uncertain tile" in said.text_param("topic"):
                    confirmed.append(observation)
                    table.see(ButtonPress(observation.at, RefereeButton.CONFIRM))
    check = check_against_log(table.session.game, game)
    assert check.hands == len(game.hands)
    assert check.mismatches == ()
    assert confirmed, "no tile was read uncertainly: the noise did not reach a confirming frame"
    assert all(o.confidence < 0.6 for o in confirmed)
    asked = [a for a in table.said if a.kind in (AnnouncementKind.QUESTION, AnnouncementKind.ILLEGAL_ACT)]
    assert len(asked) == len(confirmed)
