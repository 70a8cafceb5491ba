"""Checking the reader against the renderer: near-overhead cameras, the "user picked the
corners" calibration of a camera, and where a reading differs from the layout that was drawn.
Used by the tests, the benchmark and the live demo's check."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from table_app.domain.tile import UNKNOWN, Tile
from vision.calibration.calibration import Calibration
from vision.calibration.table import TableGeometry
from vision.live.reading import SeenTile, TableReading
from vision.render.camera import Camera, overhead_camera
from vision.render.layout import TableLayout, random_layout
from vision.render.renderer import RenderedTable, RenderOptions, render_table

FRAME = (1920, 1080)
TABLE = TableGeometry(680.0, 680.0, px_per_mm=1.5)


def random_overhead_camera(rng: np.random.Generator) -> Camera:
    """Near overhead, any quarter turn give or take a few degrees, the whole table in the frame."""
    return overhead_camera(
        FRAME,
        height_mm=float(rng.uniform(750, 1000)),
        px_per_mm=float(rng.uniform(1.3, 1.4)),
        yaw_deg=float(90 * rng.integers(0, 4) + rng.uniform(-4, 4)),
        tilt_deg=(float(rng.normal(0, 1.5)), float(rng.normal(0, 1.5))),
        target_mm=(float(rng.normal(0, 8)), float(rng.normal(0, 8))),
    )


@dataclass(frozen=True, eq=False)
class BenchTable:
    """One of ``bench_table_reader``'s tables: the layout drawn, its camera and the frame."""

    layout: TableLayout
    camera: Camera
    rendered: RenderedTable


def bench_table(seed: int, options: RenderOptions) -> BenchTable:
    """``bench_table_reader``'s table ``seed``: a random overhead camera and a random layout (with
    added kans, winning tiles and ura indicators) drawn from the seed, rendered with ``options``
    and that camera."""
    rng = np.random.default_rng(seed)
    camera = random_overhead_camera(rng)
    layout = random_layout(rng, extras=True)
    return BenchTable(layout, camera, render_table(seed, replace(options, camera=camera), layout))


def picked_calibration(cam: Camera, table: TableGeometry = TABLE) -> Calibration:
    """The calibration a user makes by clicking the table's four corners: their true image points."""
    corners = cam.project(np.hstack([table.corners_mm(), np.zeros((4, 1))]))
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = (tuple(map(float, corner)) for corner in corners)
    return Calibration(((x0, y0), (x1, y1), (x2, y2), (x3, y3)), FRAME, table)


def name(tile: Tile) -> str:
    if tile == UNKNOWN:
        return "?"
    return f"{tile.number}{tile.suit.value}{'r' if tile.red else ''}"


def seen(tiles: tuple[SeenTile, ...]) -> str:
    return " ".join(name(t.tile) for t in tiles)


def drawn(tiles: tuple[Tile, ...]) -> str:
    return " ".join(name(t) for t in tiles)


@dataclass(frozen=True, slots=True)
class Differences:
    """Where a reading differs from its layout, per part (empty: it reads the table exactly)."""

    ponds: tuple[str, ...]
    melds: tuple[str, ...]
    hands: tuple[str, ...]
    indicators: tuple[str, ...]

    @property
    def all(self) -> tuple[str, ...]:
        return self.ponds + self.melds + self.hands + self.indicators


def differences(layout: TableLayout, reading: TableReading) -> Differences:
    ponds, melds, hands, indicators = [], [], [], []
    for index, (drawn_seat, read_seat) in enumerate(zip(layout.seats, reading.seats, strict=True)):
        if drawn(drawn_seat.pond.tiles) != seen(read_seat.pond):
            ponds.append(f"seat {index} pond: drawn [{drawn(drawn_seat.pond.tiles)}] read [{seen(read_seat.pond)}]")
        riichi = [i for i, tile in enumerate(read_seat.pond) if tile.sideways]
        expected_riichi = [] if drawn_seat.pond.riichi_at is None else [drawn_seat.pond.riichi_at]
        if riichi != expected_riichi:
            ponds.append(f"seat {index} riichi: drawn {expected_riichi} read {riichi}")
        expected_melds = [
            (
                drawn(tuple(UNKNOWN if i in meld.face_down_at else t for i, t in enumerate(meld.tiles))),
                meld.turned_at,
                None if meld.added is None else name(meld.added),
            )
            for meld in drawn_seat.melds
        ]
        read_melds = [
            (seen(meld.tiles), meld.turned_at, None if meld.added is None else name(meld.added.tile))
            for meld in read_seat.melds
        ]
        if expected_melds != read_melds:
            melds.append(f"seat {index} melds: drawn {expected_melds} read {read_melds}")
        if drawn(drawn_seat.open_hand) != seen(read_seat.open_hand):
            hands.append(f"seat {index} hand: drawn [{drawn(drawn_seat.open_hand)}] read [{seen(read_seat.open_hand)}]")
        expected_winning = None if drawn_seat.winning is None else name(drawn_seat.winning)
        read_winning = None if read_seat.winning is None else name(read_seat.winning.tile)
        if expected_winning != read_winning:
            hands.append(f"seat {index} winning: drawn {expected_winning} read {read_winning}")
    if drawn(layout.dora_indicators) != seen(reading.dora):
        indicators.append(f"dora: drawn [{drawn(layout.dora_indicators)}] read [{seen(reading.dora)}]")
    if drawn(layout.ura_indicators) != seen(reading.ura):
        indicators.append(f"ura: drawn [{drawn(layout.ura_indicators)}] read [{seen(reading.ura)}]")
    return Differences(tuple(ponds), tuple(melds), tuple(hands), tuple(indicators))
