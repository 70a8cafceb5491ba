"""A journaled game as tenhou.net/6 JSON (what Tenhou's viewer and its reviewers read).

The format needs every tile: each player's starting hand and every draw. A game refereed
from a camera sees only public tiles, so its journal holds ``?`` for the rest; such a game
cannot be written as tenhou.net/6 without inventing tiles, which this writer refuses to do
(``TenhouExportError`` says so; the mjai export has no such limit). Games whose tiles are
all known (imported logs, or tables that record the hands) are written in full, and read
back by :mod:`table_app.logs.tenhou6` to the same events.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from table_app.domain.notation import to_tenhou6
from table_app.domain.seat import Seat
from table_app.domain.tile import Tile
from table_app.rules.events import (
    Ankan,
    Chi,
    Chombo,
    Dahai,
    Daiminkan,
    Dora,
    DrawKind,
    EndKyoku,
    GameEvent,
    Hora,
    Kakan,
    Pon,
    Reach,
    Ryukyoku,
    StartGame,
    StartKyoku,
    Tsumo,
)
from table_app.rules.fold import apply, new_game
from table_app.rules.profiles import RuleProfile

_DRAW_NAMES = {
    DrawKind.EXHAUSTIVE: "流局",
    DrawKind.UNSPECIFIED: "流局",
    DrawKind.NAGASHI_MANGAN: "流し満貫",
    DrawKind.NINE_TERMINALS: "九種九牌",
    DrawKind.FOUR_RIICHI: "四家立直",
    DrawKind.TRIPLE_RON: "三家和了",
    DrawKind.FOUR_KANS: "四槓散了",
    DrawKind.FOUR_WINDS: "四風連打",
}
_PON_LETTER_AT = {3: 0, 2: 1, 1: 2}  # turn distance caller → discarder: where the letter stands (in tiles)
_KAN_LETTER_AT = {3: 0, 2: 1, 1: 3}


class TenhouExportError(ValueError):
    pass


def _code(tile: Tile, where: str) -> int:
    if tile.is_unknown:
        raise TenhouExportError(
            f"{where}: a tile the referee did not see; tenhou.net/6 needs every tile (use mjai, or --fill-hidden)"
        )
    return to_tenhou6(tile)


def _codes(tiles: Iterable[Tile], where: str) -> str:
    return "".join(f"{_code(t, where):02d}" for t in tiles)


def _letter_call(letter: str, at: int, called: Tile, own: tuple[Tile, ...], where: str) -> str:
    parts = [f"{_code(t, where):02d}" for t in own]
    parts.insert(at, f"{letter}{_code(called, where):02d}")
    return "".join(parts)


class _Hand:
    def __init__(self, start: StartKyoku, where: str) -> None:
        self.where = where
        self.head = [int(start.bakaze) * 4 + start.kyoku - 1, start.honba, start.kyotaku]
        self.scores = list(start.scores)
        self.doras = [_code(start.dora_marker, where)]
        self.uras: list[int] = []
        self.haipai = [[_code(t, where) for t in tiles] for tiles in start.tehais]
        self.takes: list[list[int | str]] = [[], [], [], []]
        self.gives: list[list[int | str]] = [[], [], [], []]
        self.last_drawn: dict[Seat, Tile] = {}
        self.riichi: set[Seat] = set()
        self.result: list[Any] = []

    def add(self, event: GameEvent) -> None:
        where = self.where
        match event:
            case Tsumo():
                self.takes[event.actor].append(_code(event.pai, where))
                self.last_drawn[event.actor] = event.pai
            case Reach():
                self.riichi.add(event.actor)
            case Dahai():
                code: int | str = 60 if event.tsumogiri else _code(event.pai, where)
                if event.actor in self.riichi:
                    self.riichi.discard(event.actor)
                    code = f"r{code}"
                self.gives[event.actor].append(code)
            case Chi():
                self.takes[event.actor].append(_letter_call("c", 0, event.pai, event.consumed, where))
            case Pon():
                at = _PON_LETTER_AT[(event.target - event.actor) % 4]
                self.takes[event.actor].append(_letter_call("p", at, event.pai, event.consumed, where))
            case Daiminkan():
                at = _KAN_LETTER_AT[(event.target - event.actor) % 4]
                self.takes[event.actor].append(_letter_call("m", at, event.pai, event.consumed, where))
                self.gives[event.actor].append(0)  # the slot before the replacement draw
            case Kakan():
                self.gives[event.actor].append(_letter_call("k", 0, event.pai, event.consumed, where))
            case Ankan():
                own, last = event.consumed[:-1], event.consumed[-1]
                self.gives[event.actor].append(_letter_call("a", len(own), last, own, where))
            case Dora():
                self.doras.append(_code(event.dora_marker, where))
            case Chombo():
                raise TenhouExportError(f"{where}: a chombo has no tenhou.net/6 form (use mjai)")

    def row(self) -> list[Any]:
        row: list[Any] = [self.head, self.scores, self.doras, self.uras]
        for seat in range(4):
            row.extend([self.haipai[seat], self.takes[seat], self.gives[seat]])
        row.append(self.result)
        return row


def tenhou6_game(events: Iterable[GameEvent], profile: RuleProfile, title: str = "jantaku") -> dict[str, Any]:
    """The tenhou.net/6 object (the JSON edge) for a journaled game."""
    state = new_game(profile)
    names: tuple[str, ...] = ("", "", "", "")
    rows: list[list[Any]] = []
    hand: _Hand | None = None
    wins: list[list[Any]] = []
    draw: DrawKind | None = None
    for number, event in enumerate(events, start=1):
        state = apply(state, event)
        if isinstance(event, StartGame):
            names = event.names
        elif isinstance(event, StartKyoku):
            hand, wins, draw = _Hand(event, f"event {number}"), [], None
        elif hand is None:
            continue
        elif isinstance(event, Hora) and state.hand is not None:
            win = state.hand.wins[-1]
            if not hand.uras:
                hand.uras = [_code(t, hand.where) for t in event.ura_markers]
            wins.append(_win_entry(win, event, state.hand.oya))
        elif isinstance(event, Ryukyoku):
            draw = event.kind
        elif isinstance(event, EndKyoku):
            result = state.results[-1]
            if wins:
                hand.result = ["和了", *[part for entry in wins for part in entry]]
            else:
                # The kind the rules core found (it names nagashi mangan, which the table cannot).
                found = _kind_of(result.ending.value)
                kind = found if found is not DrawKind.UNSPECIFIED else (draw or DrawKind.UNSPECIFIED)
                hand.result = [_DRAW_NAMES[kind], list(result.deltas)]
            rows.append(hand.row())
            hand = None
        else:
            hand.add(event)
    return {
        "title": [title, ""],
        "name": list(names),
        "rule": {"disp": profile.name, "aka": int(profile.red_fives)},
        "log": rows,
    }


def _kind_of(ending: str) -> DrawKind:
    try:
        return DrawKind(ending)
    except ValueError:
        return DrawKind.UNSPECIFIED


def _win_entry(win: Any, event: Hora, oya: Seat) -> list[Any]:
    value = win.value
    if event.actor != event.target:
        points = f"{value.points}点"
    elif event.actor == oya:
        points = f"{value.others_pay}点∀"
    else:
        points = f"{value.others_pay}-{value.dealer_pays}点"
    pao = int(win.pao) if win.pao is not None else int(event.actor)
    info = [int(event.actor), int(event.target), pao, f"{value.fu}符{value.han}飜{points}", *value.yaku]
    return [list(win.deltas), info]
