"""The 1 000-point stick a riichi puts on the table (``vision.render.riichi_sticks``): where it
lies, that rendering it changes nothing else, and that the live table reader reads a table
with sticks before the riichi seats' ponds as it reads the table without them."""

from dataclasses import replace

import numpy as np
import pytest

from vision.classify.classifier import OnnxTileClassifier
from vision.live.table_reader import TableReader
from vision.live.table_reader.checking import bench_table, differences, picked_calibration
from vision.render.layout import PondLayout, TableLayout, random_layout
from vision.render.placement import place_tiles, tile_corners_mm
from vision.render.renderer import RenderOptions, render_table
from vision.render.riichi_sticks import (
    STICK_FROM_CENTRE_MM,
    STICK_LENGTH_MM,
    riichi_stick_places,
    stick_outline_mm,
)


def _layout_with_riichi(seats: tuple[int, ...], seed: int = 4) -> TableLayout:
    layout = random_layout(np.random.default_rng(seed))
    ponds = [
        PondLayout(s.pond.tiles or layout.seats[0].pond.tiles, 0 if index in seats else None)
        for index, s in enumerate(layout.seats)
    ]
    new_seats = tuple(replace(s, pond=p) for s, p in zip(layout.seats, ponds, strict=True))
    return replace(layout, seats=new_seats)


def test_one_stick_lies_before_each_riichi_seats_pond_on_the_centres_side():
    layout = _layout_with_riichi((0, 2, 3))
    places = riichi_stick_places(layout, np.random.default_rng(1))
    assert len(places) == 3
    pond_tiles = [t for t in place_tiles(layout, np.random.default_rng(0)) if not t.sideways]
    nearest_pond = min(float(np.linalg.norm(tile_corners_mm(t), axis=1).min()) for t in pond_tiles)
    for place in places:
        assert np.hypot(place.x, place.y) == pytest.approx(STICK_FROM_CENTRE_MM, abs=30)
        outline = stick_outline_mm(place)
        assert np.linalg.norm(outline[1] - outline[0]) == pytest.approx(STICK_LENGTH_MM)
        # nearer the centre than the pond's nearest face, and off the centre panel's middle
        assert float(np.linalg.norm(outline, axis=1).min()) < nearest_pond
        assert float(np.linalg.norm(outline, axis=1).max()) > 40
    seat_0 = places[0]
    assert seat_0.y < 0  # seat 0 sits at the bottom (y away from seat 0)
    assert min(abs(seat_0.angle), abs(seat_0.angle - 360)) < 15  # along seat 0's rows
    assert riichi_stick_places(_layout_with_riichi(()), np.random.default_rng(1)) == ()


def test_sticks_change_no_truth_and_no_table_without_a_riichi():
    riichi = _layout_with_riichi((1,))
    plain = render_table(5, RenderOptions(size=(960, 540), effects=False), riichi)
    with_sticks = render_table(5, RenderOptions(size=(960, 540), effects=False, riichi_sticks=True), riichi)
    assert [t.label for t in plain.truths] == [t.label for t in with_sticks.truths]
    changed = np.abs(plain.image.astype(int) - with_sticks.image).sum(axis=2) > 0
    assert 0 < changed.mean() < 0.01  # one small stick
    calm = _layout_with_riichi(())
    a = render_table(5, RenderOptions(size=(960, 540), effects=True), calm).image
    b = render_table(5, RenderOptions(size=(960, 540), effects=True, riichi_sticks=True), calm).image
    assert np.array_equal(a, b)


@pytest.mark.parametrize("seed", [3_000_006, 3_000_009])
def test_the_table_reader_reads_a_table_with_riichi_sticks_as_without(seed):
    without, with_sticks = (bench_table(seed, RenderOptions(riichi_sticks=sticks)) for sticks in (False, True))
    assert sum(s.pond.riichi_at is not None for s in without.layout.seats) == 2
    reader = TableReader(picked_calibration(without.camera), OnnxTileClassifier())
    for sticks, table in ((False, without), (True, with_sticks)):
        found = differences(table.layout, reader.read_image(table.rendered.image))
        assert not found.all, (sticks, found.all)
