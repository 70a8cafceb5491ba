"""Game events ⇄ mjai JSON: the journal's row format, the mjai export, and the mjai log reader.

Exactly mjai's names and fields, so a journal row is an mjai log line. What a real table
sees beyond mjai is carried in extra fields mjai readers ignore: the kind of draw and the
hands laid open on ``ryukyoku``, the laid-open hand on ``hora``; ``chombo`` (the referee's
ruling) and ``profile_change`` (the rule profile from there on, chosen between hands) are events
of their own that mjai tools skip as unknown.

Encoding then decoding gives back an equal event (tested on every event of the real logs).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from table_app.domain.notation import parse_mjai, to_mjai
from table_app.domain.seat import Seat, Wind
from table_app.domain.tile import Tile
from table_app.rules.events import (
    Ankan,
    Chi,
    Chombo,
    Dahai,
    Daiminkan,
    Dora,
    DrawKind,
    EndGame,
    EndKyoku,
    GameEvent,
    Hora,
    Kakan,
    Pon,
    ProfileChange,
    Reach,
    ReachAccepted,
    Ryukyoku,
    ShownHand,
    StartGame,
    StartKyoku,
    Tsumo,
)
from table_app.rules.profiles import profile_named

_WIND_LETTERS = "ESWN"


class EventCodecError(ValueError):
    """A JSON text that is not an event this codec knows (names what is wrong)."""


def _tiles(tiles: tuple[Tile, ...]) -> list[str]:
    return [to_mjai(t) for t in tiles]


def _parse_tiles(values: Any) -> tuple[Tile, ...]:
    return tuple(parse_mjai(str(v)) for v in values)


def event_to_mjai(event: GameEvent) -> dict[str, Any]:
    """The mjai object for ``event`` (the JSON edge: a dict, serialised by the caller)."""
    match event:
        case StartGame():
            return {"type": "start_game", "names": list(event.names)}
        case StartKyoku():
            return {
                "type": "start_kyoku",
                "bakaze": _WIND_LETTERS[event.bakaze],
                "kyoku": event.kyoku,
                "honba": event.honba,
                "kyotaku": event.kyotaku,
                "oya": int(event.oya),
                "scores": list(event.scores),
                "dora_marker": to_mjai(event.dora_marker),
                "tehais": [_tiles(hand) for hand in event.tehais],
            }
        case Tsumo():
            return {"type": "tsumo", "actor": int(event.actor), "pai": to_mjai(event.pai)}
        case Dahai():
            return {"type": "dahai", "actor": int(event.actor), "pai": to_mjai(event.pai), "tsumogiri": event.tsumogiri}
        case Chi() | Pon() | Daiminkan():
            return {
                "type": type(event).__name__.lower(),
                "actor": int(event.actor),
                "target": int(event.target),
                "pai": to_mjai(event.pai),
                "consumed": _tiles(event.consumed),
            }
        case Kakan():
            return {
                "type": "kakan",
                "actor": int(event.actor),
                "pai": to_mjai(event.pai),
                "consumed": _tiles(event.consumed),
            }
        case Ankan():
            return {"type": "ankan", "actor": int(event.actor), "consumed": _tiles(event.consumed)}
        case Dora():
            return {"type": "dora", "dora_marker": to_mjai(event.dora_marker)}
        case Reach():
            return {"type": "reach", "actor": int(event.actor)}
        case ReachAccepted():
            return {"type": "reach_accepted", "actor": int(event.actor)}
        case Hora():
            raw: dict[str, Any] = {
                "type": "hora",
                "actor": int(event.actor),
                "target": int(event.target),
                "pai": to_mjai(event.pai),
                "ura_markers": _tiles(event.ura_markers),
            }
            if event.hand is not None:
                raw["hand"] = _tiles(event.hand)
            return raw
        case Ryukyoku():
            raw = {"type": "ryukyoku", "kind": event.kind.value}
            if event.shown:
                raw["shown"] = [{"seat": int(s.seat), "tiles": _tiles(s.tiles)} for s in event.shown]
            if event.actor is not None:
                raw["actor"] = int(event.actor)
            return raw
        case Chombo():
            return {"type": "chombo", "actor": int(event.actor), "reason": event.reason}
        case ProfileChange():
            return {"type": "profile_change", "profile": event.profile}
        case EndKyoku():
            return {"type": "end_kyoku"}
        case EndGame():
            return {"type": "end_game"}
    raise EventCodecError(f"no mjai form for {event!r}")


def _start_kyoku(e: Mapping[str, Any]) -> GameEvent:
    return StartKyoku(
        bakaze=Wind(_WIND_LETTERS.index(e["bakaze"])),
        kyoku=int(e["kyoku"]),
        honba=int(e["honba"]),
        kyotaku=int(e["kyotaku"]),
        oya=Seat(e["oya"]),
        scores=tuple(int(s) for s in e["scores"]),
        dora_marker=parse_mjai(e["dora_marker"]),
        tehais=tuple(_parse_tiles(t) for t in e["tehais"]),
    )


def _call(kind: type[Chi] | type[Pon] | type[Daiminkan]) -> Callable[[Mapping[str, Any]], GameEvent]:
    return lambda e: kind(Seat(e["actor"]), Seat(e["target"]), parse_mjai(e["pai"]), _parse_tiles(e["consumed"]))


def _hora(e: Mapping[str, Any]) -> GameEvent:
    hand = _parse_tiles(e["hand"]) if "hand" in e else None
    return Hora(Seat(e["actor"]), Seat(e["target"]), parse_mjai(e["pai"]), _parse_tiles(e.get("ura_markers", ())), hand)


def _ryukyoku(e: Mapping[str, Any]) -> GameEvent:
    shown = tuple(ShownHand(Seat(s["seat"]), _parse_tiles(s["tiles"])) for s in e.get("shown", ()))
    actor = Seat(e["actor"]) if e.get("actor") is not None else None
    return Ryukyoku(DrawKind(e.get("kind", DrawKind.UNSPECIFIED.value)), shown, actor)


def _profile_change(e: Mapping[str, Any]) -> GameEvent:
    name = str(e["profile"])
    profile_named(name)  # a profile this jantaku knows (ValueError, named, if not)
    return ProfileChange(name)


_DECODERS: dict[str, Callable[[Mapping[str, Any]], GameEvent]] = {
    "start_game": lambda e: StartGame(tuple(str(n) for n in e.get("names", ("", "", "", "")))),
    "start_kyoku": _start_kyoku,
    "tsumo": lambda e: Tsumo(Seat(e["actor"]), parse_mjai(e["pai"])),
    "dahai": lambda e: Dahai(Seat(e["actor"]), parse_mjai(e["pai"]), bool(e["tsumogiri"])),
    "chi": _call(Chi),
    "pon": _call(Pon),
    "daiminkan": _call(Daiminkan),
    "kakan": lambda e: Kakan(Seat(e["actor"]), parse_mjai(e["pai"]), _parse_tiles(e["consumed"])),
    "ankan": lambda e: Ankan(Seat(e["actor"]), _parse_tiles(e["consumed"])),
    "dora": lambda e: Dora(parse_mjai(e["dora_marker"])),
    "reach": lambda e: Reach(Seat(e["actor"])),
    "reach_accepted": lambda e: ReachAccepted(Seat(e["actor"])),
    "hora": _hora,
    "ryukyoku": _ryukyoku,
    "chombo": lambda e: Chombo(Seat(e["actor"]), str(e.get("reason", ""))),
    "profile_change": _profile_change,
    "end_kyoku": lambda _e: EndKyoku(),
    "end_game": lambda _e: EndGame(),
}


#: The mjai ``type`` values that are game events (others, such as ``hello``, are protocol).
EVENT_TYPES = frozenset(_DECODERS)


def event_from_mjai(raw: Mapping[str, Any]) -> GameEvent:
    kind = raw.get("type")
    decoder = _DECODERS.get(str(kind))
    if decoder is None:
        raise EventCodecError(f"unknown event type {kind!r}")
    try:
        return decoder(raw)
    except (KeyError, TypeError, ValueError) as error:
        raise EventCodecError(f"bad {kind} event ({type(error).__name__}: {error})") from error


def encode_event(event: GameEvent) -> str:
    return json.dumps(event_to_mjai(event), ensure_ascii=False, separators=(",", ":"))


def decode_event(text: str) -> GameEvent:
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as error:
        raise EventCodecError(f"not JSON ({error.msg} at column {error.colno})") from error
    if not isinstance(raw, dict):
        raise EventCodecError("not a JSON object")
    return event_from_mjai(raw)
