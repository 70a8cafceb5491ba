"""The runtime behind the web's ports: views follow the core; console commands reach it."""

from __future__ import annotations

import queue

import pytest

from table_app.domain.notation import parse_mjai
from table_app.domain.seat import Seat
from table_app.interpret import TableSetup
from table_app.interpret.ruling import DONE, Ruling
from table_app.journal import GameStore
from table_app.observations import (
    ButtonPress,
    LinkChanged,
    LinkHealth,
    ProfileChosen,
    RefereeButton,
    TileCorrected,
)
from table_app.rules.events import Dahai
from table_app.runtime.core import STOPPED, RefereeCore
from table_app.runtime.web_bridge import RuntimeConsoleSink, RuntimeViewFeed
from table_app.view.model import DeviceStatus
from table_app.view.ports import ChooseProfile, Confirm, CorrectTile, Undo
from tests.runtime.helpers import first_game, hand_in_play, observations_of, setup_for


def test_views_follow_a_real_game_to_its_end(tmp_path, logs_dir):
    game = first_game(logs_dir)
    setup = setup_for(game)
    feed = RuntimeViewFeed(setup.profile, has_link=True, has_camera=True)
    views: queue.Queue[object] = queue.Queue()
    feed.subscribe(views.put)
    core = RefereeCore(GameStore(tmp_path / "t.db"), setup, [feed])
    for observation in observations_of(game):
        core.process(observation)
    final = feed.current()
    assert final.finished
    assert [s.score for s in final.seats] == list(core.session.game.scores)
    assert final.link is DeviceStatus.OK
    assert final.camera is DeviceStatus.OK
    sequences = []
    while not views.empty():
        sequences.append(views.get_nowait().sequence)
    assert sequences == list(range(1, len(sequences) + 1))
    assert final.announcement is not None
    assert final.announcement.kind == "payments_complete"
    assert final.announcement.ja == "支払い完了"


def _table(tmp_path):
    store = GameStore(tmp_path / "t.db")
    feed = RuntimeViewFeed(TableSetup().profile, has_link=True, has_camera=True)
    core = RefereeCore(store, TableSetup(), [feed]).start()
    return core, feed, RuntimeConsoleSink(core)


def test_console_commands_reach_the_core(tmp_path):
    core, feed, sink = _table(tmp_path)
    try:
        assert sink.submit(Undo()).result(5).reason == "nothing to undo"
        for observation in (LinkChanged(0.0, LinkHealth.LOST), *hand_in_play("1m", "9p")):
            core.post(observation)
        core.drain()
        refused = sink.submit(CorrectTile(0, 1, parse_mjai("2m"))).result(5)
        assert (refused.accepted, refused.reason) == (False, "East has no discard 2 (their pond holds 1)")
        same = sink.submit(CorrectTile(0, 0, parse_mjai("1m"))).result(5)
        assert (same.accepted, same.reason) == (False, "East's discard 1 is already 1m")
        assert sink.submit(CorrectTile(0, 0, parse_mjai("2m"))).result(5).accepted  # not the last discard
        assert core.session.game.hand.player(Seat.S0).pond[0].tile == parse_mjai("2m")
        assert feed.current().seats[0].pond[0].tile == "2m"
        assert feed.current().announcement.kind == "corrected"
        assert sink.submit(CorrectTile(1, 0, parse_mjai("8p"))).result(5).accepted
        assert feed.current().seats[1].pond[-1].tile == "8p"
        assert sink.submit(Undo()).result(5).accepted
        assert core.session.game.hand.last_discard is None  # the corrected discard taken back
        assert sink.submit(Confirm()).result(5).accepted
        assert sink.submit(ChooseProfile("tenhou")).result(5).reason == "already in use"
        mid_hand = sink.submit(ChooseProfile("jpml")).result(5)
        assert (mid_hand.accepted, mid_hand.reason) == (
            False,
            "a hand is in play: the rule profile changes between hands only",
        )
        assert not sink.submit(ChooseProfile("house")).result(5).accepted
        journaled = [e.event for e in core._store.events(core.game_id)]
        assert journaled[-1] != Dahai(Seat.S1, parse_mjai("8p"), tsumogiri=False)
        assert Dahai(Seat.S0, parse_mjai("2m"), tsumogiri=False) in journaled
    finally:
        core.stop()


