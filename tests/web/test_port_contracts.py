"""Contract tests for the web's two ports: ``ReplayFeed``/``ReplayConsole`` and the runtime's
console sink (a real core over a real journal) pass the same tests."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from table_app.domain.notation import parse_tile
from table_app.interpret.ruling import Ruling
from table_app.interpret.session import TableSetup
from table_app.journal.store import GameStore
from table_app.runtime.core import RefereeCore
from table_app.runtime.web_bridge import RuntimeConsoleSink
from table_app.view.model import TableView
from table_app.view.ports import ChooseProfile, Confirm, ConsoleSink, CorrectTile, Undo, ViewFeed
from table_app.web.replay_feed import ReplayConsole, ReplayFeed


@dataclass
class FeedUnderTest:
    feed: ViewFeed
    advance: Callable[[], object]  # make the implementation publish one new view


def _replay_feed(game_log) -> FeedUnderTest:
    feed = ReplayFeed(game_log.events)
    return FeedUnderTest(feed, feed.step)


def _replay_console(game_log, _tmp_path, _stops) -> ConsoleSink:
    feed = ReplayFeed(game_log.events)
    for _ in range(20):
        feed.step()
    return ReplayConsole(feed)


def _runtime_console(_game_log, tmp_path, stops) -> ConsoleSink:
    core = RefereeCore(GameStore(tmp_path / "table.db"), TableSetup()).start()
    stops.append(core.stop)
    return RuntimeConsoleSink(core)


FEEDS = {"replay": _replay_feed}
SINKS = {"replay": _replay_console, "runtime": _runtime_console}


@pytest.fixture
def stops() -> Iterator[list[Callable[[], None]]]:
    """What to stop once the test is over (a running core's thread)."""
    started: list[Callable[[], None]] = []
    yield started
    for stop in started:
        stop()


@pytest.mark.parametrize("make", FEEDS.values(), ids=FEEDS.keys())
def test_a_feed_publishes_each_new_view_to_subscribers_until_they_unsubscribe(make, game_log):
    under_test = make(game_log)
    feed = under_test.feed
    assert isinstance(feed.current(), TableView)
    received: list[TableView] = []
    unsubscribe = feed.subscribe(received.append)
    for _ in range(5):
        under_test.advance()
    assert len(received) == 5
    assert received[-1] == feed.current()
    sequences = [view.sequence for view in received]
    assert sequences == sorted(set(sequences))  # strictly increasing
    unsubscribe()
    under_test.advance()
    assert len(received) == 5


@pytest.mark.parametrize("make", FEEDS.values(), ids=FEEDS.keys())
def test_a_feed_may_publish_from_another_thread(make, game_log):
    under_test = make(game_log)
    received: list[TableView] = []
    arrived = threading.Event()
    under_test.feed.subscribe(lambda view: (received.append(view), arrived.set()))
    worker = threading.Thread(target=under_test.advance)
    worker.start()
    assert arrived.wait(5)
    worker.join(5)
    assert received[-1] == under_test.feed.current()


@pytest.mark.parametrize("make", FEEDS.values(), ids=FEEDS.keys())
def test_a_failing_subscriber_does_not_stop_the_others(make, game_log):
    under_test = make(game_log)
    received: list[TableView] = []

    def broken(_view: TableView) -> None:
        raise RuntimeError("a subscriber bug")

    under_test.feed.subscribe(broken)
    under_test.feed.subscribe(received.append)
    under_test.advance()
    assert len(received) == 1


@pytest.mark.parametrize("make", SINKS.values(), ids=SINKS.keys())
@pytest.mark.parametrize(
    "command",
    [
        Confirm(),
        Undo(),
        CorrectTile(seat=0, index=0, tile=parse_tile("5m")),
        CorrectTile(seat=0, index=99, tile=parse_tile("5m")),
        ChooseProfile("jpml"),
        ChooseProfile("no-such-profile"),
    ],
    ids=repr,
)
def test_a_sink_answers_every_command_with_a_ruling_never_an_exception(make, game_log, command, tmp_path, stops):
    ruling = make(game_log, tmp_path, stops).submit(command).result(timeout=5)
    assert isinstance(ruling, Ruling)
    if not ruling.accepted:
        assert ruling.reason  # a refusal always says why


@pytest.mark.parametrize("make", SINKS.values(), ids=SINKS.keys())
def test_a_sink_refuses_an_unknown_profile(make, game_log, tmp_path, stops):
    ruling = make(game_log, tmp_path, stops).submit(ChooseProfile("house-rules")).result(timeout=5)
    assert not ruling.accepted
    assert "house-rules" in ruling.reason
