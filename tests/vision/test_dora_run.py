"""The dora indicators lie face up in one run along one wall (``vision.live.table_reader.dora_run``):
a white dragon read in a wall apart from that run is a washed-out back."""

from __future__ import annotations

import numpy as np

from table_app.domain.notation import parse_tile
from vision.classify.classifier import OnnxTileClassifier, TileReading
from vision.classify.labels import BACK_LABEL, label_of
from vision.live.reading import Zone
from vision.live.table_reader import TableReader
from vision.live.table_reader.checking import bench_table, picked_calibration
from vision.live.table_reader.dora_run import ADJACENT, MOST_INDICATORS, checked_walls
from vision.live.table_reader.seat_tiles import Piece, ZoneTile
from vision.live.table_reader.structure import ReadTile
from vision.render.renderer import RenderOptions
from vision.render.tile_art import ArtStyle

WIDTH = 30.0
PITCH = 31.0  # touching stacks, a thirtieth of a width apart
BLANK = "5z"


def _wall(*labels: str, start: float = 0.0, gap_after: int | None = None, gap: float = 0.0) -> list[ReadTile]:
    """A wall's top row, left to right: ``"back"``, a tile's name, or a name with ``?`` (uncertain)."""
    tiles = []
    left = start
    for index, text in enumerate(labels):
        uncertain = text.endswith("?")
        name = text.rstrip("?")
        label = BACK_LABEL if name == "back" else label_of(parse_tile(name))
        piece = Piece(left, left + WIDTH, 0.0, 40.0, False)
        reading = TileReading(label, 0.95, False, uncertain)
        tiles.append(ReadTile(ZoneTile(Zone.WALL, 0, piece), reading, np.zeros((4, 2), np.float32)))
        left += PITCH + (gap if gap_after == index else 0.0)
    return tiles


def _names(wall: list[ReadTile]) -> list[str]:
    return [
        ("back" if t.reading.face_down else str(t.reading.tile)) + ("?" if t.reading.uncertain else "") for t in wall
    ]


def test_a_white_dragon_a_back_away_from_the_marked_indicators_is_read_as_an_uncertain_back():
    wall = _wall("back", BLANK, "back", "7s", "back", "back")
    (checked,) = checked_walls([wall], WIDTH)
    assert _names(checked) == ["back", "back?", "back", "7s", "back", "back"]
    assert checked[3] is wall[3]  # the indicator, and every other tile, is the one given


def test_a_white_dragon_beside_the_marked_indicators_may_be_one_and_stays():
    wall = _wall("back", "back", BLANK, "6p", "9p", "back")
    (checked,) = checked_walls([wall], WIDTH)
    assert _names(checked) == ["back", "back", BLANK, "6p", "9p", "back"]


def test_once_a_white_dragon_is_read_as_a_back_those_beside_the_indicators_are_doubted():
    wall = _wall(BLANK, "back", BLANK, BLANK, "2s", "3m", "1m", "back")
    (checked,) = checked_walls([wall], WIDTH)
    assert _names(checked) == ["back?", "back", f"{BLANK}?", f"{BLANK}?", "2s", "3m", "1m", "back"]


def test_white_dragons_in_another_wall_or_past_a_gap_are_backs():
    dead = _wall("back", "back", "1z", "back")
    other = _wall("back", BLANK, BLANK, "back")
    checked_dead, checked_other = checked_walls([dead, other], WIDTH)
    assert _names(checked_dead) == ["back", "back", "1z", "back"]
    assert _names(checked_other) == ["back", "back?", "back?", "back"]
    # No back between, but a gap wider than touching stacks leave: apart from the run.
    apart = _wall(BLANK, "2s", gap_after=0, gap=ADJACENT * WIDTH + 2.0)
    assert _names(checked_walls([apart], WIDTH)[0]) == ["back?", "2s"]
    touching = _wall(BLANK, "2s", gap_after=0, gap=ADJACENT * WIDTH - 2.0)
    assert _names(checked_walls([touching], WIDTH)[0]) == [BLANK, "2s"]


def test_an_uncertain_face_bears_no_marks_to_go_by():
    wall = _wall(BLANK, "back", "7s?")
    (checked,) = checked_walls([wall], WIDTH)
    # Two runs and neither bears sure marks: which is the indicator cannot be told, and the
    # white dragon is doubted (not read as a back).
    assert _names(checked) == [f"{BLANK}?", "back", "7s?"]


def test_with_no_marked_face_white_dragons_in_two_runs_are_all_doubted_and_one_run_is_left_alone():
    one_run = _wall("back", BLANK, BLANK, "back")
    assert checked_walls([one_run], WIDTH)[0] == one_run
    two_runs = _wall(BLANK, "back", BLANK)
    assert _names(checked_walls([two_runs], WIDTH)[0]) == [f"{BLANK}?", "back", f"{BLANK}?"]


def test_a_run_longer_than_a_table_shows_loses_its_end_white_dragons():
    wall = _wall(BLANK, BLANK, "2s", "3m", "1m", "4p", BLANK)
    assert len(wall) == MOST_INDICATORS + 2
    (checked,) = checked_walls([wall], WIDTH)
    assert _names(checked) == ["back?", "back?", "2s", "3m", "1m", "4p", f"{BLANK}?"]
    # Five in a run is a table with four kans: left alone.
    five = _wall(BLANK, "2s", "3m", "1m", BLANK)
    assert checked_walls([five], WIDTH)[0] == five


def test_walls_of_backs_and_empty_walls_are_left_as_they_are():
    walls = [_wall("back", "back"), [], _wall("back")]
    assert checked_walls(walls, WIDTH) == walls


def test_a_table_whose_glare_washes_two_backs_of_a_wall_out_reads_its_dora():
    """Bench table 3 000 066 (``bench_table_reader``, with camera effects): a lamp's glare washes
    two orange backs of the wall across from the dead wall to cream, and the classifier reads
    them as sure white dragons; the dora read 5z 5z before this check."""
    table = bench_table(3_000_066, RenderOptions(style=ArtStyle.REGULAR, effects=True))
    reading = TableReader(picked_calibration(table.camera), OnnxTileClassifier()).read_image(table.rendered.image)
    assert [t.tile for t in reading.dora] == list(table.layout.dora_indicators)
    assert not any(t.uncertain for t in reading.dora)
