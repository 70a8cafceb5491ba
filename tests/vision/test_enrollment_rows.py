"""Enrolling from a phone photo of tiles laid out in rows (``vision.enrollment.rows``, ``jantaku
vision enroll --layout rows``): no printed sheet, the tiles found as ``vision detect`` finds them."""

import json

import cv2
import numpy as np
import pytest

from table_app.cli import main
from vision.enrollment.rows import ROW_LABELS, LayoutError, cut_row_layout
from vision.render.enrolled_faces import enrolled_art, enrolled_faces
from vision.render.enrollment_rows import render_row_layout
from vision.render.tile_palette import palette_of_table

#: Layouts in an unfamiliar palette the shipped detector finds whole (not every seed is: a tile
#: it misses is refused by name, tested below; bench/bench_enrollment.py --rows gives the rate).
SOURCE_SEED, CHECK_SEED = 21, 24
ALL_LABELS = [label for row in ROW_LABELS for label in row]


@pytest.fixture(scope="module")
def layout():
    return render_row_layout(palette_of_table(SOURCE_SEED), SOURCE_SEED)


def _shuffled_corners(layout, rng):
    # Finders give corners starting at either short edge, and finds in any order.
    quads = [np.roll(t.corners, 2 * int(rng.integers(0, 2)), axis=0) for t in layout.truths]
    return [quads[i] for i in rng.permutation(len(quads))]


def test_the_true_faces_are_labelled_by_their_place(layout):
    tiles = cut_row_layout(_shuffled_corners(layout, np.random.default_rng(1)))
    assert [t.label for t in tiles] == ALL_LABELS
    for tile, truth in zip(tiles, layout.truths, strict=True):
        assert np.abs(tile.corners - truth.corners).max() < 1.0  # the top is the higher edge, as laid


def test_a_tile_found_as_two_halves_is_one_tile(layout):
    corners = [t.corners for t in layout.truths]
    whole = corners[4]
    middle_top, middle_bottom = (whole[0] + whole[1]) / 2, (whole[3] + whole[2]) / 2
    left = np.array([whole[0], middle_top, middle_bottom, whole[3]])
    right = np.array([middle_top, whole[1], whole[2], middle_bottom])
    tiles = cut_row_layout([*corners[:4], left, right, *corners[5:]])
    assert [t.label for t in tiles] == ALL_LABELS
    assert np.abs(tiles[4].corners.mean(axis=0) - whole.mean(axis=0)).max() < 2.0


def test_the_red_five_row_may_be_left_out(layout):
    tiles = cut_row_layout([t.corners for t in layout.truths[:34]])
    assert [t.label for t in tiles] == ALL_LABELS[:34]


def test_a_tile_not_found_between_two_is_cut_halfway(layout):
    corners = [t.corners for t in layout.truths]
    del corners[12]  # the fourth tile of the second row
    tiles = cut_row_layout(corners)
    assert [t.label for t in tiles] == ALL_LABELS
    assert np.abs(tiles[12].corners.mean(axis=0) - layout.truths[12].corners.mean(axis=0)).max() < 8.0


def test_two_tiles_not_found_side_by_side_are_refused_naming_the_row(layout):
    corners = [t.corners for t in layout.truths]
    del corners[12:14]
    with pytest.raises(LayoutError, match=r"row 2 \(1p-9p\): no tiles found between its tile 3 and the next"):
        cut_row_layout(corners)


def test_a_row_short_at_its_end_is_refused_with_the_counts(layout):
    corners = [t.corners for t in layout.truths]
    del corners[17]  # 9p, the last of its row: nothing says where it was
    with pytest.raises(LayoutError, match=r"row 2, 1p-9p: 8 found, 9 wanted"):
        cut_row_layout(corners)


def test_a_photo_without_tiles_is_refused():
    with pytest.raises(LayoutError, match="no tiles found"):
        cut_row_layout([])


def test_enroll_from_rows_reports_a_second_photo_before_and_after(layout, tmp_path, capsys):
    source, check = tmp_path / "rows.png", tmp_path / "rows-2.png"
    cv2.imwrite(str(source), layout.image)
    cv2.imwrite(str(check), render_row_layout(palette_of_table(SOURCE_SEED), CHECK_SEED).image)
    out = tmp_path / "set.enrollment.json"
    command = ["vision", "enroll", "--layout", "rows", "--source", str(source), "--check", str(check)]
    assert main([*command, "--out", str(out), "--copies", "8"]) == 0
    printed = capsys.readouterr().out
    assert "37 tiles enrolled" in printed
    assert "empty cells" not in printed
    assert "second photo" in printed
    document = json.loads(out.read_text())
    second = document["accuracy"]["second_photo"]
    assert second["crops"] == 37
    assert second["after"] >= second["before"]
    assert second["after"] >= 0.9
    # The faces as cut are kept beside the enrollment: the renderer draws tables in them.
    assert document["faces"] == "set.enrollment.faces"
    assert len(list((tmp_path / "set.enrollment.faces").glob("*.png"))) == 37
    assert "faces kept in" in printed
    art = enrolled_art(enrolled_faces(out))
    assert art.red_fives


def test_enroll_rows_refuses_a_bare_photo_in_one_line(tmp_path, capsys):
    photo = tmp_path / "felt.png"
    cv2.imwrite(str(photo), np.full((300, 400, 3), (40, 120, 40), np.uint8))
    assert (
        main(["vision", "enroll", "--layout", "rows", "--source", str(photo), "--out", str(tmp_path / "e.json")]) == 2
    )
    error = capsys.readouterr().err
    assert "no tiles found" in error
    assert "felt.png" in error  # the photo is named: --check reads a second one
