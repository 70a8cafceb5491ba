"""The tile: 34 kinds, the three red fives, and the unknown (face-down or unseen) tile.

A tile is a value. ``kind`` is the index used everywhere in the rules core:
0-8 are 1m-9m, 9-17 1p-9p, 18-26 1s-9s, 27-33 the honours in the order
East South West North White Green Red (1z-7z). Kind 34 is the unknown tile
("?" in mjai): the referee at a real table does not see concealed hands.

Every way of writing a tile (compact "5m", mjai "5mr", Tenhou 136 ids, tenhou.net/6
codes) lives in :mod:`table_app.domain.notation`; this module only knows the value.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

KIND_COUNT: Final = 34
UNKNOWN_KIND: Final = 34
COPIES_PER_KIND: Final = 4

#: Kinds that can be red: 5m, 5p, 5s.
RED_FIVE_KINDS: Final = frozenset({4, 13, 22})
#: Terminal and honour kinds (yaochuuhai): 1 and 9 of each suit, all honours.
TERMINAL_HONOUR_KINDS: Final = frozenset({0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33})


class Suit(StrEnum):
    """The four suits; the letter is the one used in compact notation."""

    MAN = "m"
    PIN = "p"
    SOU = "s"
    HONOUR = "z"


_SUIT_BY_INDEX: Final = (Suit.MAN, Suit.PIN, Suit.SOU, Suit.HONOUR)


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """One physical tile face.

    ``red`` is only ever true for a five (kinds 4, 13 and 22). Two tiles of the same
    kind compare unequal when one of them is red: use :attr:`kind` to compare kinds.
    """

    kind: int
    red: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.kind <= UNKNOWN_KIND:
            raise ValueError(f"tile kind {self.kind} is outside 0..{UNKNOWN_KIND}")
        if self.red and self.kind not in RED_FIVE_KINDS:
            raise ValueError(f"only a five can be red, not kind {self.kind}")

    @property
    def is_unknown(self) -> bool:
        return self.kind == UNKNOWN_KIND

    @property
    def suit(self) -> Suit:
        self._require_known()
        return _SUIT_BY_INDEX[self.kind // 9]

    @property
    def number(self) -> int:
        """1-9 for suited tiles, 1-7 for honours (East=1 ... Red=7)."""
        self._require_known()
        return self.kind % 9 + 1

    @property
    def is_honour(self) -> bool:
        return 27 <= self.kind < KIND_COUNT

    @property
    def is_terminal(self) -> bool:
        return self.kind < 27 and self.kind % 9 in (0, 8)

    @property
    def is_terminal_or_honour(self) -> bool:
        return self.kind in TERMINAL_HONOUR_KINDS

    @property
    def plain(self) -> Tile:
        """The same kind without the red marking."""
        return tile_of_kind(self.kind)

    def __str__(self) -> str:
        """Compact form: "1m".."9s", "1z".."7z", "0m"/"0p"/"0s" for red fives, "?"."""
        if self.is_unknown:
            return "?"
        digit = 0 if self.red else self.number
        return f"{digit}{self.suit.value}"

    def _require_known(self) -> None:
        if self.is_unknown:
            raise ValueError("the unknown tile has no suit or number")


_PLAIN: Final = tuple(Tile(kind) for kind in range(KIND_COUNT + 1))
_RED: Final = {kind: Tile(kind, red=True) for kind in RED_FIVE_KINDS}

UNKNOWN: Final = _PLAIN[UNKNOWN_KIND]


def tile_of_kind(kind: int, *, red: bool = False) -> Tile:
    """The shared instance for a kind (cheap: no allocation on the hot path)."""
    if red:
        try:
            return _RED[kind]
        except KeyError:
            raise ValueError(f"only a five can be red, not kind {kind}") from None
    if not 0 <= kind <= UNKNOWN_KIND:
        raise ValueError(f"tile kind {kind} is outside 0..{UNKNOWN_KIND}")
    return _PLAIN[kind]


def display_order(tile: Tile) -> tuple[int, bool]:
    """Sort key: by kind, a red five before the plain fives (as players lay them out)."""
    return (tile.kind, not tile.red)


def all_kinds() -> tuple[Tile, ...]:
    """The 34 plain kinds in kind order."""
    return _PLAIN[:KIND_COUNT]


def red_fives() -> tuple[Tile, ...]:
    return tuple(_RED[kind] for kind in sorted(RED_FIVE_KINDS))
