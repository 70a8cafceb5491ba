"""What the rules core computes at the end of a hand and of a game."""

from __future__ import annotations

from dataclasses import dataclass

from table_app.domain.seat import Seat, Wind
from table_app.rules.record import HandEnding
from table_app.rules.scoring import WinValue


@dataclass(frozen=True, slots=True)
class WinResult:
    winner: Seat
    target: Seat
    value: WinValue
    deltas: tuple[int, ...]  # payments of this win, honba and sticks included
    pao: Seat | None = None

    @property
    def han(self) -> int:
        return self.value.han

    @property
    def fu(self) -> int:
        return self.value.fu

    @property
    def points(self) -> int:
        """The hand's value without honba or sticks."""
        return self.value.points

    @property
    def yaku(self) -> tuple[str, ...]:
        return self.value.yaku

    @property
    def error(self) -> str | None:
        """Why the scorer found no valid win (a false win: chombo), if it did not."""
        return self.value.error


@dataclass(frozen=True, slots=True)
class HandResult:
    label: str
    ending: HandEnding
    deltas: tuple[int, ...]
    wins: tuple[WinResult, ...] = ()
    tenpai: tuple[Seat, ...] = ()
    offender: Seat | None = None  # who committed the chombo that voided the hand
    nagashi: tuple[Seat, ...] = ()  # who was paid a nagashi mangan


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