def test_a_submitted_command_resolves_to_its_ruling(tmp_path):
    core, _feed, sink = _table(tmp_path)
    try:
        nothing = sink.submit(Undo())
        assert nothing.result(5) == Ruling(accepted=False, reason="nothing to undo")
        for observation in hand_in_play("1m", "9p"):
            core.post(observation)
        refused = core.submit(ProfileChosen(3.0, "jpml"))
        same = core.submit(TileCorrected(3.0, parse_mjai("9p"), Seat.S1, 0))
        accepted = core.submit(TileCorrected(3.0, parse_mjai("2m"), Seat.S0, 0))
        assert refused.result(5) == Ruling(False, "a hand is in play: the rule profile changes between hands only")
        assert same.result(5) == Ruling(False, "South's discard 1 is already 9p")
        assert accepted.result(5) == DONE
        # Each ruling came after the core acted: the correction is in the game when it resolves.
        assert core.session.game.hand.player(Seat.S0).pond[0].tile == parse_mjai("2m")
        assert core.session.game.profile.name == "tenhou"
    finally:
        core.stop()


def test_a_request_the_core_never_takes_up_is_ruled_on_or_dropped(tmp_path):
    core = RefereeCore(GameStore(tmp_path / "t.db"), TableSetup())  # not started yet
    for observation in hand_in_play("1m", "9p"):
        core.post(observation)
    dropped = core.submit(TileCorrected(3.0, parse_mjai("2m"), Seat.S0, 0))
    assert dropped.cancel()  # the console gave up waiting before the core took it up
    core.start()
    try:
        core.drain()
        assert core.session.game.hand.player(Seat.S0).pond[0].tile == parse_mjai("1m")  # never done
    finally:
        core.stop()
    assert core.submit(ButtonPress(4.0, RefereeButton.CONFIRM)).result(5) == STOPPED


def test_a_refusal_always_has_its_reason():
    with pytest.raises(ValueError, match="needs its reason"):
        Ruling(accepted=False)
    assert Ruling(accepted=True, reason="already in use").accepted


def test_a_running_referee_serves_its_pages_and_console(tmp_path, logs_dir):
    import io
    import json
    import urllib.error
    import urllib.request

    from table_app.runtime.app import build_runtime
    from table_app.runtime.config import parse_config
    from table_app.runtime.web_attach import attach_web

    log = logs_dir / "tenhou6_json" / "2020081220gm-00a9-0000-9ee6ab3b.json"
    config = parse_config(f'[table]\ndb = "t.db"\n[feed]\nlog = "{log}"\npace_s = 0\n[web]\nport = 0\n', tmp_path)
    assert config.web is not None
    runtime = build_runtime(config, out=io.StringIO())
    server = attach_web(runtime, "127.0.0.1", 0, "s3cret")
    runtime.start()
    try:
        assert runtime.feed is not None
        assert runtime.feed.finished.wait(30)
        runtime.core.drain()
        with urllib.request.urlopen(f"{server.url}/api/state", timeout=5) as answer:
            state = json.loads(answer.read())
        assert state["finished"] is True
        assert [s["score"] for s in state["seats"]] == [60000, -1700, 32700, 9000]
        request = urllib.request.Request(f"{server.url}/api/console/confirm", data=b"{}", method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=5)
        assert refused.value.code == 401  # no token, no console
        request.add_header("X-Jantaku-Token", "s3cret")
        with urllib.request.urlopen(request, timeout=5) as answer:
            assert json.loads(answer.read())["accepted"] is True
    finally:
        server.stop()
        runtime.stop()
