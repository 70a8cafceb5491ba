"""What lies on the table, as a game would leave it: the renderer's input.

A small value of its own (the rules core's game state lives elsewhere): per seat a pond in
discard order with the riichi tile's index, open melds with the turned tile's index, a hand
laid open or not, how many wall stacks remain in front of it; plus the dora indicators.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from table_app.domain.tile import KIND_COUNT, RED_FIVE_KINDS, Tile, tile_of_kind


@dataclass(frozen=True, slots=True)
class PondLayout:
    tiles: tuple[Tile, ...]
    riichi_at: int | None = None  # index of the sideways riichi tile

    def __post_init__(self) -> None:
        if self.riichi_at is not None and not 0 <= self.riichi_at < len(self.tiles):
            raise ValueError(f"riichi index {self.riichi_at} is outside a pond of {len(self.tiles)} tiles")


@dataclass(frozen=True, slots=True)
class MeldLayout:
    """Tiles left to right as the owner sees them; ``turned_at`` is the sideways (called) tile."""

    tiles: tuple[Tile, ...]
    turned_at: int | None
    face_down_at: tuple[int, ...] = ()  # a closed kan shows its two end tiles face down
    added: Tile | None = None  # an added kan's fourth tile, laid sideways beside the turned one

    def __post_init__(self) -> None:
        if not 3 <= len(self.tiles) <= 4:
            raise ValueError(f"a meld has 3 or 4 tiles, not {len(self.tiles)}")
        if self.turned_at is not None and not 0 <= self.turned_at < len(self.tiles):
            raise ValueError(f"turned index {self.turned_at} is outside a meld of {len(self.tiles)} tiles")
        if self.added is not None and (self.turned_at is None or len(self.tiles) != 3):
            raise ValueError("only a called triplet (three tiles, one turned) takes an added kan tile")


@dataclass(frozen=True, slots=True)
class SeatLayout:
    pond: PondLayout
    melds: tuple[MeldLayout, ...] = ()
    open_hand: tuple[Tile, ...] = ()
    wall_stacks: int = 0  # face-down stacks left in front of this seat
    winning: Tile | None = None  # set apart at the right of the open hand (a win)


@dataclass(frozen=True, slots=True)
class TableLayout:
    """Seats 0-3 counter-clockwise from the bottom of the top-down view (0 bottom, 1 right)."""

    seats: tuple[SeatLayout, SeatLayout, SeatLayout, SeatLayout]
    dora_indicators: tuple[Tile, ...] = ()
    dead_wall_seat: int = 0
    ura_indicators: tuple[Tile, ...] = ()  # turned over after a riichi win


def random_layout(rng: np.random.Generator, *, extras: bool = False) -> TableLayout:
    """A plausible mid- or late-game table drawn from one shuffled set (one red five per suit).

    With ``extras``, some called triplets become added kans, and a seat whose hand is laid open
    may show a winning tile set apart, with ura indicators beside the dora; these are drawn
    after everything else, so a seed gives the same table with or without them otherwise."""
    wall = _shuffled_set(rng) + _shuffled_set(rng)  # two sets, so a crowded table never runs out
    turn = int(rng.integers(0, 19))  # discards per seat so far
    seats = []
    for _ in range(4):
        count = int(np.clip(turn + rng.integers(-1, 2), 0, 20))
        pond_tiles = tuple(wall.pop() for _ in range(count))
        riichi_at = int(rng.integers(0, count)) if count and rng.random() < 0.35 else None
        melds = tuple(_random_meld(rng, wall) for _ in range(int(rng.choice(4, p=[0.5, 0.3, 0.15, 0.05]))))
        open_hand = tuple(wall.pop() for _ in range(13 - 3 * len(melds))) if rng.random() < 0.3 else ()
        wall_stacks = int(rng.integers(0, 18) * (rng.random() < 0.8))
        seats.append(SeatLayout(PondLayout(pond_tiles, riichi_at), melds, open_hand, wall_stacks))
    dora = tuple(wall.pop() for _ in range(int(rng.integers(1, 4))))
    layout = TableLayout((seats[0], seats[1], seats[2], seats[3]), dora, int(rng.integers(0, 4)))
    return _with_extras(layout, rng, wall) if extras else layout


def _with_extras(layout: TableLayout, rng: np.random.Generator, wall: list[Tile]) -> TableLayout:
    seats = []
    winner = False
    for seat in layout.seats:
        melds = tuple(
            replace(meld, added=wall.pop())
            if len(meld.tiles) == 3 and meld.turned_at is not None and rng.random() < 0.4
            else meld
            for meld in seat.melds
        )
        winning = wall.pop() if seat.open_hand and rng.random() < 0.7 else None
        winner = winner or winning is not None
        seats.append(replace(seat, melds=melds, winning=winning))
    ura = tuple(wall.pop() for _ in layout.dora_indicators) if winner and rng.random() < 0.6 else ()
    return replace(layout, seats=(seats[0], seats[1], seats[2], seats[3]), ura_indicators=ura)


def _shuffled_set(rng: np.random.Generator) -> list[Tile]:
    tiles = [tile_of_kind(kind) for kind in range(KIND_COUNT) for _ in range(4)]
    for kind in RED_FIVE_KINDS:
        tiles[tiles.index(tile_of_kind(kind))] = tile_of_kind(kind, red=True)
    order = rng.permutation(len(tiles))
    return [tiles[i] for i in order]


def _random_meld(rng: np.random.Generator, wall: list[Tile]) -> MeldLayout:
    # Faces are drawn at random rather than as legal sets: the renderer and the classifier
    # care about what each tile shows and how it lies, not whether the meld is valid.
    shape = rng.choice(["chi", "pon", "kan", "ankan"], p=[0.45, 0.4, 0.08, 0.07])
    size = 4 if shape in ("kan", "ankan") else 3
    tiles = tuple(wall.pop() for _ in range(size))
    if shape == "ankan":
        return MeldLayout(tiles, None, (0, 3))
    return MeldLayout(tiles, int(rng.integers(0, size)))
