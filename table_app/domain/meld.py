"""Melds: chi, pon, open kan, added kan, closed kan.

A meld records the tiles (red fives included), which tile was called and from where. The
source is a :class:`Relation` (left, across, right of the caller) because that is what the
table shows: the called tile is turned sideways on the side it came from. Whether a call
was *legal* (chi only from the left, no call after riichi...) is the rules core's business;
a ``Meld`` only refuses shapes that cannot exist.

Text form used by the CLI: ``KIND:TILES[@SOURCE]`` with KIND one of chi, pon, kan (open
kan), ankan (closed kan), kakan (added kan); TILES compact with the called tile written
first; SOURCE left, across or right. Examples: ``chi:546m`` (5m called from the left),
``pon:777z@right``, ``ankan:0555p``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from table_app.domain.errors import InputError
from table_app.domain.notation import TileNotationError, format_tiles, parse_tiles
from table_app.domain.seat import Relation, Seat
from table_app.domain.tile import Tile, display_order


class MeldKind(StrEnum):
    CHI = "chi"
    PON = "pon"
    OPEN_KAN = "daiminkan"
    ADDED_KAN = "kakan"
    CLOSED_KAN = "ankan"

    @property
    def is_kan(self) -> bool:
        return self in (MeldKind.OPEN_KAN, MeldKind.ADDED_KAN, MeldKind.CLOSED_KAN)

    @property
    def is_open(self) -> bool:
        """Open melds break a closed hand (門前); a closed kan does not."""
        return self is not MeldKind.CLOSED_KAN

    @property
    def size(self) -> int:
        return 4 if self.is_kan else 3


class MeldError(InputError):
    """A meld that cannot exist, or meld text that cannot be read."""


@dataclass(frozen=True, slots=True)
class Meld:
    kind: MeldKind
    tiles: tuple[Tile, ...]
    called: Tile | None = None
    called_from: Relation | None = None

    def __post_init__(self) -> None:
        label = f"{self.kind.value} {format_tiles(self.tiles)}"
        if len(self.tiles) != self.kind.size:
            raise MeldError(f"a {self.kind.value} has {self.kind.size} tiles, got {len(self.tiles)}", token=label)
        if any(t.is_unknown for t in self.tiles):
            raise MeldError("meld tiles must be known", token=label)
        if sum(t.red for t in self.tiles) > 1:
            raise MeldError("a meld holds at most one red five", token=label)
        kinds = sorted(t.kind for t in self.tiles)
        if self.kind is MeldKind.CHI:
            suit = self.tiles[0].suit
            if self.tiles[0].is_honour or any(t.suit is not suit for t in self.tiles):
                raise MeldError("a chi is three suited tiles of one suit", token=label)
            if kinds != [kinds[0], kinds[0] + 1, kinds[0] + 2]:
                raise MeldError("a chi is three consecutive numbers", token=label)
        elif len(set(kinds)) != 1:
            raise MeldError(f"a {self.kind.value} is {self.kind.size} tiles of one kind", token=label)
        if self.kind is MeldKind.CLOSED_KAN:
            if self.called is not None or self.called_from is not None:
                raise MeldError("a closed kan calls no tile", token=label)
        else:
            if self.called is None:
                raise MeldError("an open meld names its called tile", token=label)
            if self.called not in self.tiles:
                raise MeldError(f"the called tile {self.called} is not in the meld", token=label)
            if self.called_from is Relation.SELF:
                raise MeldError("an open meld cannot be called from oneself", token=label)

    @property
    def kind34(self) -> int:
        """The lowest tile kind: the triplet/quad kind, or the chi's first tile."""
        return min(t.kind for t in self.tiles)

    @property
    def is_open(self) -> bool:
        return self.kind.is_open

    def from_seat(self, owner: Seat) -> Seat | None:
        """The seat the called tile came from, for a meld owned by ``owner``."""
        return None if self.called_from is None else owner.seat_at(self.called_from)

    def __str__(self) -> str:
        return format_meld(self)


_KIND_WORDS: Final = {
    "chi": MeldKind.CHI,
    "pon": MeldKind.PON,
    "kan": MeldKind.OPEN_KAN,
    "minkan": MeldKind.OPEN_KAN,
    "daiminkan": MeldKind.OPEN_KAN,
    "ankan": MeldKind.CLOSED_KAN,
    "kakan": MeldKind.ADDED_KAN,
    "shouminkan": MeldKind.ADDED_KAN,
}
_SOURCE_WORDS: Final = {"left": Relation.LEFT, "across": Relation.ACROSS, "right": Relation.RIGHT}


def parse_meld(text: str) -> Meld:
    """Read ``KIND:TILES[@SOURCE]`` (see the module doc)."""
    head, sep, rest = text.strip().partition(":")
    if not sep:
        raise MeldError("a meld is written KIND:TILES, e.g. pon:777z", token=text)
    kind = _KIND_WORDS.get(head.lower())
    if kind is None:
        raise MeldError(f"unknown meld kind (one of {', '.join(_KIND_WORDS)})", token=head)
    tiles_text, at, source_text = rest.partition("@")
    source: Relation | None = None
    if at:
        source = _SOURCE_WORDS.get(source_text.lower())
        if source is None:
            raise MeldError("unknown meld source (left, across or right)", token=source_text)
    elif kind is MeldKind.CHI:
        source = Relation.LEFT
    try:
        tiles = parse_tiles(tiles_text)
    except TileNotationError as error:
        raise MeldError(f"bad tiles in meld ({error})", token=text) from error
    if not tiles:
        raise MeldError("a meld needs tiles", token=text)
    if kind is MeldKind.CLOSED_KAN:
        if at:
            raise MeldError("a closed kan has no source", token=text)
        return Meld(kind, tuple(sorted(tiles, key=display_order)))
    return Meld(kind, tuple(sorted(tiles, key=display_order)), called=tiles[0], called_from=source)


def format_meld(meld: Meld) -> str:
    tiles = list(meld.tiles)
    if meld.called is not None:
        tiles.remove(meld.called)
        tiles.insert(0, meld.called)
    word = "kan" if meld.kind is MeldKind.OPEN_KAN else meld.kind.value
    implied = meld.called_from is None or (meld.kind is MeldKind.CHI and meld.called_from is Relation.LEFT)
    source = "" if implied or meld.called_from is None else f"@{meld.called_from.name.lower()}"
    return f"{word}:{format_tiles(tiles)}{source}"
