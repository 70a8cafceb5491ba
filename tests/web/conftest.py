"""A real logged game, and the web server running over it on an ephemeral 127.0.0.1 port."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from table_app.logs import read_log
from table_app.rules.record import GameLog
from table_app.web.background import BackgroundWebServer
from table_app.web.replay_feed import ReplayConsole, ReplayFeed
from table_app.web.server import create_app
from tests.shared_data import shared_path

#: A short Tenhou game (759 events) whose first hand has a chi, a pon, a riichi and a ron.
GAME_FILE = "data/logs/mjx_full/2010110100gm-00a9-0000-de3472e8.mjlog"
TOKEN = "test-referee-token"


@pytest.fixture(scope="session")
def game_log() -> GameLog:
    return read_log(shared_path(GAME_FILE))[0]


@dataclass
class Served:
    server: BackgroundWebServer
    feed: ReplayFeed
    console: ReplayConsole

    @property
    def url(self) -> str:
        return self.server.url


@pytest.fixture
def served(game_log: GameLog) -> Iterator[Served]:
    feed = ReplayFeed(game_log.events)
    console = ReplayConsole(feed)
    server = BackgroundWebServer(create_app(feed, console, TOKEN))
    server.start()
    try:
        yield Served(server, feed, console)
    finally:
        server.stop()


def step_to(feed: ReplayFeed, position: int) -> None:
    while feed.position < position:
        assert feed.step(), f"the log ended before event {position}"
