"""Grid files of whole tile sets photographed laid out in grids (``vision.eval.set_grids``), which
``bench/bench_enrollment_photos.py`` measures tile-set enrollment on. No photograph is needed:
the shipped grid file is checked for what it must hold, and the geometry on made-up grids."""

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from vision.classify.crops import turned_half
from vision.eval.set_grids import (
    GridPhoto,
    SetGridError,
    aligned,
    assign_finds,
    enrolled_cells,
    load_set_grids,
)

SHIPPED = Path(__file__).resolve().parents[2] / "models" / "labels" / "enrollment-photos.json"


def _write(tmp_path, images, sets=None):
    document = {
        "format": "jantaku-set-grids",
        "version": 1,
        "images": images,
        "sets": sets if sets is not None else [{"name": "a", "enroll": "a.jpg", "check": ["a.jpg"]}],
    }
    path = tmp_path / "grids.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return path


def _grid(tmp_path, rows, outline=(0, 0, 300, 200)):
    return load_set_grids(_write(tmp_path, {"a.jpg": {"outline": list(outline), "rows": rows}})).images["a.jpg"]


def test_the_shipped_file_holds_whole_sets_of_four_of_each_kind():
    grids = load_set_grids(SHIPPED)
    whole = [g for g in grids.images.values() if not g.name.startswith("1-")]
    assert len(whole) == 10
    for grid in whole:
        counts = Counter(grid.label(c) for c in grid.labelled_cells())
        assert counts == Counter(dict.fromkeys(range(34), 4)), grid.name
    # Set 1's photos are checked on one another, never on the photo it was enrolled from.
    crossed = [s for s in grids.sets if s.name.startswith("1 ")]
    assert crossed
    assert all(s.enroll not in s.check for s in crossed)


def test_cells_divide_the_outline_evenly_and_an_upside_down_tile_reads_turned(tmp_path):
    grid = _grid(tmp_path, ["1m 2m↓ -", "1z 7z 5z"])
    assert (grid.rows, grid.columns) == (2, 3)
    np.testing.assert_allclose(grid.cell_quad((1, 2)), [[200, 100], [300, 100], [300, 200], [200, 200]], atol=1e-6)
    upright = np.array([[100, 0], [200, 0], [200, 100], [100, 100]], float)
    np.testing.assert_allclose(grid.cell_quad((0, 1)), turned_half(upright), atol=1e-6)
    assert grid.labels[0] == (0, 1, None)
    assert grid.labelled_cells() == [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)]


def test_a_slanted_outline_maps_points_to_their_cells(tmp_path):
    # A grid seen at an angle: four corners, the cells follow the perspective.
    corners = [[10, 0], [210, 20], [200, 220], [0, 200]]
    grid = _grid(tmp_path, ["1m 2m", "3m 4m"], outline=corners)
    centres = np.array([grid.cell_quad((r, c)).mean(axis=0) for r in range(2) for c in range(2)])
    assert grid.cells_of(centres) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert grid.cells_of(np.array([[-50.0, -50.0], [500.0, 100.0]])) == [None, None]


def test_each_cell_takes_the_find_nearest_its_centre(tmp_path):
    grid = _grid(tmp_path, ["1m 2m 3m"])  # cells 100 wide, 200 tall
    whole = np.array([[10, 10], [90, 10], [90, 190], [10, 190]], float)  # cell (0, 0)
    half = np.array([[110, 10], [190, 10], [190, 90], [110, 90]], float)  # upper half of (0, 1)
    glyph = np.array([[20, 20], [40, 20], [40, 40], [20, 40]], float)  # inside (0, 0), off its centre
    outside = whole + np.array([0, 500])
    assert assign_finds(grid, [glyph, whole, half, outside]) == {(0, 0): 1, (0, 1): 2}
    assert assign_finds(grid, []) == {}


def test_the_enrolled_copy_is_the_first_upright_one(tmp_path):
    grid = _grid(tmp_path, ["1m↓ 2m 1m", "1m 2m↓ 3m↓"])
    assert enrolled_cells(grid) == {0: (0, 2), 1: (0, 1), 2: (1, 2)}
    assert isinstance(grid, GridPhoto)


def test_a_find_is_read_the_way_its_cell_lies():
    cell = np.array([[0, 0], [100, 0], [100, 200], [0, 200]], float)
    find = np.array([[95, 190], [5, 195], [3, 8], [97, 4]], float)  # read upside down by the finder
    np.testing.assert_allclose(aligned(find, cell), np.roll(find, 2, axis=0))
    np.testing.assert_allclose(aligned(find, turned_half(cell)), find)


@pytest.mark.parametrize(
    ("images", "sets", "message"),
    [
        ({"a.jpg": {"outline": [0, 0, 9, 9], "rows": ["1m 2m", "3m"]}}, None, r"images\['a.jpg'\]: every row .* 2, 1"),
        ({"a.jpg": {"outline": [0, 0, 9, 9], "rows": ["1m 8z"]}}, None, r"images\['a.jpg'\]: row 1 cell 2: tile '8z'"),
        ({"a.jpg": {"outline": [0, 0, 9, 9], "rows": ["back"]}}, None, r"row 1 cell 1: 'back' is not a face"),
        ({"a.jpg": {"outline": [9, 0, 0, 9], "rows": ["1m"]}}, None, r"images\['a.jpg'\]: outline: must be a box"),
        ({"a.jpg": {"outline": [[0, 0], [0, 9], [9, 9], [9, 0]], "rows": ["1m"]}}, None, r"clockwise"),
        ({"a.jpg": {"outline": [0, 0, 9, 9], "rows": "1m"}}, None, r"rows must be a list of strings"),
        (
            {"a.jpg": {"outline": [0, 0, 9, 9], "rows": ["1m"]}},
            [{"name": "a", "enroll": "b.jpg", "check": ["a.jpg"]}],
            r"sets\[0\]: image 'b.jpg' is not one of the file's images",
        ),
    ],
)
def test_a_bad_entry_is_refused_naming_the_file_and_the_entry(tmp_path, images, sets, message):
    path = _write(tmp_path, images, sets)
    with pytest.raises(SetGridError, match=message) as error:
        load_set_grids(path)
    assert str(path) in str(error.value)


def test_a_missing_or_foreign_file_is_refused(tmp_path):
    with pytest.raises(SetGridError, match="does not exist"):
        load_set_grids(tmp_path / "none.json")
    other = tmp_path / "other.json"
    other.write_text('{"format": "jantaku-labels", "version": 1}', encoding="utf-8")
    with pytest.raises(SetGridError, match='not a "jantaku-set-grids" file'):
        load_set_grids(other)
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(SetGridError, match=r"broken\.json: not JSON \(line 1 column 2"):
        load_set_grids(broken)
