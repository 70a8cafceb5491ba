"""The referee console's JSON API over a running referee core (real HTTP, real SQLite): any pond
tile corrected, bad input refused with a message, the rule profile changed between hands."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from table_app.domain.notation import parse_mjai
from table_app.interpret import TableSetup
from table_app.journal import GameStore
from table_app.observations import ButtonPress, DoraRevealed, HandStarted
from table_app.runtime.core import RefereeCore
from table_app.runtime.web_bridge import RuntimeConsoleSink, RuntimeViewFeed
from table_app.web.background import BackgroundWebServer
from table_app.web.server import create_app
from tests.runtime.helpers import first_game, hand_in_play, observations_of, setup_for
from tests.web.http_client import call

TOKEN = "console-test-token"
AUTH = {"X-Jantaku-Token": TOKEN, "Content-Type": "application/json"}


@dataclass
class Table:
    core: RefereeCore
    server: BackgroundWebServer

    def post(self, action: str, body: object, headers: dict[str, str] = AUTH):
        return call(f"{self.server.url}/api/console/{action}", method="POST", body=json.dumps(body), headers=headers)

    def state(self) -> dict:
        return call(f"{self.server.url}/api/state").json()


def _serve(tmp_path, setup: TableSetup) -> Table:
    feed = RuntimeViewFeed(setup.profile, has_link=False, has_camera=True)
    core = RefereeCore(GameStore(tmp_path / "table.db"), setup, [feed]).start()
    server = BackgroundWebServer(create_app(feed, RuntimeConsoleSink(core), TOKEN))
    server.start()
    return Table(core, server)


@pytest.fixture
def table(tmp_path) -> Iterator[Table]:
    served = _serve(tmp_path, TableSetup())
    for observation in hand_in_play("1m", "9p", "E"):
        served.core.post(observation)
    served.core.drain()
    try:
        yield served
    finally:
        served.server.stop()
        served.core.stop()


def test_any_pond_tile_is_corrected_and_journaled_as_its_own_record(table, tmp_path):
    reply = table.post("correct-tile", {"seat": 0, "index": 0, "tile": "2m"})  # not the last discard
    assert (reply.status, reply.json()) == (200, {"accepted": True, "reason": ""})
    state = table.state()
    assert [t["tile"] for t in state["seats"][0]["pond"]] == ["2m"]
    assert state["announcement"]["en"] == "East's discard 1 corrected: 2m (read as 1m)"
    assert [t["tile"] for t in state["seats"][2]["pond"]] == ["1z"]  # the game goes on as it was
    kinds = [k for (k,) in sqlite3.connect(tmp_path / "table.db").execute("SELECT kind FROM journal ORDER BY seq")]
    assert kinds[-1] == "correct"
    undo = table.post("undo", {})
    assert undo.status == 200
    assert table.state()["seats"][2]["pond"] == []  # undo still takes back the last act
    assert [t["tile"] for t in table.state()["seats"][0]["pond"]] == ["2m"]


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"seat": 3, "index": 0, "tile": "2m"}, 409, "North has no discard 1 (their pond holds 0)"),
        ({"seat": 1, "index": 4, "tile": "2m"}, 409, "South has no discard 5 (their pond holds 1)"),
        ({"seat": 1, "index": 0, "tile": "9p"}, 409, "South's discard 1 is already 9p"),
        ({"seat": 7, "index": 0, "tile": "2m"}, 400, "field 'seat' must be 0-3, got 7"),
        ({"seat": 1, "index": -1, "tile": "2m"}, 400, "field 'index' must be 0-200, got -1"),
        ({"seat": 1, "index": 0, "tile": "10m"}, 400, "field 'tile': unknown tile"),
    ],
)
def test_a_correction_of_no_such_tile_or_to_no_such_tile_is_refused_with_a_message(table, body, status, message):
    seq = table.core.journal_seq
    reply = table.post("correct-tile", body)
    assert reply.status == status
    assert message in (reply.json().get("reason") or reply.json().get("error"))
    assert table.core.journal_seq == seq


def test_a_correction_needs_the_token(table):
    body = {"seat": 0, "index": 0, "tile": "2m"}
    assert table.post("correct-tile", body, headers={"Content-Type": "application/json"}).status == 401
    assert table.post("correct-tile", body, headers={"X-Jantaku-Token": "nope"}).status == 403
    assert [t["tile"] for t in table.state()["seats"][0]["pond"]] == ["1m"]


def test_the_profile_is_refused_mid_hand_with_a_clear_message(table):
    reply = table.post("profile", {"name": "jpml"})
    assert reply.status == 409
    assert reply.json()["reason"] == "a hand is in play: the rule profile changes between hands only"
    assert call(f"{table.server.url}/api/profiles").json()["current"] == "tenhou"


@dataclass
class AfterFirstHand:
    """A real game's first hand played to its end through the console's server."""

    served: Table
    setup: TableSetup
    rest: list  # the game's observations after that hand's CONFIRM


def _after_first_hand(tmp_path, logs_dir) -> AfterFirstHand:
    game = first_game(logs_dir)
    setup = setup_for(game)
    observations = observations_of(game)
    first_end = next(i for i, o in enumerate(observations) if isinstance(o, ButtonPress))
    served = _serve(tmp_path, setup)
    for observation in observations[: first_end + 1]:
        served.core.post(observation)
    served.core.drain()
    return AfterFirstHand(served, setup, observations[first_end + 1 :])


def test_the_profile_changes_between_hands_journaled_and_kept_on_restart(tmp_path, logs_dir):
    played = _after_first_hand(tmp_path, logs_dir)
    served, setup = played.served, played.setup
    try:
        assert served.core.session.game.hand is None  # between hands
        reply = served.post("profile", {"name": "jpml"})
        assert (reply.status, reply.json()["accepted"]) == (200, True)
        assert call(f"{served.server.url}/api/profiles").json()["current"] == "jpml"
        assert served.state()["announcement"]["en"] == "Rules from the next hand: jpml"
        for observation in played.rest[:3]:  # the next hand starts under it
            served.core.post(observation)
        served.core.drain()
        assert served.core.session.game.hand is not None
        assert served.core.session.game.profile.name == "jpml"
        assert served.post("profile", {"name": "tenhou"}).status == 409  # and now it is mid-hand
    finally:
        served.server.stop()
        served.core.stop()
    bodies = [b for (b,) in sqlite3.connect(tmp_path / "table.db").execute("SELECT body FROM journal ORDER BY seq")]
    assert bodies.count('{"type":"profile_change","profile":"jpml"}') == 1  # an event of the game
    resumed = RefereeCore(GameStore(tmp_path / "table.db"), setup)
    assert resumed.session.game.profile.name == "jpml"
    assert resumed.session.setup.profile.name == "jpml"
    assert resumed.session.game == served.core.session.game


def test_a_profile_chosen_before_the_first_hand_is_the_games(tmp_path):
    served = _serve(tmp_path, TableSetup())
    try:
        assert served.post("profile", {"name": "mleague"}).status == 200
        served.core.post(HandStarted(0.0))
        served.core.post(DoraRevealed(0.0, parse_mjai("5s")))
        served.core.drain()
        assert served.core._store.game(served.core.game_id).profile == "mleague"
        assert served.state()["profile"] == "mleague"
    finally:
        served.server.stop()
        served.core.stop()


def test_an_undo_after_a_profile_change_takes_the_change_back(tmp_path, logs_dir):
    played = _after_first_hand(tmp_path, logs_dir)
    served, setup = played.served, played.setup
    try:
        assert served.post("profile", {"name": "jpml"}).status == 200
        assert served.post("undo", {}).status == 200  # the change is the last event: it is taken back
        assert served.state()["profile"] == setup.profile.name
        assert served.core.session.setup.profile == setup.profile  # the next deal is under it too
        kinds = [k for (k,) in sqlite3.connect(tmp_path / "table.db").execute("SELECT kind FROM journal ORDER BY seq")]
        assert kinds[-2:] == ["event", "undo"]
    finally:
        served.server.stop()
        served.core.stop()
