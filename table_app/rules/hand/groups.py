"""The pieces a hand splits into: pairs, sequences (順子), triplets (刻子), and whole readings."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from table_app.domain.meld import Meld, MeldKind
from table_app.domain.notation import format_tiles
from table_app.domain.tile import tile_of_kind


class GroupKind(StrEnum):
    PAIR = "pair"
    SEQUENCE = "sequence"
    TRIPLET = "triplet"
    SINGLE = "single"  # only in thirteen orphans: the twelve kinds held once


_READING_ORDER = {GroupKind.PAIR: 0, GroupKind.SINGLE: 0, GroupKind.TRIPLET: 1, GroupKind.SEQUENCE: 2}


@dataclass(frozen=True, slots=True)
class Group:
    """A concealed group; ``first`` is the lowest tile kind (0-33)."""

    first: int
    kind: GroupKind

    def __lt__(self, other: Group) -> bool:
        # Readings list groups by tile, and at the same tile pair, then triplet, then sequence.
        return (self.first, _READING_ORDER[self.kind]) < (other.first, _READING_ORDER[other.kind])

    @property
    def kinds(self) -> tuple[int, ...]:
        match self.kind:
            case GroupKind.PAIR:
                return (self.first, self.first)
            case GroupKind.SEQUENCE:
                return (self.first, self.first + 1, self.first + 2)
            case GroupKind.TRIPLET:
                return (self.first, self.first, self.first)
            case GroupKind.SINGLE:
                return (self.first,)

    def __str__(self) -> str:
        return format_tiles(tile_of_kind(k) for k in self.kinds)


class HandForm(StrEnum):
    REGULAR = "regular"  # four sets and a pair
    SEVEN_PAIRS = "seven_pairs"  # 七対子
    THIRTEEN_ORPHANS = "thirteen_orphans"  # 国士無双


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One reading of a complete hand: concealed groups (sorted) plus the melds as laid."""

    form: HandForm
    groups: tuple[Group, ...]
    melds: tuple[Meld, ...] = ()

    def signature(self, *, kan_as_triplet: int | None = None) -> tuple[tuple[str, int], ...]:
        """A comparable form of this reading.

        With ``kan_as_triplet`` the closed kan of that kind reads as a concealed triplet,
        so the readings before and after a closed kan after riichi can be compared.
        """
        parts = [(group.kind.value, group.first) for group in self.groups]
        for meld in self.melds:
            if meld.kind is MeldKind.CLOSED_KAN and meld.kind34 == kan_as_triplet:
                parts.append((GroupKind.TRIPLET.value, meld.kind34))
            else:
                parts.append((meld.kind.value, meld.kind34))
        return tuple(sorted(parts))

    def __str__(self) -> str:
        text = " ".join(str(group) for group in self.groups)
        if self.melds:
            text += " + " + " ".join(str(meld) for meld in self.melds)
        return text
