"""A journaled game as tenhou.net/6 JSON (what Tenhou's viewer and its reviewers read),
written as Tenhou itself writes it: every field of a Tenhou game imported and exported again
is Tenhou's own but the title and the rule's name (tested on every tenhou.net/6 file of the
shared logs). Wins give Tenhou's yaku names with their han in Tenhou's order and its limit
names (:mod:`table_app.journal.tenhou_names`); call strings put the letter where Tenhou does
(an added kan's ``k`` where its pon's ``p`` stood); abortive draws and exhaustive draws
where nobody pays (全員不聴, 全員聴牌) carry no payments.

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
from table_app.journal.tenhou_names import TENHOU_YAKU, VALUE_TILE, VALUE_YAKU, YAKU_ORDER, limit_name
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
    ProfileChange,
    Reach,
    Ryukyoku,
    StartGame,
    StartKyoku,
    Tsumo,
)
from table_app.rules.fold import apply, new_game
from table_app.rules.profiles import RuleProfile, display_name
from table_app.rules.results import HandResult, WinResult

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
_ABORTIVE = frozenset(
    {DrawKind.NINE_TERMINALS, DrawKind.FOUR_RIICHI, DrawKind.TRIPLE_RON, DrawKind.FOUR_KANS, DrawKind.FOUR_WINDS}
)
_PON_LETTER_AT = {3: 0, 2: 1, 1: 2}  # turn distance caller → discarder: where the letter stands (in tiles)
_KAN_LETTER_AT = {3: 0, 2: 1, 1: 3}


class TenhouExportError(ValueError):
    pass


def _code(tile: Tile, where: str) -> int:
    if tile.is_unknown:
        raise TenhouExportError(
            f"{where}: a tile the referee did not see; tenhou.net/6 needs every tile (use --fill-hidden)"
        )
    return to_tenhou6(tile)


def _tenhou_order(tiles: Iterable[Tile]) -> list[Tile]:
    """A call's own tiles as Tenhou lists them: by kind, a red five after its plain fives."""
    return sorted(tiles, key=lambda t: (t.kind, t.red))


def _letter_call(letter: str, at: int, called: Tile, own: Iterable[Tile], where: str) -> str:
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
        self.riichi: set[Seat] = set()
        self.result: list[Any] = []
        # Each seat's pons by tile kind (where the letter stood, its own tiles, the called one),
        # for the added kan; and the kinds of its called sets in call order, for value yaku.
        self.pons: list[dict[int, tuple[int, list[Tile], Tile]]] = [{}, {}, {}, {}]
        self.sets: list[list[int]] = [[], [], [], []]

    def add(self, event: GameEvent) -> None:
        where = self.where
        match event:
            case Tsumo():
                self.takes[event.actor].append(_code(event.pai, where))
            case Reach():
                self.riichi.add(event.actor)
            case Dahai():
                code: int | str = 60 if event.tsumogiri else _code(event.pai, where)
                if event.actor in self.riichi:
                    self.riichi.discard(event.actor)
                    code = f"r{code}"
                self.gives[event.actor].append(code)
            case Chi():
                own = _tenhou_order(event.consumed)
                self.takes[event.actor].append(_letter_call("c", 0, event.pai, own, where))
            case Pon():
                at = _PON_LETTER_AT[(event.target - event.actor) % 4]
                own = _tenhou_order(event.consumed)
                self.takes[event.actor].append(_letter_call("p", at, event.pai, own, where))
                self.pons[event.actor][event.pai.kind] = (at, own, event.pai)
                self.sets[event.actor].append(event.pai.kind)
            case Daiminkan():
                at = _KAN_LETTER_AT[(event.target - event.actor) % 4]
                own = _tenhou_order(event.consumed)
                self.takes[event.actor].append(_letter_call("m", at, event.pai, own, where))
                self.gives[event.actor].append(0)  # the slot before the replacement draw
                self.sets[event.actor].append(event.pai.kind)
            case Kakan():
                self.gives[event.actor].append(self._added_kan(event))
            case Ankan():
                tiles = _tenhou_order(event.consumed)
                self.gives[event.actor].append(_letter_call("a", 3, tiles[-1], tiles[:-1], where))
                self.sets[event.actor].append(tiles[0].kind)
            case Dora():
                self.doras.append(_code(event.dora_marker, where))
            case Chombo():
                raise TenhouExportError(f"{where}: a chombo has no tenhou.net/6 form (use mjai)")

    def _added_kan(self, event: Kakan) -> str:
        """The pon's string with ``k`` and the added tile put in just before the called tile:
        Tenhou writes an added kan where its pon's letter stood (``1414p14`` → ``1414k1414``)."""
        pon = self.pons[event.actor].get(event.pai.kind)
        if pon is None:  # a pon the hand never showed: the letter first
            at, own, called = 0, _tenhou_order(event.consumed)[1:], _tenhou_order(event.consumed)[0]
        else:
            at, own, called = pon
        parts = [f"{_code(t, self.where):02d}" for t in own]
        parts.insert(at, f"k{_code(event.pai, self.where):02d}{_code(called, self.where):02d}")
        return "".join(parts)

    def win(self, win: WinResult, event: Hora, oya: Seat, concealed: Iterable[Tile]) -> list[Any]:
        value = win.value
        dealer = event.actor == oya
        if event.actor != event.target:
            points = f"{value.points}点"
        elif dealer:
            points = f"{value.others_pay}点∀"
        else:
            points = f"{value.others_pay}-{value.dealer_pays}点"
        limit = limit_name(value.han, value.yakuman, value.points >= (12000 if dealer else 8000))
        text = f"{limit}{points}" if limit else f"{value.fu}符{value.han}飜{points}"
        pao = int(win.pao) if win.pao is not None else int(event.actor)
        yaku = _yaku_entries(win, self._set_place(event.actor, [*concealed, event.pai]))
        return [list(win.deltas), [int(event.actor), int(event.target), pao, text, *yaku]]

    def _set_place(self, seat: Seat, concealed: list[Tile]) -> dict[int, tuple[int, int]]:
        """Where a value tile's set stands in Tenhou's listing: concealed triplets by kind,
        then called sets in the order they were called."""
        place: dict[int, tuple[int, int]] = {}
        for number, kind in enumerate(self.sets[seat]):
            place[kind] = (1, number)
        for tile in concealed:
            if tile.kind not in place:
                place[tile.kind] = (0, tile.kind)
        return place

    def row(self) -> list[Any]:
        row: list[Any] = [self.head, self.scores, self.doras, self.uras]
        for seat in range(4):
            row.extend([self.haipai[seat], self.takes[seat], self.gives[seat]])
        row.append(self.result)
        return row


