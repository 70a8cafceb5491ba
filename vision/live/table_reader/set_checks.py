"""Readings checked against what a set and a table can show: each seat's tiles in, the same
tiles out, some read again or called uncertain.

- the walls (``dora_run``): a white dragon in a wall apart from the dora indicators' run is a
  washed-out back;
- the white dragon (``washed_out``): read less surely than it needs, it is uncertain;
- four of a kind (``tile_copies``): every face of a kind read surely more than four times is
  uncertain.

Pure.
"""

from __future__ import annotations

from dataclasses import replace

from vision.live.reading import Zone
from vision.live.table_reader.dora_run import checked_walls
from vision.live.table_reader.structure import ReadTile, SeatFind
from vision.live.table_reader.tile_copies import doubted, over_counted
from vision.live.table_reader.washed_out import blank_doubted


def checked_against_the_set(finds: list[SeatFind], width: float) -> list[SeatFind]:
    """``finds`` with the white dragons in the walls that cannot be dora indicators read as
    backs (``dora_run``), a white dragon read less surely than it needs (``washed_out``), and
    every face of a kind read surely more than four times in the zones seen (``tile_copies``),
    marked uncertain: each of the latter may be the misread one. ``width``: a face's, seat pixels.
    The kinds are counted as the classifier read them: the white dragons the first two checks
    set aside are a sign that this frame washes faces out, not one fewer sure face."""
    kinds = over_counted(t.reading for f in finds for t in f.tiles if t.found.zone not in f.occluded)
    finds = _walls_checked(finds, width)
    finds = [replace(f, tiles=tuple(_blank_checked(t) for t in f.tiles)) for f in finds]
    if not kinds:
        return finds
    return [replace(f, tiles=tuple(replace(t, reading=doubted(t.reading, kinds)) for t in f.tiles)) for f in finds]


def _walls_checked(finds: list[SeatFind], width: float) -> list[SeatFind]:
    """``finds`` with their seen walls' top rows checked against the dora indicators' run (``dora_run``)."""
    walls = [
        [t for t in f.tiles if t.found.zone == Zone.WALL and t.found.row == 0] if Zone.WALL not in f.occluded else []
        for f in finds
    ]
    checked = checked_walls(walls, width)
    read_again = {
        id(old): new
        for wall, after in zip(walls, checked, strict=True)
        for old, new in zip(wall, after, strict=True)
        if new is not old
    }
    if not read_again:
        return finds
    return [replace(f, tiles=tuple(read_again.get(id(t), t) for t in f.tiles)) for f in finds]


def _blank_checked(tile: ReadTile) -> ReadTile:
    reading = blank_doubted(tile.reading)
    return tile if reading is tile.reading else replace(tile, reading=reading)
