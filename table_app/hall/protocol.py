"""The hall bus's topic tree and payloads, as values (docs/hall.md; the JSON schema is
``payload.schema.json`` beside this module).

```
jantaku/<hall>/<table>/journal   a journal row (QoS 1, not retained): (table, game, seq) is its key
jantaku/<hall>/<table>/state     the table's current state (QoS 1, retained)
jantaku/<hall>/<table>/status    "online" / "offline" (QoS 1, retained; "offline" is the last will)
jantaku/<hall>/<table>/resend    the hall asks the table to send a game's rows again from a sequence
```
A table may publish only under its own ``<table>`` (the broker's ACL, docs/hall.md), and the
hall refuses a payload whose ``table`` is not the topic's: a table cannot speak for another.
Every bad payload is a :class:`PayloadError` naming the topic and what is wrong, in one line.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any, Final

ROOT: Final = "jantaku"
VERSION: Final = 1
#: Hall and table names: they are topic levels, so no '/', '+', '#' or spaces.
NAME: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")
JOURNAL: Final = "journal"
STATE: Final = "state"
STATUS: Final = "status"
RESEND: Final = "resend"
LEAVES: Final = frozenset({JOURNAL, STATE, STATUS, RESEND})
ONLINE: Final = "online"
OFFLINE: Final = "offline"
ROW_KINDS: Final = frozenset({"event", "undo", "correct", "profile"})


class PayloadError(ValueError):
    """A message the hall cannot take: names the topic and why."""

    def __init__(self, topic: str, message: str) -> None:
        super().__init__(f"{topic}: {message}")
        self.topic = topic


def check_name(what: str, name: str) -> str:
    if NAME.fullmatch(name) is None:
        raise ValueError(f"{what}: {name!r} must be 1-64 letters, digits, '-' or '_' (it is an MQTT topic level)")
    return name


def topic(hall: str, table: str, leaf: str) -> str:
    return f"{ROOT}/{hall}/{table}/{leaf}"


def hall_filter(hall: str, leaf: str) -> str:
    """Every table's ``leaf`` in ``hall`` (a subscription)."""
    return f"{ROOT}/{hall}/+/{leaf}"


@dataclass(frozen=True, slots=True)
class TopicName:
    hall: str
    table: str
    leaf: str


def parse_topic(name: str) -> TopicName:
    parts = name.split("/")
    if len(parts) != 4 or parts[0] != ROOT or parts[3] not in LEAVES:
        raise PayloadError(name, f"not a hall topic ({ROOT}/<hall>/<table>/{'|'.join(sorted(LEAVES))})")
    if NAME.fullmatch(parts[1]) is None or NAME.fullmatch(parts[2]) is None:
        raise PayloadError(name, "hall and table names are letters, digits, '-' or '_'")
    return TopicName(parts[1], parts[2], parts[3])


@dataclass(frozen=True, slots=True)
class JournalRow:
    """One row of a table's journal, as the table journaled it (``body``: the mjai JSON text of
    an ``event`` or ``correct`` row, ``{"profile": ...}`` of a ``profile`` row)."""

    game: int
    seq: int
    at: float
    kind: str
    body: str | None
    undoes: int | None


@dataclass(frozen=True, slots=True)
class TableRow:
    """A journal row on the bus: whose (table), and what the hall needs to fold its game
    (the profile it started under, when it started)."""

    table: str
    started: float
    profile: str
    row: JournalRow

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.table, self.row.game, self.row.seq)

    def encode(self) -> bytes:
        row = self.row
        body = {
            "v": VERSION,
            "table": self.table,
            "game": row.game,
            "seq": row.seq,
            "at": row.at,
            "kind": row.kind,
            "body": row.body,
            "undoes": row.undoes,
            "started": self.started,
            "profile": self.profile,
        }
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


@dataclass(frozen=True, slots=True)
class Seats:
    """What the hall page shows of each seat (seat order 1-4)."""

    names: tuple[str, ...]
    scores: tuple[int, ...]
    riichi: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class TableState:
    """A table's game at a glance (retained on ``state``): the last journaled row's key and
    what the hall page shows; ``round`` is empty before the first hand and after the game."""

    table: str
    game: int
    seq: int
    at: float
    round_en: str
    round_ja: str
    honba: int
    riichi_sticks: int
    dealer: int | None
    seats: Seats
    last_act: str
    hands: int
    finished: bool

    def encode(self) -> bytes:
        body = {
            "v": VERSION,
            "table": self.table,
            "game": self.game,
            "seq": self.seq,
            "at": self.at,
            "round": {"en": self.round_en, "ja": self.round_ja},
            "honba": self.honba,
            "riichi_sticks": self.riichi_sticks,
            "dealer": self.dealer,
            "names": list(self.seats.names),
            "scores": list(self.seats.scores),
            "riichi": list(self.seats.riichi),
            "last_act": self.last_act,
            "hands": self.hands,
            "finished": self.finished,
        }
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