def _yaku_entries(win: WinResult, place: dict[int, tuple[int, int]]) -> list[str]:
    value = win.value
    hans: tuple[int | None, ...] = value.yaku_han or (None,) * len(value.yaku)
    named = [(name, TENHOU_YAKU.get(name), han) for name, han in zip(value.yaku, hans, strict=True)]
    entries: list[tuple[tuple[int, ...], str]] = []
    for index, (name, known, han) in enumerate(named):
        if known is None:  # a yaku Tenhou does not have (純麻雀's own): as the rules core names it
            entries.append(((len(YAKU_ORDER), index), name if han is None else f"{name}({han}飜)"))
            continue
        number, japanese = known
        if value.yakuman:
            if number >= 36 or (han or 0) >= 13:
                entries.append(((YAKU_ORDER.index(number),), f"{japanese}(役満)"))
            continue
        if han == 0:
            continue  # no dora, no ura: Tenhou leaves the line out
        order = YAKU_ORDER.index(number)
        if number in VALUE_YAKU:
            # 場風 before 自風 of the same wind: the round wind's id is the higher one.
            set_at = place.get(VALUE_TILE[number], (2, 0))
            key: tuple[int, ...] = (YAKU_ORDER.index(10), *set_at, -number)
        else:
            key = (order,)
        entries.append((key, f"{japanese}({han}飜)"))
    return [text for _, text in sorted(entries, key=lambda entry: entry[0])]


def tenhou6_game(
    events: Iterable[GameEvent], profile: RuleProfile, title: str = "jantaku", note: str = ""
) -> dict[str, Any]:
    """The tenhou.net/6 object (the JSON edge) for a journaled game; ``note``: the title's
    second line (where a game whose hidden tiles were filled says so)."""
    state = new_game(profile)
    names: tuple[str, ...] = ("", "", "", "")
    rows: list[list[Any]] = []
    hand: _Hand | None = None
    wins: list[list[Any]] = []
    draw: DrawKind | None = None
    for number, event in enumerate(events, start=1):
        if isinstance(event, ProfileChange):
            continue  # tenhou.net/6 has one rule set a game: the game is written under the one it started with
        before = state
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
            concealed = before.hand.players[event.actor].concealed if before.hand is not None else ()
            wins.extend(hand.win(win, event, state.hand.oya, concealed))
        elif isinstance(event, Ryukyoku):
            draw = event.kind
        elif isinstance(event, EndKyoku):
            result = state.results[-1]
            hand.result = ["和了", *wins] if wins else _draw_result(result, draw)
            rows.append(hand.row())
            hand = None
        else:
            hand.add(event)
    return {
        "title": [title, note],
        "name": list(names),
        "rule": {"disp": display_name(profile), "aka": int(profile.red_fives)},
        "log": rows,
    }


def _draw_result(result: HandResult, draw: DrawKind | None) -> list[Any]:
    # The kind the rules core found (it names nagashi mangan, which the table cannot).
    found = _kind_of(result.ending.value)
    kind = found if found is not DrawKind.UNSPECIFIED else (draw or DrawKind.UNSPECIFIED)
    if kind in _ABORTIVE:
        return [_DRAW_NAMES[kind]]  # Tenhou writes no payments for an abortive draw
    if kind is DrawKind.NAGASHI_MANGAN or any(result.deltas):
        return [_DRAW_NAMES[kind], list(result.deltas)]
    if not result.tenpai:
        return ["全員不聴"]
    if len(result.tenpai) == 4:
        return ["全員聴牌"]
    return [_DRAW_NAMES[kind], list(result.deltas)]  # tenpai, but the rules pay nothing (純麻雀)


def _kind_of(ending: str) -> DrawKind:
    try:
        return DrawKind(ending)
    except ValueError:
        return DrawKind.UNSPECIFIED
