"""The TOML config: the example file reads; each mistake is named by its key."""

from __future__ import annotations

from pathlib import Path

import pytest

from table_app.domain.seat import Seat
from table_app.interpret.session import SETTLE_S
from table_app.runtime.config import ConfigError, load_config, parse_config

ROOT = Path(__file__).resolve().parents[2]


def test_the_example_file_reads():
    config = load_config(ROOT / "examples" / "table.toml")
    assert config.profile.name == "tenhou"
    assert config.names == ("Aoki", "Baba", "Chiba", "Doi")
    assert config.db == ROOT / "examples" / "jantaku.db"  # relative to the file
    assert config.link is not None
    assert config.link.port == "/dev/jantaku-board"  # the udev rule's stable name (deploy/udev)
    assert config.panel is not None
    assert config.panel.riichi_leds == (6, 13, 19, 26)
    assert config.camera is None
    assert config.feed is None
    assert config.settle_s == 2.0


@pytest.mark.parametrize(("value", "seat"), [("1", Seat.S0), ("4", Seat.S3), ('"Chiba"', Seat.S2)])
def test_the_first_dealer_is_a_seat_number_1_to_4_or_a_players_name(value, seat):
    text = f'[table]\nnames = ["Aoki", "Baba", "Chiba", "Doi"]\nfirst_dealer = {value}'
    assert parse_config(text, Path("/srv/table")).first_dealer is seat


def test_a_first_dealer_of_0_says_seats_are_numbered_1_to_4():
    message = r"table.first_dealer: seats are numbered 1-4, got 0 \(1 is the first of names\)"
    with pytest.raises(ConfigError, match=message):
        parse_config("[table]\nfirst_dealer = 0", Path("/srv/table"))


def test_defaults_for_an_empty_file():
    config = parse_config("", Path("/srv/table"))
    assert config.db == Path("/srv/table/jantaku.db")
    assert config.first_dealer is Seat.S0
    assert config.link is None
    assert config.panel is None
    assert config.settle_s == SETTLE_S


def test_the_settle_time_reaches_the_referee(tmp_path):
    from table_app.runtime.app import build_runtime

    config = parse_config("[table]\nsettle_s = 2.5", tmp_path)
    runtime = build_runtime(config)
    try:
        assert runtime.core.session.setup.settle_s == 2.5
    finally:
        runtime.store.close()


def test_the_confidence_floor_reaches_the_referee(tmp_path):
    from table_app.runtime.app import build_runtime

    config = parse_config("[table]\nconfidence_floor = 0.8", tmp_path)
    runtime = build_runtime(config)
    try:
        assert runtime.core.session.setup.confidence_floor == 0.8
    finally:
        runtime.store.close()


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('[table]\nprofile = "wrc"', "table.profile"),
        ('[table]\nnames = ["a", "b"]', "table.names"),
        ("[table]\nfirst_dealer = 5", "table.first_dealer"),
        ("[table]\nfirst_dealer = 0", "table.first_dealer"),
        ('[table]\nfirst_dealer = "Nobody"', "table.first_dealer"),
        ('[table]\nlanguages = ["fr"]', "table.languages"),
        ('[table]\nspeech = "yes"', "table.speech"),
        ("[table]\nsettle_s = -1", "table.settle_s"),
        ('[table]\nsettle_s = "1s"', "table.settle_s"),
        ("[table]\nconfidence_floor = 1.5", "table.confidence_floor"),
        ('[camera]\nsource = "opencv:0"\nenrollment = 3', "camera.enrollment"),
        ("[table]\ncolour = 1", "table.colour"),
        ("[link]\nbaud = 9600", "link.baud"),
        ("[link]\nport = 3", "link.port"),
        ("[panel]\nconfirm = 40", "panel"),
        ('[panel]\nconfirm = "x"', "panel.confirm"),
        ("[camera]\n", "camera.source"),
        ('[feed]\nlog = "a"\npace_s = -1', "feed.pace_s"),
        ('[feed]\nlog = "a"\npace_s = 0\nsimulate_board = true', "feed.pace_s"),
        ("[speakers]\n", "speakers"),
        ("table = 3", "table"),
        ("[table", "(file)"),
    ],
)
def test_errors_name_the_key(text, key):
    with pytest.raises(ConfigError) as caught:
        parse_config(text)
    assert caught.value.key == key
    assert str(caught.value).startswith(f"{key}: ")


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(ConfigError, match=r"nothing\.toml"):
        load_config(tmp_path / "nothing.toml")
