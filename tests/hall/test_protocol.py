"""The hall bus's payloads: what a table sends is what the schema documents and what the hall
reads back; a bad payload is refused in one line naming the topic and the fault."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from table_app.hall import protocol
from table_app.hall.protocol import (
    JournalRow,
    PayloadError,
    ResendRequest,
    Seats,
    TableRow,
    TableState,
    decode_resend,
    decode_row,
    decode_state,
    decode_status,
    parse_topic,
    topic,
)

SCHEMA = json.loads((Path(protocol.__file__).parent / "payload.schema.json").read_text(encoding="utf-8"))
ROW = TableRow(
    "t1",
    10.0,
    "tenhou",
    JournalRow(3, 17, 12.5, "event", '{"type":"dahai","actor":0,"pai":"5m","tsumogiri":false}', None),
)
SEATS = Seats(("a", "b", "c", "d"), (25000,) * 4, (True, False, False, False))
STATE = TableState("t1", 3, 17, 12.5, "East 1", "東1局", 0, 1, 0, SEATS, "East (a) discards 5m", 0, False)
JOURNAL_TOPIC = topic("club", "t1", "journal")
STATE_TOPIC = topic("club", "t1", "state")


@pytest.mark.parametrize(
    ("payload", "definition"),
    [(ROW.encode(), "journal"), (STATE.encode(), "state"), (ResendRequest(3, 5).encode(), "resend")],
)
def test_every_payload_has_exactly_the_fields_the_schema_documents(payload, definition):
    schema = SCHEMA["$defs"][definition]
    body = json.loads(payload)
    assert set(body) == set(schema["required"]) == set(schema["properties"])


def test_what_a_table_sends_the_hall_reads_back_the_same():
    assert decode_row(JOURNAL_TOPIC, ROW.encode()) == ROW
    assert decode_state(STATE_TOPIC, STATE.encode()) == STATE
    assert decode_resend(topic("club", "t1", "resend"), ResendRequest(3, 5).encode()) == ResendRequest(3, 5)
    assert decode_status(topic("club", "t1", "status"), b"offline") is False


@pytest.mark.parametrize(
    ("where", "payload", "message"),
    [
        (JOURNAL_TOPIC, b"\xff", "not JSON text"),
        (JOURNAL_TOPIC, b"[1]", "must be a JSON object"),
        (JOURNAL_TOPIC, ROW.encode().replace(b'"v":1', b'"v":2'), "payload version 2"),
        (topic("club", "t2", "journal"), ROW.encode(), "payload of table 't1' under table 't2'"),
        (JOURNAL_TOPIC, ROW.encode().replace(b'"seq":17', b'"seq":0'), "'seq' must be 1 or more"),
        (JOURNAL_TOPIC, ROW.encode().replace(b'"kind":"event"', b'"kind":"delete"'), "unknown row kind 'delete'"),
        (JOURNAL_TOPIC, ROW.encode().replace(b'"kind":"event"', b'"kind":"undo"'), "names no event"),
        (JOURNAL_TOPIC, ROW.encode().replace(b'"game":3', b'"game":true'), "'game' must be int"),
        ("jantaku/club/t1/other", ROW.encode(), "not a hall topic"),
        ("jantaku/club/t+/journal", ROW.encode(), "hall and table names are"),
    ],
)
def test_a_bad_payload_is_refused_in_one_line_naming_the_topic(where, payload, message):
    with pytest.raises(PayloadError) as refused:
        decode_row(where, payload)
    text = str(refused.value)
    assert text.startswith(where + ": ")
    assert message in text
    assert "\n" not in text


def test_names_are_single_topic_levels():
    assert parse_topic("jantaku/club/t-01_a/state").table == "t-01_a"
    for bad in ("a/b", "+", "#", "", "x" * 65, "t 1"):
        with pytest.raises(ValueError, match="MQTT topic level"):
            protocol.check_name("hall.table", bad)
