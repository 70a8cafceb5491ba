"""What the rules core computes at the end of a hand and of a game."""

from __future__ import annotations

from dataclasses import dataclass

from table_app.domain.seat import Seat, Wind
from table_app.rules.record import HandEnding


@dataclass(frozen=True, slots=True)
class WinResult:
    winner: Seat
    target: Seat
    han: int
    fu: int
    points: int  # the hand's value without honba or sticks
    yaku: tuple[str, ...]
    deltas: tuple[int, ...]  # payments of this win, honba and sticks included
    pao: Seat | None = None
    error: str | None = None  # the scorer found no valid win (a false win: chombo)


@dataclass(frozen=True, slots=True)
class HandResult:
    label: str
    ending: HandEnding
    deltas: tuple[int, ...]
    wins: tuple[WinResult, ...] = ()
    tenpai: tuple[Seat, ...] = ()


@dataclass(frozen=True, slots=True)
class NextHand:
    """The start of the next hand as the rules decide it, or the end of the game."""

    bakaze: Wind
    kyoku: int
    honba: int
    kyotaku: int
    oya: Seat
    scores: tuple[int, ...]
    game_over: bool
