"""Contract tests for the web's two ports. ``ReplayFeed``/``ReplayConsole`` pass them today;
the runtime adds its feed and sink to ``FEEDS``/``SINKS`` and must pass the same tests."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from table_app.domain.notation import parse_tile
from table_app.view.model import TableView
from table_app.view.ports import ChooseProfile, Confirm, ConsoleReply, ConsoleSink, CorrectTile, Undo, ViewFeed
from table_app.web.replay_feed import ReplayConsole, ReplayFeed


@dataclass
class FeedUnderTest:
    feed: ViewFeed
    advance: Callable[[], object]  # make the implementation publish one new view


def _replay_feed(game_log) -> FeedUnderTest:
    feed = ReplayFeed(game_log.events)
    return FeedUnderTest(feed, feed.step)


def _replay_console(game_log) -> ConsoleSink:
    feed = ReplayFeed(game_log.events)
    for _ in range(20):
        feed.step()
    return ReplayConsole(feed)


FEEDS = {"replay": _replay_feed}
SINKS = {"replay": _replay_console}


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
def test_a_sink_answers_every_command_with_a_reply_never_an_exception(make, game_log, command):
    reply = make(game_log).submit(command)
    assert isinstance(reply, ConsoleReply)
    if not reply.accepted:
        assert reply.reason  # a refusal always says why


@pytest.mark.parametrize("make", SINKS.values(), ids=SINKS.keys())
def test_a_sink_refuses_an_unknown_profile(make, game_log):
    reply = make(game_log).submit(ChooseProfile("house-rules"))
    assert not reply.accepted
    assert "house-rules" in reply.reason
