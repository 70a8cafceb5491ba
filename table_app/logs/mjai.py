"""mjai JSON lines → games.

mjai's own ``hora`` and ``ryukyoku`` carry the payments (``deltas``): they become the log's
record. A ``hora`` without ``pai`` wins on the last tile drawn, discarded or added to a kan;
a ``ryukyoku`` does not say which draw it was (the rules core infers it).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from table_app.domain.notation import parse_mjai
from table_app.domain.seat import Seat, Wind
from table_app.domain.tile import Tile
from table_app.logs.errors import LogReadError
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
    Reach,
    ReachAccepted,
    Ryukyoku,
    ShownHand,
    StartGame,
    StartKyoku,
    Tsumo,
)
from table_app.rules.record import FinalRecord, GameLog, HandEnding, HandRecord, WinRecord

_WINDS = {"E": Wind.EAST, "S": Wind.SOUTH, "W": Wind.WEST, "N": Wind.NORTH}


def _tiles(values: Sequence[str]) -> tuple[Tile, ...]:
    return tuple(parse_mjai(v) for v in values)


def _deltas(values: Sequence[int] | None) -> tuple[int, ...] | None:
    return None if values is None else tuple(int(v) for v in values)


class _MjaiGame:
    def __init__(self, source: str) -> None:
        self.source = source
        self.events: list[GameEvent] = []
        self.hands: list[HandRecord] = []
        self.wins: list[WinRecord] = []
        self.draw: HandRecord | None = None
        self.final: FinalRecord | None = None
        self.complete = False
        self.last_tile: Tile | None = None
        self.handlers: dict[str, Callable[[Mapping[str, Any]], GameEvent | None]] = {
            "start_game": lambda e: StartGame(tuple(e.get("names", ("", "", "", "")))),
            "start_kyoku": self._start_kyoku,
            "tsumo": lambda e: self._seen(Tsumo(Seat(e["actor"]), parse_mjai(e["pai"]))),
            "dahai": lambda e: self._seen(Dahai(Seat(e["actor"]), parse_mjai(e["pai"]), bool(e.get("tsumogiri")))),
            "chi": lambda e: Chi(Seat(e["actor"]), Seat(e["target"]), parse_mjai(e["pai"]), _tiles(e["consumed"])),
            "pon": lambda e: Pon(Seat(e["actor"]), Seat(e["target"]), parse_mjai(e["pai"]), _tiles(e["consumed"])),
            "daiminkan": lambda e: Daiminkan(
                Seat(e["actor"]), Seat(e["target"]), parse_mjai(e["pai"]), _tiles(e["consumed"])
            ),
            "kakan": lambda e: self._seen(Kakan(Seat(e["actor"]), parse_mjai(e["pai"]), _tiles(e["consumed"]))),
            "ankan": lambda e: Ankan(Seat(e["actor"]), _tiles(e["consumed"])),
            "dora": lambda e: Dora(parse_mjai(e["dora_marker"])),
            "reach": lambda e: Reach(Seat(e["actor"])),
            "reach_accepted": lambda e: ReachAccepted(Seat(e["actor"])),
            "hora": self._hora,
            "chombo": self._chombo,
            "ryukyoku": self._ryukyoku,
            "end_kyoku": self._end_kyoku,
            "end_game": self._end_game,
        }

    def _seen(self, event: Tsumo | Dahai | Kakan) -> GameEvent:
        self.last_tile = event.pai
        return event

    def _start_kyoku(self, e: Mapping[str, Any]) -> GameEvent:
        return StartKyoku(
            bakaze=_WINDS[e["bakaze"]],
            kyoku=int(e["kyoku"]),
            honba=int(e["honba"]),
            kyotaku=int(e["kyotaku"]),
            oya=Seat(e["oya"]),
            scores=tuple(int(s) for s in e["scores"]),
            dora_marker=parse_mjai(e["dora_marker"]),
            tehais=tuple(_tiles(t) for t in e["tehais"]),
        )

    def _hora(self, e: Mapping[str, Any]) -> GameEvent:
        pai = parse_mjai(e["pai"]) if "pai" in e else self.last_tile
        if pai is None:
            raise ValueError("hora before any tile was played")
        ura = _tiles(e.get("ura_markers", e.get("uradora_markers", ())))
        actor, target = Seat(e["actor"]), Seat(e["target"])
        self.wins.append(
            WinRecord(actor, target, e.get("hora_points"), e.get("fan"), e.get("fu"), _deltas(e.get("deltas")))
        )
        hand = _tiles(e["hand"]) if "hand" in e else None  # jantaku's exports: the hand laid open
        return Hora(actor, target, pai, ura, hand)

    def _ryukyoku(self, e: Mapping[str, Any]) -> GameEvent:
        # jantaku's exports say which draw it was and which hands were shown; mjai does not.
        kind = DrawKind(e.get("kind", DrawKind.UNSPECIFIED.value))
        shown = tuple(ShownHand(Seat(s["seat"]), _tiles(s["tiles"])) for s in e.get("shown", ()))
        actor = Seat(e["actor"]) if e.get("actor") is not None else None
        self.draw = HandRecord(HandEnding.of_draw(kind), _deltas(e.get("deltas")))
        return Ryukyoku(kind, shown, actor)

    def _chombo(self, e: Mapping[str, Any]) -> GameEvent:
        self.draw = HandRecord(HandEnding.CHOMBO, _deltas(e.get("deltas")))
        return Chombo(Seat(e["actor"]), str(e.get("reason", "")))

    def _end_kyoku(self, _event: Mapping[str, Any]) -> GameEvent:
        if self.wins:
            parts = [w.deltas for w in self.wins]
            total = None if any(p is None for p in parts) else tuple(sum(v) for v in zip(*parts, strict=True))
            self.hands.append(HandRecord(HandEnding.WIN, total, tuple(self.wins)))
        elif self.draw is not None:
            self.hands.append(self.draw)
        self.wins, self.draw = [], None
        return EndKyoku()

    def _end_game(self, e: Mapping[str, Any]) -> GameEvent:
        self.complete = True
        if "scores" in e:
            self.final = FinalRecord(tuple(int(s) for s in e["scores"]))
        return EndGame()


def read_mjai_text(text: str, source: str) -> tuple[GameLog, ...]:
    game = _MjaiGame(source)
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            handler = game.handlers.get(raw["type"])
            if handler is None:
                continue  # none, hello and other protocol messages
            event = handler(raw)
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
            raise LogReadError(source, f"line {number}", f"bad mjai event ({error})") from error
        if event is not None:
            game.events.append(event)
    if not game.events:
        raise LogReadError(source, "end", "no mjai events")
    return (GameLog(source, 4, tuple(game.events), tuple(game.hands), game.final, game.complete),)
