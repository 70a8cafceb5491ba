"""A game log as read: the events, plus the log's own record of every result.

The record is what the log itself says happened (who won, each payment, the final tally). It
is kept apart from the events so that the rules core can compute results from the events
alone and compare them with the record: the log is the oracle for every payment.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from table_app.domain.seat import Seat
from table_app.rules.events import DrawKind, GameEvent


class HandEnding(StrEnum):
    WIN = "win"
    EXHAUSTIVE = DrawKind.EXHAUSTIVE.value
    NINE_TERMINALS = DrawKind.NINE_TERMINALS.value
    FOUR_WINDS = DrawKind.FOUR_WINDS.value
    FOUR_KANS = DrawKind.FOUR_KANS.value
    FOUR_RIICHI = DrawKind.FOUR_RIICHI.value
    TRIPLE_RON = DrawKind.TRIPLE_RON.value
    NAGASHI_MANGAN = DrawKind.NAGASHI_MANGAN.value
    DRAW = "draw"  # a draw of a kind the log does not say (mjai)
    CHOMBO = "chombo"  # the hand was voided by a chombo and is replayed

    @property
    def is_draw(self) -> bool:
        return self is not HandEnding.WIN

    @classmethod
    def of_draw(cls, kind: DrawKind) -> HandEnding:
        return cls.DRAW if kind is DrawKind.UNSPECIFIED else cls(kind.value)


@dataclass(frozen=True, slots=True)
class WinRecord:
    """One win as the log scores it. ``points`` is the hand's value without honba or sticks."""

    winner: Seat
    target: Seat
    points: int | None = None
    han: int | None = None
    fu: int | None = None
    deltas: tuple[int, ...] | None = None  # this win's payments, honba and sticks included
    pao: Seat | None = None


@dataclass(frozen=True, slots=True)
class HandRecord:
    """How one hand ended according to the log. ``deltas`` sums every payment of the hand."""

    ending: HandEnding
    deltas: tuple[int, ...] | None
    wins: tuple[WinRecord, ...] = ()


@dataclass(frozen=True, slots=True)
class FinalRecord:
    """The log's final tally: raw scores and, where the log has them, the game points."""

    scores: tuple[int, ...]
    points: tuple[float, ...] | None = None


@dataclass(frozen=True, slots=True)
class LogRules:
    """What a log says about the rules it was played under (``None``: it does not say).

    ``special_lobby``: a lobby with its own uma, chips or start points (Tenhou's chip, ratio
    and tournament lobbies): the final tally follows that lobby's rules, not a preset's.
    ``early_tenhou``: a log from Tenhou's first rule era (2009), before the top dealer's
    tenpai in the last hand ended the game and with a 10-5 uma in East-only games.
    ``kuikae_unchecked``: a client transcript; Tenhou's server left kuikae to the official
    client and took the swap discards of other clients (three 2018 transcripts show it).
    """

    east_only: bool | None = None
    red_fives: bool | None = None
    special_lobby: bool = False
    kiriage_mangan: bool | None = None
    unsupported: str | None = None  # why no preset can follow this game (it is skipped)
    early_tenhou: bool = False
    kuikae_unchecked: bool = False  # the server let a swap discard through (its client checks)


@dataclass(frozen=True, slots=True)
class GameLog:
    """One game: events in order, one :class:`HandRecord` per ``end_kyoku``, the final tally.

    ``players`` is 3 for a three-player game (which the four-player rules core skips).
    ``complete`` is false when the log stops before the game's end (a fixture cut short).
    """

    source: str
    players: int
    events: tuple[GameEvent, ...]
    hands: tuple[HandRecord, ...]
    final: FinalRecord | None
    complete: bool
    rules: LogRules = LogRules()
