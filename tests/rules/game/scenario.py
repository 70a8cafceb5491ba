"""Hand-written event sequences: hands in compact notation, other hands unknown ("?")."""

from __future__ import annotations

from collections.abc import Iterable

from table_app.domain.notation import parse_tile, parse_tiles
from table_app.domain.seat import Seat, Wind
from table_app.domain.tile import UNKNOWN
from table_app.rules.events import (
    Ankan,
    Chi,
    Dahai,
    GameEvent,
    Hora,
    Pon,
    Reach,
    ReachAccepted,
    StartGame,
    StartKyoku,
    Tsumo,
)
from table_app.rules.fold import apply, new_game
from table_app.rules.profiles import TENHOU, RuleProfile
from table_app.rules.state import GameState


def start(
    hands: dict[int, str],
    *,
    oya: int = 0,
    honba: int = 0,
    kyotaku: int = 0,
    scores: tuple[int, ...] = (25000, 25000, 25000, 25000),
    dora: str = "9s",
    bakaze: Wind = Wind.EAST,
    kyoku: int | None = None,
) -> list[GameEvent]:
    tehais = tuple(parse_tiles(hands[s]) if s in hands else (UNKNOWN,) * 13 for s in range(4))
    assert all(len(t) == 13 for t in tehais)
    return [
        StartGame(),
        StartKyoku(bakaze, kyoku or oya + 1, honba, kyotaku, Seat(oya), scores, parse_tile(dora), tehais),
    ]


def draw(seat: int, tile: str = "?") -> Tsumo:
    return Tsumo(Seat(seat), parse_tile(tile))


def discard(seat: int, tile: str, *, tsumogiri: bool = False) -> Dahai:
    return Dahai(Seat(seat), parse_tile(tile), tsumogiri)


def go_around(first: int, tiles: Iterable[str]) -> list[GameEvent]:
    """Unknown draws and the given discards, seat after seat from ``first``."""
    events: list[GameEvent] = []
    for offset, tile in enumerate(tiles):
        seat = (first + offset) % 4
        events += [draw(seat), discard(seat, tile)]
    return events


def riichi(seat: int, tile: str, *, drawn: str = "?") -> list[GameEvent]:
    return [draw(seat, drawn), Reach(Seat(seat)), discard(seat, tile), ReachAccepted(Seat(seat))]


def pon(seat: int, target: int, tile: str) -> Pon:
    called = parse_tile(tile)
    return Pon(Seat(seat), Seat(target), called, (called.plain, called.plain))


def chi(seat: int, target: int, tile: str, own: str) -> Chi:
    return Chi(Seat(seat), Seat(target), parse_tile(tile), parse_tiles(own))


def ankan(seat: int, tile: str) -> Ankan:
    return Ankan(Seat(seat), (parse_tile(tile),) * 4)


def ron(seat: int, target: int, tile: str, ura: str = "") -> Hora:
    return Hora(Seat(seat), Seat(target), parse_tile(tile), parse_tiles(ura))


def tsumo_win(seat: int, tile: str, ura: str = "") -> Hora:
    return Hora(Seat(seat), Seat(seat), parse_tile(tile), parse_tiles(ura))


def play(events: Iterable[GameEvent], profile: RuleProfile = TENHOU) -> GameState:
    state = new_game(profile)
    for event in events:
        state = apply(state, event)
    return state
