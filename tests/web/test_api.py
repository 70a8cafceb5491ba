"""The JSON API over real HTTP: state, console actions, the token, and 4xx with a message for bad input."""

from __future__ import annotations

import json
import logging

import pytest

from table_app.domain.notation import parse_tile
from table_app.view.ports import ChooseProfile, Confirm, CorrectTile
from tests.web.conftest import TOKEN, step_to
from tests.web.http_client import call

AUTH = {"X-Jantaku-Token": TOKEN}


def test_the_server_binds_to_localhost_on_the_port_it_was_given(served):
    assert served.url.startswith("http://127.0.0.1:")
    assert served.server.port > 0


def test_state_is_the_feeds_current_view(served):
    step_to(served.feed, 30)
    reply = call(f"{served.url}/api/state")
    assert reply.status == 200
    assert reply.headers["Content-Type"].startswith("application/json")
    assert reply.json() == served.feed.current().to_json()


@pytest.mark.parametrize("path", ["/", "/overlay", "/console"])
def test_pages_are_served(served, path):
    reply = call(f"{served.url}{path}")
    assert reply.status == 200
    assert b"<!doctype html>" in reply.body


def test_a_console_action_without_the_token_is_refused_with_401(served):
    reply = call(f"{served.url}/api/console/confirm", method="POST", body="{}")
    assert reply.status == 401
    assert "token" in reply.json()["error"]
    assert served.feed.position == 0
    assert served.console.commands == ()


@pytest.mark.parametrize(
    "headers", [{"X-Jantaku-Token": "guess"}, {"Authorization": "Bearer guess"}, {"Cookie": "jantaku_console=forged"}]
)
def test_a_wrong_token_is_refused_with_403(served, headers):
    reply = call(f"{served.url}/api/console/confirm", method="POST", body="{}", headers=headers)
    assert reply.status == 403
    assert "wrong" in reply.json()["error"]
    assert served.console.commands == ()


def test_confirm_and_undo_with_the_token_move_the_replay(served):
    reply = call(f"{served.url}/api/console/confirm", method="POST", headers=AUTH)
    assert (reply.status, reply.json()["accepted"]) == (200, True)
    assert served.feed.position == 1
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    assert call(f"{served.url}/api/console/undo", method="POST", body="{}", headers=bearer).status == 200
    assert served.feed.position == 0
    assert served.console.commands[0] == Confirm()


def test_a_refused_command_is_409_with_the_reason(served):
    reply = call(f"{served.url}/api/console/undo", method="POST", headers=AUTH)
    assert reply.status == 409
    assert reply.json() == {"accepted": False, "reason": "nothing to undo: no event has been applied"}
    reply = call(f"{served.url}/api/console/profile", method="POST", body='{"name": "house"}', headers=AUTH)
    assert reply.status == 409
    assert "unknown rule profile 'house'" in reply.json()["reason"]


def test_choosing_a_known_profile_refolds_the_game_under_it(served):
    step_to(served.feed, 10)
    reply = call(f"{served.url}/api/console/profile", method="POST", body='{"name": "mleague"}', headers=AUTH)
    assert reply.status == 200
    assert served.console.commands[-1] == ChooseProfile("mleague")
    assert call(f"{served.url}/api/state").json()["profile"] == "mleague"
    assert served.feed.position == 10


def test_a_tile_correction_reaches_the_sink_as_a_value(served):
    step_to(served.feed, 12)
    body = json.dumps({"seat": 0, "index": 0, "tile": "0p"})
    reply = call(f"{served.url}/api/console/correct-tile", method="POST", body=body, headers=AUTH)
    assert reply.status == 200, reply.body
    assert served.console.corrections == (CorrectTile(seat=0, index=0, tile=parse_tile("0p")),)


@pytest.mark.parametrize(
    ("action", "body", "message"),
    [
        ("correct-tile", "{not json", "malformed JSON"),
        ("correct-tile", "[1, 2]", "must be a JSON object, not list"),
        ("correct-tile", "", "must be a JSON object"),
        ("correct-tile", '{"seat": 0, "index": 0, "tile": "5x"}', "field 'tile': unknown tile"),
        ("correct-tile", '{"seat": 0, "index": 0, "tile": "?"}', "known tile"),
        ("correct-tile", '{"seat": "0", "index": 0, "tile": "5m"}', "field 'seat' must be an integer"),
        ("correct-tile", '{"seat": true, "index": 0, "tile": "5m"}', "field 'seat' must be an integer"),
        ("correct-tile", '{"seat": 4, "index": 0, "tile": "5m"}', "field 'seat' must be 0-3"),
        ("correct-tile", '{"seat": 0, "tile": "5m"}', "missing field 'index'"),
        ("correct-tile", '{"seat": 0, "index": 0, "tile": 5}', "field 'tile' must be a string"),
        ("profile", '{"name": 3}', "field 'name' must be a string"),
        ("confirm", "{oops", "malformed JSON"),
        ("shuffle", "{}", "unknown console action 'shuffle'"),
    ],
)
def test_bad_input_is_a_400_naming_what_is_wrong(served, action, body, message):
    reply = call(f"{served.url}/api/console/{action}", method="POST", body=body, headers=AUTH)
    assert reply.status == 400
    assert message in reply.json()["error"]
    assert served.console.commands == ()


def test_an_oversized_body_and_an_unknown_api_path_get_json_errors(served):
    reply = call(f"{served.url}/api/console/confirm", method="POST", body="x" * 40_000, headers=AUTH)
    assert reply.status == 413
    assert "error" in reply.json()
    reply = call(f"{served.url}/api/nothing-here")
    assert reply.status == 404
    assert "error" in reply.json()
    reply = call(f"{served.url}/api/state", method="POST", body="{}")
    assert reply.status == 405


def test_the_login_form_gives_a_session_cookie_and_the_token_never_reaches_the_logs(served, caplog):
    caplog.set_level(logging.DEBUG)
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    wrong = call(f"{served.url}/console/login", method="POST", body="token=guess", headers=form)
    assert wrong.status == 403
    login = call(f"{served.url}/console/login", method="POST", body=f"token={TOKEN}", headers=form)
    assert login.status == 303
    assert login.headers["Location"] == "/console"
    cookie = login.headers["Set-Cookie"].split(";")[0]
    assert TOKEN not in cookie
    assert "HttpOnly" in login.headers["Set-Cookie"]
    session = call(f"{served.url}/api/console/session", headers={"Cookie": cookie})
    assert session.status == 200
    assert call(f"{served.url}/api/console/session").status == 401
    csrf = session.json()["csrf"]
    assert csrf not in cookie
    reply = call(f"{served.url}/api/console/confirm", method="POST", headers={"Cookie": cookie, "X-Jantaku-CSRF": csrf})
    assert reply.status == 200
    assert "/console/login" in caplog.text  # the access log did record the requests...
    assert TOKEN not in caplog.text  # ...but never the token
