"""tenhou.net/6 JSON → games.

The format keeps, per hand and per player, the starting tiles, the list of tiles taken (draws
and calls) and the list of tiles given (discards, riichi, added and closed kans); the order
across players is not written down. It is rebuilt by playing the hand: the dealer draws
first; after each discard, a player whose next "take" is a call on that tile from that seat
calls it (pon and kan before chi), otherwise the next player draws. Codes: 11-47 tiles,
51-53 red fives, 60 a tsumogiri in a discard list; strings are calls: ``c`` chi, ``p`` pon,
``m`` open kan (in the takes), ``k`` added kan, ``a`` closed kan, ``r`` riichi (in the gives);
the letter stands just before the called tile, and its place says where it came from.
A file holds one game, as one JSON object or one object per hand per line.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Sequence
from typing import Any, Final

from table_app.domain.notation import from_tenhou6
from table_app.domain.seat import Seat, Wind
from table_app.domain.tile import Tile
from table_app.logs.errors import LogReadError
from table_app.rules.events import (
    Ankan,
    Chi,
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
    StartGame,
    StartKyoku,
    Tsumo,
)
from table_app.rules.record import GameLog, HandEnding, HandRecord, LogRules, WinRecord

TSUMOGIRI: Final = 60
_DRAWS: Final = {
    "流局": DrawKind.EXHAUSTIVE,
    "全員聴牌": DrawKind.EXHAUSTIVE,
    "全員不聴": DrawKind.EXHAUSTIVE,
    "流し満貫": DrawKind.NAGASHI_MANGAN,
    "九種九牌": DrawKind.NINE_TERMINALS,
    "四家立直": DrawKind.FOUR_RIICHI,
    "三家和了": DrawKind.TRIPLE_RON,
    "四槓散了": DrawKind.FOUR_KANS,
    "四風連打": DrawKind.FOUR_WINDS,
}
_POINTS: Final = re.compile(r"(\d+)(?:-(\d+))?点(∀)?")
_HAN_FU: Final = re.compile(r"(\d+)符(\d+)飜")
# Where the call letter stands → turn distance from the caller to the seat called from.
_PON_SOURCE: Final = {0: 3, 2: 2, 4: 1}
_KAN_SOURCE: Final = {0: 3, 2: 2, 6: 1}


class _BadHandError(ValueError):
    pass


def _codes(text: str) -> list[int]:
    return [int(text[i : i + 2]) for i in range(0, len(text), 2)]


def _call(text: str) -> tuple[str, int, Tile, tuple[Tile, ...]]:
    """Split a call string into (letter, letter position, called tile, the caller's own tiles)."""
    position = next((i for i, ch in enumerate(text) if ch.isalpha()), -1)
    if position < 0:
        raise _BadHandError(f"no call letter in {text!r}")
    letter = text[position]
    called = int(text[position + 1 : position + 3])
    others = _codes(text[:position] + text[position + 3 :])
    return letter, position, from_tenhou6(called), tuple(from_tenhou6(c) for c in others)


class _HandPlayer:
    """Plays one hand of a tenhou.net/6 log back into events."""

    def __init__(self, hand: Sequence[Any]) -> None:
        round_index, honba, sticks = (int(v) for v in hand[0][:3])
        self.oya = Seat(round_index % 4)
        self.scores = tuple(int(s) for s in hand[1])
        self.doras = [from_tenhou6(c) for c in hand[2]]
        self.uras = tuple(from_tenhou6(c) for c in hand[3])
        self.haipai = [tuple(from_tenhou6(c) for c in hand[4 + 3 * s]) for s in range(4)]
        self.takes = [deque(hand[5 + 3 * s]) for s in range(4)]
        self.gives = [deque(hand[6 + 3 * s]) for s in range(4)]
        self.result = hand[16]
        self.events: list[GameEvent] = [
            StartKyoku(
                Wind(round_index // 4 % 4),
                round_index % 4 + 1,
                honba,
                sticks,
                self.oya,
                self.scores,
                self.doras[0],
                tuple(self.haipai),
            )
        ]
        self.dora_shown = 1
        self.last_drawn: dict[Seat, Tile] = {}
        self.last_given: Tile | None = None

    def _dora(self) -> None:
        if self.dora_shown < len(self.doras):
            self.events.append(Dora(self.doras[self.dora_shown]))
            self.dora_shown += 1

    def play(self) -> None:
        seat = self.oya
        draw = True
        pending_open_kan_dora = False
        while True:
            if draw:
                if not self.takes[seat]:
                    return
                take = self.takes[seat].popleft()
                if isinstance(take, str):
                    raise _BadHandError(f"seat {int(seat)} should draw, the log has the call {take!r}")
                tile = from_tenhou6(int(take))
                self.last_drawn[seat] = tile
                self.events.append(Tsumo(seat, tile))
                if pending_open_kan_dora:
                    self._dora()
                    pending_open_kan_dora = False
            if not self.gives[seat]:
                return
            give = self.gives[seat].popleft()
            riichi = False
            if isinstance(give, str):
                if "r" in give:
                    riichi = True
                    give = int(give[give.index("r") + 1 :])
                else:
                    letter, _, tile, own = _call(give)
                    if letter == "a":
                        self.events.append(Ankan(seat, (*own, tile)))
                        self._dora()
                    elif letter == "k":
                        self.events.append(Kakan(seat, tile, own[:3] if len(own) > 3 else own))
                        self.last_given = tile
                        pending_open_kan_dora = True
                    else:
                        raise _BadHandError(f"unknown give {give!r}")
                    draw = True
                    continue
            if give == 0:  # the slot after an open kan: the replacement draw comes next
                draw = True
                continue
            tile = self.last_drawn[seat] if give == TSUMOGIRI else from_tenhou6(int(give))
            if riichi:
                self.events.append(Reach(seat))
            self.events.append(Dahai(seat, tile, give == TSUMOGIRI))
            self.last_given = tile
            caller = self._caller(seat, tile)
            if riichi and not self._ronned(seat):
                self.events.append(ReachAccepted(seat))
            if caller is None:
                seat, draw = seat.next, True
                continue
            take = self.takes[caller].popleft()
            letter, _, called, own = _call(take)
            if letter == "c":
                self.events.append(Chi(caller, seat, called, own))
                draw = False
            elif letter == "p":
                self.events.append(Pon(caller, seat, called, own))
                draw = False
            else:
                self.events.append(Daiminkan(caller, seat, called, own))
                pending_open_kan_dora = True
                draw = False  # the give list holds a 0 before the replacement draw
            seat = caller

    def _caller(self, discarder: Seat, tile: Tile) -> Seat | None:
        candidates = []
        for seat in Seat:
            if seat == discarder or not self.takes[seat] or not isinstance(self.takes[seat][0], str):
                continue
            letter, position, called, _ = _call(self.takes[seat][0])
            if called != tile:
                continue
            distance = (discarder - seat) % 4
            if letter == "c" and distance == 3:
                candidates.append((1, seat))
            elif (letter == "p" and _PON_SOURCE.get(position) == distance) or (
                letter == "m" and _KAN_SOURCE.get(position) == distance
            ):
                candidates.append((0, seat))
        return min(candidates)[1] if candidates else None

    def _ronned(self, discarder: Seat) -> bool:
        """Was this discard ronned? Only if the hand ends on it: nothing is left to play."""
        if not self.result or self.result[0] != "和了":
            return False
        if any(self.takes[s] or self.gives[s] for s in Seat):
            return False
        return any(int(info[1]) == discarder and int(info[0]) != discarder for info in self.result[2::2])

    def finish(self) -> HandRecord:
        name = self.result[0]
        if name == "和了":
            wins = []
            for deltas, info in zip(self.result[1::2], self.result[2::2], strict=True):
                who, target, pao = Seat(int(info[0])), Seat(int(info[1])), int(info[2])
                tsumo = who == target
                pai = self.last_drawn[who] if tsumo else self.last_given
                if pai is None:
                    raise _BadHandError("a win before any tile was played")
                self.events.append(Hora(who, target, pai, self.uras))
                wins.append(
                    self._win_record(
                        who, target, pao=pao, deltas=[int(d) for d in deltas], text=str(info[3]), tsumo=tsumo
                    )
                )
            self.events.append(EndKyoku())
            total = tuple(sum(d) for d in zip(*(w.deltas or () for w in wins), strict=True))
            return HandRecord(HandEnding.WIN, total, tuple(wins))
        kind = _DRAWS.get(name)
        if kind is None:
            raise _BadHandError(f"unknown result {name!r}")
        self.events.append(Ryukyoku(kind))
        self.events.append(EndKyoku())
        deltas = tuple(int(d) for d in self.result[1]) if len(self.result) > 1 else (0, 0, 0, 0)
        return HandRecord(HandEnding.of_draw(kind), deltas)

    def _win_record(self, who: Seat, target: Seat, *, pao: int, deltas: list[int], text: str, tsumo: bool) -> WinRecord:
        points = None
        match = _POINTS.search(text)
        if match:
            first, second, everyone = int(match.group(1)), match.group(2), match.group(3)
            if not tsumo:
                points = first
            elif everyone or second is None:
                points = 3 * first
            else:
                points = 2 * first + int(second)
        han_fu = _HAN_FU.search(text)
        fu, han = (int(han_fu.group(1)), int(han_fu.group(2))) if han_fu else (None, None)
        pao_seat = Seat(pao) if pao != who else None
        return WinRecord(who, target, points, han, fu, tuple(deltas), pao_seat)


def _objects(text: str, source: str) -> list[dict[str, Any]]:
    stripped = text.strip()
    try:
        return [json.loads(stripped)]
    except json.JSONDecodeError:
        pass
    objects = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            objects.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise LogReadError(source, f"line {number}, column {error.colno}", f"bad JSON ({error.msg})") from error
    return objects


def read_tenhou6_text(text: str, source: str) -> tuple[GameLog, ...]:
    objects = _objects(text, source)
    events: list[GameEvent] = []
    records: list[HandRecord] = []
    red = True
    for number, obj in enumerate(objects, start=1):
        if not events:
            events.append(StartGame(tuple(obj.get("name", ("", "", "", "")))))
            red = bool(obj.get("rule", {}).get("aka", 1))
        for hand_number, hand in enumerate(obj.get("log", ()), start=1):
            where = f"object {number}, hand {hand_number}" if len(objects) > 1 else f"hand {hand_number}"
            try:
                player = _HandPlayer(hand)
                player.play()
                records.append(player.finish())
            except (_BadHandError, ValueError, IndexError, KeyError, TypeError) as error:
                raise LogReadError(source, where, f"cannot rebuild the hand ({error})") from error
            events.extend(player.events)
    if len(events) <= 1:
        raise LogReadError(source, "start", "no hands in this tenhou.net/6 log")
    # The format has no final tally nor an explicit end: the last hand is taken as the end.
    events.append(EndGame())
    rules = LogRules(red_fives=red)
    return (GameLog(source, 4, tuple(events), tuple(records), None, True, rules),)
