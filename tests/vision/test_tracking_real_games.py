"""Real games as a perfect camera (and the sensor board) would have seen them, through the
tracker and the referee core: the same results as the logs' own events through the rules core.

The tracker knows nothing of the logs: it only sees the table (``perfect_table``). Kans of
every kind, double and triple ron, riichi, nine terminals, four riichi and four winds are
among these games."""

from __future__ import annotations

from dataclasses import replace

import pytest

from table_app.announce import AnnouncementKind
from table_app.interpret import RefereeSession, TableSetup
from table_app.logs import read_log
from table_app.rules.check import profile_for_log
from table_app.rules.events import Ankan, Daiminkan, Kakan, StartKyoku
from table_app.rules.fold import replay
from table_app.rules.profiles import TENHOU
from tests.interpret.helpers import FALSE_ALARMS, Table
from tests.shared_data import shared_path
from tests.vision.perfect_table import perfect_readings
from vision.live.reading import TableReading
from vision.live.tracking import Tracker

FIXTURES = ("kan", "ron", "riichi", "kyuusyu", "nm", "reach4", "four-winds", "double")


@pytest.fixture(scope="module")
def games():
    logs = shared_path("data", "logs")
    paths = sorted((logs / "tenhou6_json").iterdir())[:10]
    paths += [p for p in sorted((logs / "mjx_fixtures").iterdir()) if any(word in p.name for word in FIXTURES)]
    return [g for p in paths for g in read_log(p) if g.players == 4 and g.rules.unsupported is None]


def test_real_games_refereed_from_the_tracker_come_out_as_the_logs(games):
    assert len(games) >= 20
    kans = 0
    for game in games:
        profile = profile_for_log(TENHOU, game.rules)
        first = next(e.oya for e in game.events if isinstance(e, StartKyoku))
        session = RefereeSession(setup=TableSetup(profile, first_dealer=first))
        table = Table(replace(session, game=replace(session.game, profile=profile)))
        tracker = Tracker()
        for item in perfect_readings(game.events, profile, board=True):
            table.see(*(tracker.update(item) if isinstance(item, TableReading) else (item,)))
        expected = replay(game.events, profile)
        assert table.session.game.results == expected.results, game.source
        assert table.session.game.scores == expected.scores, game.source
        kinds = table.kinds()
        # The table cleared after the game's last hand is a new-deal signal the referee answers
        # with a tray check against the final scores: only notes before the end count.
        played = kinds[: kinds.index(AnnouncementKind.GAME_END)] if AnnouncementKind.GAME_END in kinds else kinds
        assert not [k for k in played if k in FALSE_ALARMS], game.source
        kans += sum(isinstance(e, (Ankan, Daiminkan, Kakan)) for e in game.events)
    assert kans >= 5