@dataclass(frozen=True, slots=True)
class ResendRequest:
    """The hall misses rows of ``game`` from ``from_seq`` on: the table sends them again."""

    game: int
    from_seq: int

    def encode(self) -> bytes:
        return json.dumps({"v": VERSION, "game": self.game, "from": self.from_seq}).encode()


def _object(topic_name: str, payload: bytes) -> dict[str, Any]:
    try:
        value = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise PayloadError(topic_name, f"not JSON text ({error})") from None
    if not isinstance(value, dict):
        raise PayloadError(topic_name, "the payload must be a JSON object")
    if value.get("v") != VERSION:
        raise PayloadError(topic_name, f"payload version {value.get('v')!r}, this hall reads {VERSION}")
    return value


def _field(topic_name: str, value: dict[str, Any], key: str, kind: Any, *, none: bool = False) -> Any:
    if key not in value:
        raise PayloadError(topic_name, f"no {key!r}")
    got = value[key]
    if got is None and none:
        return None
    if (isinstance(got, bool) and kind is not bool) or not isinstance(got, kind):
        raise PayloadError(topic_name, f"{key!r} must be {getattr(kind, '__name__', kind)}, got {got!r}")
    return got


def _count(topic_name: str, value: dict[str, Any], key: str) -> int:
    number: int = _field(topic_name, value, key, int)
    if number < 1:
        raise PayloadError(topic_name, f"{key!r} must be 1 or more, got {number}")
    return number


def _time(topic_name: str, value: dict[str, Any], key: str) -> float:
    number = float(_field(topic_name, value, key, (int, float)))
    if not math.isfinite(number):
        raise PayloadError(topic_name, f"{key!r} must be a finite number")
    return number


def _same_table(topic_name: str, where: TopicName, value: dict[str, Any]) -> str:
    table: str = _field(topic_name, value, "table", str)
    if table != where.table:
        raise PayloadError(topic_name, f"payload of table {table!r} under table {where.table!r}'s topic: refused")
    return table


def decode_row(topic_name: str, payload: bytes) -> TableRow:
    where = parse_topic(topic_name)
    value = _object(topic_name, payload)
    table = _same_table(topic_name, where, value)
    kind: str = _field(topic_name, value, "kind", str)
    if kind not in ROW_KINDS:
        raise PayloadError(topic_name, f"unknown row kind {kind!r} (one of {', '.join(sorted(ROW_KINDS))})")
    body = _field(topic_name, value, "body", str, none=True)
    undoes = _field(topic_name, value, "undoes", int, none=True)
    if kind in ("event", "correct", "profile") and body is None:
        raise PayloadError(topic_name, f"a {kind} row without a body")
    if kind in ("undo", "correct") and undoes is None:
        raise PayloadError(topic_name, f"a {kind} row that names no event (undoes)")
    game, seq = _count(topic_name, value, "game"), _count(topic_name, value, "seq")
    row = JournalRow(game, seq, _time(topic_name, value, "at"), kind, body, undoes)
    return TableRow(table, _time(topic_name, value, "started"), _field(topic_name, value, "profile", str), row)


def decode_state(topic_name: str, payload: bytes) -> TableState:
    where = parse_topic(topic_name)
    value = _object(topic_name, payload)
    table = _same_table(topic_name, where, value)
    round_value = _field(topic_name, value, "round", dict)
    names = _field(topic_name, value, "names", list)
    scores = _field(topic_name, value, "scores", list)
    riichi = _field(topic_name, value, "riichi", list)
    if not (len(names) == len(scores) == len(riichi) == 4):
        raise PayloadError(topic_name, "names, scores and riichi must have four entries each")
    dealer = _field(topic_name, value, "dealer", int, none=True)
    return TableState(
        table=table,
        game=_field(topic_name, value, "game", int),
        seq=_field(topic_name, value, "seq", int),
        at=_time(topic_name, value, "at"),
        round_en=str(round_value.get("en", "")),
        round_ja=str(round_value.get("ja", "")),
        honba=_field(topic_name, value, "honba", int),
        riichi_sticks=_field(topic_name, value, "riichi_sticks", int),
        dealer=dealer,
        seats=Seats(tuple(str(n) for n in names), tuple(int(s) for s in scores), tuple(bool(r) for r in riichi)),
        last_act=_field(topic_name, value, "last_act", str),
        hands=_field(topic_name, value, "hands", int),
        finished=_field(topic_name, value, "finished", bool),
    )


def decode_resend(topic_name: str, payload: bytes) -> ResendRequest:
    value = _object(topic_name, payload)
    return ResendRequest(_count(topic_name, value, "game"), _count(topic_name, value, "from"))


def decode_status(topic_name: str, payload: bytes) -> bool:
    """``True``: online."""
    text = payload.decode("utf-8", "replace").strip()
    if text not in (ONLINE, OFFLINE):
        raise PayloadError(topic_name, f"status must be {ONLINE!r} or {OFFLINE!r}, got {text[:40]!r}")
    return text == ONLINE
