"""Adapters turn their own types into observations; the feed posts, resumes and stops."""

from __future__ import annotations

import queue

from firmware_bridge.observations import CommandAnswer, LinkState, LinkStatus, TrayReading
from table_app.observations import HandStarted, LinkChanged, LinkHealth, TraysRead
from table_app.runtime.adapters import FeedSource, LinkTranslator


def _reading(hand: int, wall: int) -> TrayReading:
    return TrayReading(1.0, 7, (25000, 24000, 25000, 25000), ((),) * 4, (), 1, wall, 0, hand)


def test_link_outputs_become_observations_and_a_new_hand_counter_a_new_deal():
    posted: list[object] = []
    translate = LinkTranslator(posted.append)
    translate(LinkStatus(0.5, LinkState.CONNECTED, "board 1"))
    translate(_reading(hand=3, wall=70))
    translate(_reading(hand=3, wall=69))
    translate(_reading(hand=4, wall=70))
    translate(CommandAnswer(2.0, 5, True))
    translate(LinkStatus(3.0, LinkState.CLOSED, "stopping"))  # our own shutdown: not a loss
    assert posted[0] == LinkChanged(0.5, LinkHealth.CONNECTED, "board 1")
    assert posted[1] == TraysRead(1.0, (25000, 24000, 25000, 25000), 1, 70, 0, True)
    assert [type(p).__name__ for p in posted[1:]] == ["TraysRead", "TraysRead", "HandStarted", "TraysRead"]
    assert isinstance(posted[3], HandStarted)


def test_a_feed_posts_in_order_skipping_what_the_journal_has():
    posted: queue.Queue[object] = queue.Queue()
    feed = FeedSource([HandStarted(float(i)) for i in range(5)], skip=2)
    feed.start(posted.put)
    assert feed.finished.wait(5)
    feed.stop()
    assert [posted.get_nowait().at for _ in range(3)] == [2.0, 3.0, 4.0]
    assert posted.empty()


def test_a_resumed_feed_first_posts_the_boards_state():
    link = LinkChanged(0.0, LinkHealth.CONNECTED)
    readings = [TraysRead(float(i), (25000,) * 4, 0, 70 - i) for i in range(1, 4)]
    observations = [link, readings[0], HandStarted(1.5), readings[1], HandStarted(2.5), readings[2]]
    posted: queue.Queue[object] = queue.Queue()
    feed = FeedSource(observations, skip=4)
    feed.start(posted.put)
    assert feed.finished.wait(5)
    feed.stop()
    assert [posted.get_nowait() for _ in range(4)] == [link, readings[1], HandStarted(2.5), readings[2]]
