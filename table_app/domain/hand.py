"""A player's hand: the concealed tiles plus the melds laid down.

A hand is "13-shaped" (waiting: concealed + 3 per meld = 13) or "14-shaped" (just drew or
complete: 14). Kans count as three for that sum, as in every rule book. No kind may
appear more than four times across concealed tiles and melds, and each suit has one red
five.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Final

from table_app.domain.errors import InputError
from table_app.domain.meld import Meld
from table_app.domain.notation import format_tiles, parse_tiles
from table_app.domain.tile import COPIES_PER_KIND, KIND_COUNT, Tile

WAITING_SIZE: Final = 13
COMPLETE_SIZE: Final = 14


class HandError(InputError):
    """A hand that cannot exist, or a question it cannot answer."""


@dataclass(frozen=True, slots=True)
class Hand:
    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()

    def __post_init__(self) -> None:
        if any(t.is_unknown for t in self.concealed):
            raise HandError("hand analysis needs every concealed tile known", token=format_tiles(self.concealed))
        every_tile = [*self.concealed, *(t for meld in self.melds for t in meld.tiles)]
        per_kind = Counter(t.kind for t in every_tile)
        for kind, count in per_kind.items():
            if count > COPIES_PER_KIND:
                tile = next(t for t in every_tile if t.kind == kind).plain
                raise HandError(f"{count} copies of {tile}, a set has {COPIES_PER_KIND}", token=str(tile))
        reds = Counter(t.kind for t in every_tile if t.red)
        for kind, count in reds.items():
            if count > 1:
                red = next(t for t in every_tile if t.kind == kind and t.red)
                raise HandError(f"{count} red fives of one suit, a set has one", token=str(red))

    @classmethod
    def parse(cls, concealed: str, melds: tuple[Meld, ...] = ()) -> Hand:
        return cls(parse_tiles(concealed), melds)

    @property
    def size(self) -> int:
        """Concealed tiles plus three per meld (a kan counts as three)."""
        return len(self.concealed) + 3 * len(self.melds)

    @property
    def is_closed(self) -> bool:
        """門前: no chi, pon or open kan (closed kans keep a hand closed)."""
        return not any(meld.is_open for meld in self.melds)

    def counts(self) -> list[int]:
        """How many of each of the 34 kinds the concealed part holds."""
        counts = [0] * KIND_COUNT
        for tile in self.concealed:
            counts[tile.kind] += 1
        return counts

    def held(self, kind: int) -> int:
        """Copies of ``kind`` in the whole hand, melds included."""
        return sum(t.kind == kind for t in self.concealed) + sum(
            t.kind == kind for meld in self.melds for t in meld.tiles
        )

    def require_size(self, *sizes: int) -> None:
        if self.size not in sizes:
            wanted = " or ".join(str(s) for s in sizes)
            raise HandError(
                f"a hand here has {wanted} tiles (3 per meld), this one has {self.size}",
                token=format_tiles(self.concealed),
            )

    def with_tile(self, tile: Tile) -> Hand:
        return Hand((*self.concealed, tile), self.melds)

    def __str__(self) -> str:
        text = format_tiles(self.concealed, sort=True)
        return " ".join([text, *(str(meld) for meld in self.melds)])
