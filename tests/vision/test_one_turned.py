"""A pond shows one sideways tile at most, and a meld one in its row (``one_turned``): of two or
more read sideways, the one whose sideways reading leads its upright cut's most stays sideways,
the others are cut upright. A hand shows none (``read_found``'s ``lie_known``)."""

from __future__ import annotations

import pytest

from vision.classify.classifier import OnnxTileClassifier, TileReading
from vision.live.table_reader import TableReader
from vision.live.table_reader.checking import bench_table, differences, picked_calibration
from vision.live.table_reader.one_turned import turned_tile
from vision.render.renderer import RenderOptions
from vision.render.tile_art import ArtStyle


def _read(label: int, confidence: float) -> TileReading:
    return TileReading(label=label, confidence=confidence, upside_down=False, uncertain=confidence < 0.6)


def test_the_face_that_reads_far_better_sideways_than_upright_is_the_turned_one():
    # Seed 3 000 141's pond, as read: the riichi 9s reads 0.98 sideways and cut upright 0.03 (a
    # turned tile cut upright takes in half of two faces); an upright 6s called sideways reads
    # 9p at 0.63 cut across, and 6s at 0.22 cut upright.
    as_sideways = [_read(26, 0.98), _read(17, 0.63)]
    as_upright = [_read(23, 0.03), _read(23, 0.22)]
    assert turned_tile(as_sideways, as_upright) == 0
    assert turned_tile(as_sideways[::-1], as_upright[::-1]) == 1


def test_a_face_that_reads_as_well_either_way_is_not_the_turned_one():
    # A 1p looks the same across and along: it reads surely sideways and fairly upright, so
    # its lead is small whatever its sideways confidence.
    assert turned_tile([_read(9, 0.96), _read(8, 0.94)], [_read(9, 0.31), _read(17, 0.04)]) == 1


def test_of_equal_leads_the_first_stays_sideways():
    as_sideways = [_read(1, 0.9), _read(2, 0.8), _read(3, 0.9)]
    assert turned_tile(as_sideways, [_read(1, 0.1), _read(2, 0.0), _read(3, 0.1)]) == 0


@pytest.mark.parametrize(
    ("sideways", "upright"),
    [([], []), ([_read(1, 0.9)], []), ([_read(1, 0.9)], [_read(1, 0.9), _read(2, 0.9)])],
)
def test_readings_that_do_not_pair_up_are_refused_with_their_counts(sideways, upright):
    with pytest.raises(ValueError, match=f"{len(sideways)} sideways readings and {len(upright)} upright"):
        turned_tile(sideways, upright)


@pytest.mark.parametrize(
    ("seed", "style"),
    [
        # An upright 6s of seat 1's pond was found sideways and read 9p cut across: a second
        # riichi (at 1 and 4) and a wrong tile.
        (3_000_141, ArtStyle.REGULAR),
        # An upright 9p of seat 0's pond was found sideways and read 8p: riichi at 0 and 9.
        (3_000_166, ArtStyle.BLACK),
    ],
)
def test_a_bench_table_pond_reads_one_riichi_tile_and_its_upright_face(seed, style):
    table = bench_table(seed, RenderOptions(style=style, effects=True))
    reading = TableReader(picked_calibration(table.camera), OnnxTileClassifier()).read_image(table.rendered.image)
    wrong = differences(table.layout, reading).all
    assert not [line for line in wrong if "pond" in line or "riichi" in line]


def test_a_bench_table_meld_reads_its_one_turned_tile():
    # Seed 3 000 177: a pon of 4p with an added 9s on its turned 3s; the first 4p, upright, was
    # found sideways and read 2p surely cut across (two of its circles), and the meld turned at it.
    table = bench_table(3_000_177, RenderOptions(style=ArtStyle.REGULAR, effects=True))
    reading = TableReader(picked_calibration(table.camera), OnnxTileClassifier()).read_image(table.rendered.image)
    assert differences(table.layout, reading).all == ()


def test_a_bench_table_hand_face_is_never_turned_sideways():
    # Seed 3 000 063: seat 3's standing 6s, cut upright as a hand's finds are, was turned by the
    # lie's settling (cut across it read 9p surer) and so lay sideways. A face whose lie is known
    # is never turned: it reads 6s.
    table = bench_table(3_000_063, RenderOptions(style=ArtStyle.REGULAR, effects=True))
    reading = TableReader(picked_calibration(table.camera), OnnxTileClassifier()).read_image(table.rendered.image)
    assert not [line for line in differences(table.layout, reading).all if "hand" in line]
    assert not any(tile.sideways for seat in reading.seats for tile in seat.open_hand)
