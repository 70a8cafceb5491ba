"""The event ⇄ mjai JSON codec: every event of real logs survives the round trip."""

from __future__ import annotations

import json

import pytest

from table_app.domain.notation import parse_mjai
from table_app.domain.seat import Seat
from table_app.logs import read_log
from table_app.rules.events import Chombo, DrawKind, Hora, ProfileChange, Ryukyoku, ShownHand
from table_app.rules.mjai_codec import EventCodecError, decode_event, encode_event, event_to_mjai


def _samples(logs_dir):
    files = [
        next((logs_dir / "mjai").iterdir()),
        sorted((logs_dir / "tenhou6_json").iterdir())[0],
        sorted((logs_dir / "mjx_fixtures").iterdir())[:6],
    ]
    return [files[0], files[1], *files[2]]


def test_real_log_events_round_trip(logs_dir):
    seen_types: set[str] = set()
    for path in _samples(logs_dir):
        for game in read_log(path):
            for event in game.events:
                text = encode_event(event)
                assert decode_event(text) == event, text
                seen_types.add(json.loads(text)["type"])
    # the sample covers the whole ordinary vocabulary
    assert {"start_kyoku", "tsumo", "dahai", "pon", "chi", "reach", "hora", "ryukyoku", "end_game"} <= seen_types


def test_table_additions_round_trip():
    hand = tuple(parse_mjai(t) for t in ("1m", "2m", "3m", "5pr", "E", "E"))
    for event in (
        Hora(Seat.S1, Seat.S3, parse_mjai("4m"), (parse_mjai("N"),), hand),
        Ryukyoku(DrawKind.EXHAUSTIVE, (ShownHand(Seat.S2, hand),)),
        Ryukyoku(DrawKind.NINE_TERMINALS, (), Seat.S0),
        Chombo(Seat.S2, "false_win"),
        ProfileChange("jpml"),
        ProfileChange("tenhou+east+no_red"),
    ):
        assert decode_event(encode_event(event)) == event


def test_unknown_tiles_are_question_marks():
    event = decode_event('{"type":"tsumo","actor":2,"pai":"?"}')
    assert event_to_mjai(event) == {"type": "tsumo", "actor": 2, "pai": "?"}


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("{", "not JSON"),
        ("[1]", "not a JSON object"),
        ('{"type":"nonsense"}', "unknown event type"),
        ('{"type":"dahai","actor":1}', "bad dahai"),
        ('{"type":"tsumo","actor":1,"pai":"9z"}', "bad tsumo"),
        ('{"type":"profile_change","profile":"house"}', "bad profile_change.*unknown rule profile 'house'"),
    ],
)
def test_bad_text_is_a_codec_error(text, named):
    with pytest.raises(EventCodecError, match=named):
        decode_event(text)
