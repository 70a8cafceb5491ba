"""``Announcement``: what the referee says, as a value. Text is rendered per language at the edge.

An announcement names its kind, the seat it is about, and its facts as named parameters
(tuples of name and value, not a dict, so it stays hashable and frozen). The catalogue
(:mod:`table_app.announce.catalogue`) turns it into Japanese or English text, and into kana
for speech.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from table_app.domain.seat import Seat


class AnnouncementKind(StrEnum):
    ILLEGAL_ACT = "illegal_act"  # params: reason, consequence
    ABORTIVE_DRAW = "abortive_draw"  # params: draw
    EXHAUSTIVE_DRAW = "exhaustive_draw"  # params: tenpai (seats), deltas
    WIN = "win"  # params: target, han, fu (han/fu scoring only), points, yaku, deltas
    NAGASHI_MANGAN = "nagashi_mangan"  # params: seats, deltas
    CHOMBO = "chombo"  # seat (the offender); params: deltas, tally (points off the final tally)
    PAYMENTS_COMPLETE = "payments_complete"
    TRAY_OFF = "tray_off"  # seat; params: expected, read
    WALL_DISAGREES = "wall_disagrees"  # params: expected, read
    DEPOSIT_DISAGREES = "deposit_disagrees"  # params: expected, read
    LINK_LOST = "link_lost"
    LINK_RESTORED = "link_restored"
    CAMERA_LOST = "camera_lost"
    CAMERA_RESTORED = "camera_restored"
    QUESTION = "question"  # params: question (id), topic, options
    UNDONE = "undone"  # params: event
    CORRECTED = "corrected"  # seat; params: index (0 = first discard), was, tile
    PROFILE_CHANGED = "profile_changed"  # params: profile
    RIICHI = "riichi"
    CALL = "call"  # params: call (chi, pon, kan, ron, tsumo)
    HAND_START = "hand_start"  # params: round, honba
    GAME_END = "game_end"  # params: scores


ParamValue = str | int | tuple[int, ...] | tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Announcement:
    kind: AnnouncementKind
    seat: Seat | None = None
    params: tuple[tuple[str, ParamValue], ...] = ()

    def param(self, name: str) -> ParamValue:
        for key, value in self.params:
            if key == name:
                return value
        raise KeyError(f"{self.kind.value} announcement has no {name!r}")

    def has_param(self, name: str) -> bool:
        return any(key == name for key, _ in self.params)

    def text_param(self, name: str) -> str:
        return str(self.param(name))

    def int_param(self, name: str) -> int:
        value = self.param(name)
        if not isinstance(value, int):
            raise TypeError(f"{self.kind.value}.{name} is not a number")
        return value

    def ints_param(self, name: str) -> tuple[int, ...]:
        value = self.param(name)
        if not isinstance(value, tuple):
            raise TypeError(f"{self.kind.value}.{name} is not a list")
        return tuple(int(v) for v in value)

    def texts_param(self, name: str) -> tuple[str, ...]:
        value = self.param(name)
        if not isinstance(value, tuple):
            raise TypeError(f"{self.kind.value}.{name} is not a list")
        return tuple(str(v) for v in value)


def announce(kind: AnnouncementKind, seat: Seat | None = None, **params: ParamValue) -> Announcement:
    return Announcement(kind, seat, tuple(params.items()))
