"""Seat zones hold the renderer's tiles: every tile of a random table falls in its own seat's zone."""

from __future__ import annotations

import numpy as np
import pytest

from vision.calibration.table import PhysicalTileSize, TableGeometry
from vision.calibration.zones import SeatZones, contains, seat_zones
from vision.render.layout import TableLayout, random_layout
from vision.render.placement import PlacedTile, place_tiles

TABLE = TableGeometry(680.0, 680.0, px_per_mm=1.5)
ZONE_NAMES = ("pond", "melds", "open_hand", "dora")
DEAD_WALL_TILES = 7
STACKS_BESIDE_DEAD_WALL = 9


def expected_zones(layout: TableLayout) -> list[tuple[int, str]]:
    """(seat, zone) of each tile in ``place_tiles`` order: per seat its pond, open hand, melds, wall
    (then the dead wall, in the dead-wall seat's wall)."""
    zones: list[tuple[int, str]] = []
    for seat, things in enumerate(layout.seats):
        dead_wall = seat == layout.dead_wall_seat
        zones += [(seat, "pond")] * len(things.pond.tiles)
        zones += [(seat, "open_hand")] * (len(things.open_hand) + (things.winning is not None))
        zones += [(seat, "melds")] * sum(len(meld.tiles) + (meld.added is not None) for meld in things.melds)
        stacks = min(things.wall_stacks, STACKS_BESIDE_DEAD_WALL) if dead_wall else things.wall_stacks
        dead_wall_tiles = DEAD_WALL_TILES + len(layout.ura_indicators) if dead_wall else 0
        zones += [(seat, "dora")] * (stacks + dead_wall_tiles)
    return zones


def zones_holding(zones: tuple[SeatZones, ...], tile: PlacedTile) -> list[tuple[int, str]]:
    point = TABLE.to_view(np.array([[tile.x, tile.y]]))[0]
    return [(z.seat, name) for z in zones for name in ZONE_NAMES if contains(getattr(z, name), (point[0], point[1]))]


@pytest.mark.parametrize("extras", [False, True], ids=["plain", "extras"])
@pytest.mark.parametrize("seed", range(12))
def test_every_rendered_tile_lies_in_its_own_zone_only(seed, extras):
    """With ``extras``: added kans, winning tiles set apart and ura indicators too."""
    rng = np.random.default_rng(seed)
    layout = random_layout(rng, extras=extras)
    placed = place_tiles(layout, rng)
    zones = seat_zones(TABLE, PhysicalTileSize())
    expected = expected_zones(layout)
    assert len(expected) == len(placed)
    for tile, where in zip(placed, expected, strict=True):
        assert zones_holding(zones, tile) == [where], tile


def test_extras_appear_in_random_layouts():
    layouts = [random_layout(np.random.default_rng(seed), extras=True) for seed in range(12)]
    assert any(layout.ura_indicators for layout in layouts)
    assert any(seat.winning is not None for layout in layouts for seat in layout.seats)
    assert any(meld.added is not None for layout in layouts for seat in layout.seats for meld in seat.melds)


def test_zones_grow_with_the_tile_size():
    small = seat_zones(TABLE, PhysicalTileSize(20, 27))[0].pond
    large = seat_zones(TABLE, PhysicalTileSize(24, 32))[0].pond
    width = lambda polygon: max(x for x, _ in polygon) - min(x for x, _ in polygon)  # noqa: E731
    assert width(large) > width(small) * 1.15


def test_seat_one_sits_on_the_right_of_the_view():
    zones = seat_zones(TABLE, PhysicalTileSize())
    centre_x = TABLE.view_size[0] / 2
    assert all(x > centre_x for x, _ in zones[1].pond)
    assert all(x < centre_x for x, _ in zones[3].pond)
    assert all(y > TABLE.view_size[1] / 2 for _, y in zones[0].pond)  # seat 0 at the bottom
