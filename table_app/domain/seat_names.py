"""How a seat is named to people: one convention for announcements, pages, the console and the CLI.

People never see the machine's seat index (0-3, kept by the JSON API, mjai and tenhou.net/6).
They see the seat's **wind in the hand being played** and the **player's name** where it is
known: ``East (Aoki)`` / ``東家（Aoki）``; without a name, the wind alone (``East`` / ``東家``).
With no hand to take winds from (before the first hand, after the game) it is the name alone,
else the seat's **number 1-4** (``Seat 1`` / ``1番席``): the order of ``[table] names``.
Speech says the wind in kana (``とんちゃ``) or the number (``いちばんせき``), never the name:
espeak-ng cannot be trusted with names.

Text that is built before the names are known (the referee's questions) mentions a seat with
:func:`mention`; :meth:`SeatNaming.fill_en` / :meth:`SeatNaming.fill_ja` name it at the edge.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from table_app.domain.seat import Seat

WIND_EN: Final = ("East", "South", "West", "North")
WIND_JA: Final = ("東家", "南家", "西家", "北家")
_WIND_KANA: Final = ("とんちゃ", "なんちゃ", "しゃーちゃ", "ぺーちゃ")
_NUMBER_KANA: Final = ("いちばんせき", "にばんせき", "さんばんせき", "よんばんせき")
_MENTION: Final = re.compile(r"⟨seat:([0-3])⟩")


def seat_number(seat: Seat | int) -> int:
    """The number people use for a seat: 1-4."""
    return int(seat) + 1


def seat_of_number(number: int) -> Seat:
    """The seat people call ``number`` (1-4); a ``ValueError`` that says so for anything else."""
    if not 1 <= number <= 4:
        raise ValueError(f"seats are numbered 1-4, got {number}")
    return Seat(number - 1)


def mention(seat: Seat | int) -> str:
    """A seat inside text whose names are not known yet; a ``SeatNaming`` fills it in."""
    return f"⟨seat:{int(seat)}⟩"


@dataclass(frozen=True, slots=True)
class SeatNaming:
    """Names seats at one moment of a game: the players' names and the dealer of the hand."""

    names: tuple[str, ...] = ()
    dealer: Seat | None = None  # None: no hand to take winds from

    def name(self, seat: Seat | int) -> str:
        """The player's name, ``""`` when not known."""
        index = int(seat)
        return self.names[index].strip() if index < len(self.names) else ""

    def wind_index(self, seat: Seat | int) -> int | None:
        return None if self.dealer is None else (int(seat) - int(self.dealer)) % 4

    def en(self, seat: Seat | int) -> str:
        name, wind = self.name(seat), self.wind_index(seat)
        if wind is None:
            return name or f"Seat {seat_number(seat)}"
        return f"{WIND_EN[wind]} ({name})" if name else WIND_EN[wind]

    def ja(self, seat: Seat | int) -> str:
        name, wind = self.name(seat), self.wind_index(seat)
        if wind is None:
            return name or f"{seat_number(seat)}番席"
        return f"{WIND_JA[wind]}（{name}）" if name else WIND_JA[wind]

    def kana(self, seat: Seat | int) -> str:
        wind = self.wind_index(seat)
        return _NUMBER_KANA[int(seat)] if wind is None else _WIND_KANA[wind]

    def person(self, seat: Seat | int) -> str:
        """Who sits there, where the wind is shown beside it: the name, else ``Seat N``."""
        return self.name(seat) or f"Seat {seat_number(seat)}"

    def fill_en(self, text: str) -> str:
        """``text`` with every :func:`mention` named in English."""
        return _MENTION.sub(lambda match: self.en(int(match.group(1))), text)

    def fill_ja(self, text: str) -> str:
        return _MENTION.sub(lambda match: self.ja(int(match.group(1))), text)


#: No names and no hand: seats 1-4.
BY_NUMBER: Final = SeatNaming()
