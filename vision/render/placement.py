"""Where each tile of a layout lies on the table plane (millimetres, origin at the centre).

Table axes: x to the right and y away from seat 0 (up in a top-down view). A tile's angle is
the clockwise turn of its top from +y. Each seat's things are laid out in the seat's own
frame (x to its right, y towards the centre) and turned into place: seat 1 sits on the right.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Final

import numpy as np

from table_app.domain.tile import UNKNOWN, Tile
from vision.classify.labels import label_of
from vision.render.layout import MeldLayout, SeatLayout, TableLayout

TILE_WIDTH_MM: Final = 20.0
TILE_HEIGHT_MM: Final = 27.0
TILE_THICKNESS_MM: Final = 16.0
#: Clockwise turn of each seat's frame: its tiles' tops point to the centre.
SEAT_TURN_DEG: Final = (0.0, 270.0, 180.0, 90.0)

_POND_NEAR_MM: Final = 70.0  # pond rows start this far from the centre (past the dice panel)
_POND_LEFT_MM: Final = -60.0
_WALL_MM: Final = 205.0
_DEAD_WALL_LEFT_MM: Final = 30.0
_WALL_STACKS_BESIDE_DEAD_WALL: Final = 9
_HAND_MM: Final = 268.0
_MELD_MM: Final = 318.0
_MELD_RIGHT_MM: Final = 340.0
_WINNING_GAP_MM: Final = 0.5 * TILE_WIDTH_MM  # the winning tile is set apart from the open hand
_URA_GAP_MM: Final = 0.5  # the ura row lies against the dead wall's centre side


@dataclass(frozen=True, slots=True)
class PlacedTile:
    label: int
    x: float
    y: float
    angle: float  # clockwise turn of the tile's top from table +y, degrees
    sideways: bool  # turned across its owner's line of sight (riichi discard, called tile)


#: The randomness of one group of tiles (a seat's pond, its hand, its n-th meld, its wall, the
#: dead wall): ``(seat, group) -> generator``. One shared generator for everything gives a
#: fresh table per seed; one generator per group (seeded from the group) keeps every tile
#: of a group where it was while tiles are added after it: a fixed camera's table.
GroupRandom = Callable[[int, str], np.random.Generator]


def place_tiles(
    layout: TableLayout, rng: np.random.Generator, group_random: GroupRandom | None = None
) -> tuple[PlacedTile, ...]:
    """Every tile of the layout; ``rng`` adds the small gaps and wobble of hands placing tiles
    (``group_random``, when given, draws them per group instead)."""
    random_of = group_random if group_random is not None else lambda _seat, _group: rng
    placed: list[PlacedTile] = []
    for seat, seat_layout in enumerate(layout.seats):
        dead_wall = seat == layout.dead_wall_seat
        local = _seat_tiles(seat_layout, partial(random_of, seat), dead_wall=dead_wall)
        if dead_wall:
            local += _dead_wall(layout.dora_indicators, random_of(seat, "dead wall"))
            if layout.ura_indicators:
                local += _ura_row(layout.ura_indicators, random_of(seat, "ura"))
        placed.extend(_turn(tile, SEAT_TURN_DEG[seat]) for tile in local)
    return tuple(placed)


def _seat_tiles(
    seat: SeatLayout, random_of: Callable[[str], np.random.Generator], *, dead_wall: bool
) -> list[PlacedTile]:
    tiles = _pond(seat, random_of("pond"))
    hand_random = random_of("hand")
    hand = _row([(t, False) for t in seat.open_hand], -7 * TILE_WIDTH_MM, -_HAND_MM, hand_random, gap=0.4)
    tiles += hand
    if seat.winning is not None:
        hand_right = hand[-1].x + TILE_WIDTH_MM / 2 if hand else -7 * TILE_WIDTH_MM
        gap = _WINNING_GAP_MM * hand_random.uniform(0.8, 1.2)
        tiles += _row([(seat.winning, False)], hand_right + gap, -_HAND_MM, hand_random, gap=0.0)
    right = _MELD_RIGHT_MM
    for index, meld in enumerate(seat.melds):
        rng = random_of(f"meld {index}")
        meld_tiles = _meld(meld, right, rng)
        tiles += meld_tiles
        in_row = meld_tiles[: len(meld.tiles)]  # an added kan's tile lies beside the row, not in it
        right -= sum(TILE_HEIGHT_MM if t.sideways else TILE_WIDTH_MM for t in in_row) + rng.uniform(4, 12)
    stacks = min(seat.wall_stacks, _WALL_STACKS_BESIDE_DEAD_WALL) if dead_wall else seat.wall_stacks
    if stacks:
        start = -8.5 * TILE_WIDTH_MM
        tiles += _row([(UNKNOWN, False)] * stacks, start, -_WALL_MM, random_of("wall"), gap=0.2, wobble=0.3)
    return tiles


def _pond(seat: SeatLayout, rng: np.random.Generator) -> list[PlacedTile]:
    tiles: list[PlacedTile] = []
    pond = seat.pond
    row_gap = rng.uniform(0.3, 3.0)
    for row in range(3):
        chunk = pond.tiles[row * 6 : (row + 1) * 6] if row < 2 else pond.tiles[12:]
        offset = row * 6
        near = -(_POND_NEAR_MM + (row + 1) * TILE_HEIGHT_MM + row * row_gap)
        entries = [(tile, pond.riichi_at == offset + i) for i, tile in enumerate(chunk)]
        tiles += _row(entries, _POND_LEFT_MM, near, rng, gap=rng.uniform(0.2, 2.0), align_far=True)
    return tiles


def _meld(meld: MeldLayout, right: float, rng: np.random.Generator) -> list[PlacedTile]:
    width = sum(TILE_HEIGHT_MM if i == meld.turned_at else TILE_WIDTH_MM for i in range(len(meld.tiles)))
    entries = [(UNKNOWN if i in meld.face_down_at else tile, i == meld.turned_at) for i, tile in enumerate(meld.tiles)]
    # Melds sit at the table edge: the sideways tile lines up with the edge nearest the owner.
    tiles = _row(entries, right - width, -_MELD_MM, rng, gap=0.3, align_far=False)
    if meld.added is not None and meld.turned_at is not None:
        # An added kan's tile lies sideways on the far side of the turned one (away from the owner).
        turned = tiles[meld.turned_at]
        left = turned.x - TILE_HEIGHT_MM / 2
        near = turned.y + TILE_WIDTH_MM / 2 + rng.uniform(0.2, 0.6)
        tiles += _row([(meld.added, True)], left, near, rng, gap=0.0)
    return tiles


def _dead_wall(indicators: tuple[Tile, ...], rng: np.random.Generator) -> list[PlacedTile]:
    entries = [(UNKNOWN, False)] * 7
    for i, tile in enumerate(indicators[:5]):
        entries[2 + i] = (tile, False)
    return _row(entries, _DEAD_WALL_LEFT_MM, -_WALL_MM, rng, gap=0.2, wobble=0.3)


def _ura_row(indicators: tuple[Tile, ...], rng: np.random.Generator) -> list[PlacedTile]:
    """The ura indicators, face up in front of the dead wall (towards the centre), below the dora indicators."""
    left = _DEAD_WALL_LEFT_MM + 2 * (TILE_WIDTH_MM + 0.2)
    near = -_WALL_MM + TILE_HEIGHT_MM + _URA_GAP_MM
    return _row([(tile, False) for tile in indicators], left, near, rng, gap=0.3, wobble=0.5)


def _row(
    entries: list[tuple[Tile, bool]],
    left: float,
    near: float,
    rng: np.random.Generator,
    *,
    gap: float,
    wobble: float = 0.8,
    align_far: bool = False,
) -> list[PlacedTile]:
    """Tiles left to right from ``left``; ``near`` is the row's edge nearest the owner.

    An upright tile spans ``near``..``near + height``; a sideways one is as tall as a tile is
    wide and sits against the near edge, or the far edge in a pond (``align_far``) — either
    way it stays inside the row's band, so rows never overlap.
    """
    tiles: list[PlacedTile] = []
    x = left
    for tile, sideways in entries:
        along = TILE_HEIGHT_MM if sideways else TILE_WIDTH_MM
        across = TILE_WIDTH_MM if sideways else TILE_HEIGHT_MM
        low = near + TILE_HEIGHT_MM - across if sideways and align_far else near
        turn = 270.0 if sideways else 0.0
        cx = x + along / 2 + rng.normal(0, wobble / 2)
        cy = low + across / 2 + rng.normal(0, wobble / 2)
        tiles.append(PlacedTile(label_of(tile), cx, cy, turn + rng.normal(0, wobble), sideways))
        x += along + gap * rng.uniform(0.5, 1.5)
    return tiles


def _turn(tile: PlacedTile, degrees: float) -> PlacedTile:
    x, y = turned_point(tile.x, tile.y, degrees)
    return PlacedTile(tile.label, x, y, (tile.angle + degrees) % 360.0, tile.sideways)


def turned_point(x: float, y: float, degrees: float) -> tuple[float, float]:
    """A point of a seat's own frame on the table: turned ``degrees`` clockwise about the
    centre (a y-up frame; the seat's turn is :data:`SEAT_TURN_DEG`)."""
    radians = np.deg2rad(degrees)
    cos, sin = np.cos(radians), np.sin(radians)
    return float(x * cos + y * sin), float(-x * sin + y * cos)


def tile_corners_mm(tile: PlacedTile) -> np.ndarray:
    """The top face's corners (4×2, table mm) in face order: top-left, top-right, bottom-right, bottom-left."""
    half_w, half_h = TILE_WIDTH_MM / 2, TILE_HEIGHT_MM / 2
    local = np.array([[-half_w, half_h], [half_w, half_h], [half_w, -half_h], [-half_w, -half_h]])
    radians = np.deg2rad(tile.angle)
    cos, sin = np.cos(radians), np.sin(radians)
    turned = np.stack([local[:, 0] * cos + local[:, 1] * sin, -local[:, 0] * sin + local[:, 1] * cos], axis=1)
    return np.asarray(turned + np.array([tile.x, tile.y]))
