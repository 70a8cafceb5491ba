"""A perfect reader for the fake camera: the rendered table's own layout as a ``TableReading``."""

from __future__ import annotations

from table_app.domain.tile import UNKNOWN
from vision.live.reading import SeatReading, SeenMeld, SeenTile, TableReading
from vision.render.layout import MeldLayout, TableLayout


def _meld(meld: MeldLayout) -> SeenMeld:
    tiles = tuple(
        SeenTile(UNKNOWN if i in meld.face_down_at else t, 1.0, i == meld.turned_at) for i, t in enumerate(meld.tiles)
    )
    return SeenMeld(tiles, meld.turned_at, None if meld.added is None else SeenTile(meld.added, 1.0, True))


def layout_reading(layout: TableLayout, at: float) -> TableReading:
    seats = tuple(
        SeatReading(
            tuple(SeenTile(t, 1.0, i == seat.pond.riichi_at) for i, t in enumerate(seat.pond.tiles)),
            tuple(_meld(m) for m in seat.melds),
            tuple(SeenTile(t, 1.0) for t in seat.open_hand),
            None if seat.winning is None else SeenTile(seat.winning, 1.0),
        )
        for seat in layout.seats
    )
    dora = tuple(SeenTile(t, 1.0) for t in layout.dora_indicators)
    ura = tuple(SeenTile(t, 1.0) for t in layout.ura_indicators)
    return TableReading(at, seats, dora, ura)  # type: ignore[arg-type]
