"""The table reader's structure, on masks and faces drawn by hand: which row and meld each read
tile is in (``seat_tiles``), faces cut where tile lies but nothing was found (``gaps``), and
rows fitted to their runs in the felt mask (``row_runs``)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.calibration.table import STANDARD_TILE
from vision.classify.classifier import TileReading
from vision.live.reading import Zone
from vision.live.table_reader.gaps import GapSearch, gap_faces
from vision.live.table_reader.row_fitting import SeatRows
from vision.live.table_reader.row_runs import Run, doubled, laid_out, last_set_apart, misfit, row_runs, set_apart, ways
from vision.live.table_reader.seat_tiles import (
    Piece,
    ZoneTile,
    arrange,
    centred_piece,
    face_scale,
    frame_quad,
    frame_quads,
    group_melds,
    meld_groups,
)
from vision.live.table_reader.structure import ReadTile, seat_reading

SCALE = face_scale(STANDARD_TILE, 1.5)  # faces ~30 × 41 px
W, H = SCALE.width, SCALE.height


def row_of(count: int, left: float, top: float, gap: float = 2.0, sideways_at: int | None = None):
    """Faces of one row, left to right, beginning at line ``top``."""
    faces, at = [], left
    for index in range(count):
        turned = index == sideways_at
        along, across = (H, W) if turned else (W, H)
        faces.append(centred_piece(at + along / 2, top + across / 2, turned, SCALE))
        at += along + gap
    return faces


def painted(faces, shape=(300, 600)):
    mask = np.zeros(shape, np.uint8)
    for face in faces:
        mask[round(face.top) : round(face.bottom), round(face.left) : round(face.right)] = 1
    return mask


def test_pond_rows_are_told_by_their_top_line_a_riichi_tile_included():
    rows = [row_of(6, 10, 20), row_of(6, 10, 20 + H + 3, sideways_at=2), row_of(2, 10, 20 + 2 * (H + 3))]
    faces = [face for row in rows for face in row]
    order = np.random.default_rng(1).permutation(len(faces))
    placed = arrange(Zone.POND, [faces[i] for i in order], SCALE, wall_row_line=0.0)
    assert all(isinstance(tile, ZoneTile) for tile in placed)
    assert [tile.row for tile in placed if tile is not None] == [0 if i < 6 else 1 if i < 12 else 2 for i in order]


def test_wall_tiles_past_the_line_are_the_wall_s_row_the_rest_the_ura_row():
    wall, ura = row_of(3, 10, 100), row_of(2, 40, 100 - H - 2)
    placed = arrange(Zone.WALL, wall + ura, SCALE, wall_row_line=100.0)
    assert [t.row for t in placed if t is not None] == [0, 0, 0, 1, 1]


def test_melds_are_runs_of_touching_tiles_and_an_added_tile_joins_the_turned_one_it_lies_on():
    outer = 250.0
    # Two melds, 10 px apart: a pon called from the left (sideways first) and a chi.
    pon = row_of(3, 100, outer - H, gap=0.5, sideways_at=0)
    pon[0] = centred_piece(pon[0].centre_u, outer - W / 2, True, SCALE)  # against the owner's side
    chi = row_of(3, pon[-1].right + 12, outer - H, gap=0.5, sideways_at=1)
    chi[1] = centred_piece(chi[1].centre_u, outer - W / 2, True, SCALE)
    added = centred_piece(pon[0].centre_u, outer - 1.5 * W - 1, True, SCALE)
    placed = arrange(Zone.MELDS, [*pon, added, *chi], SCALE, wall_row_line=0.0)
    assert [t.row for t in placed] == [0, 0, 0, 1, 0, 0, 0]
    grouped = group_melds(placed, SCALE)
    assert [(t.row, t.meld) for t in grouped if t is not None] == [(0, 0)] * 3 + [(1, 0)] + [(0, 1)] * 3


def two_added_kans_side_by_side(outer: float) -> tuple[list[Piece], list[Piece], Piece]:
    """A pon called from the right and one from the left, their sideways tiles side by side,
    an added tile on each, and a cut straddling the two added tiles (judged upright)."""
    left = row_of(3, 100, outer - H, gap=0.5, sideways_at=2)
    left[2] = centred_piece(left[2].centre_u, outer - W / 2, True, SCALE)
    right = row_of(3, left[-1].right + 6, outer - H, gap=0.5, sideways_at=0)
    right[0] = centred_piece(right[0].centre_u, outer - W / 2, True, SCALE)
    added = [centred_piece(turned.centre_u, outer - 1.5 * W - 1, True, SCALE) for turned in (left[2], right[0])]
    straddling = centred_piece((added[0].centre_u + added[1].centre_u) / 2, outer - 1.5 * W, False, SCALE)
    return left + right, added, straddling


def test_a_face_ending_well_in_from_the_meld_row_s_edge_is_no_face_of_the_row_upright_or_not():
    in_row, added, straddling = two_added_kans_side_by_side(outer=250.0)
    placed = arrange(Zone.MELDS, [*in_row, *added, straddling], SCALE, wall_row_line=0.0)
    assert [t.row for t in placed] == [0] * 6 + [1, 1, 1]
    grouped = group_melds(placed, SCALE)
    assert [(t.row, t.meld) for t in grouped[:8] if t is not None] == [(0, 0)] * 3 + [(0, 1)] * 3 + [(1, 0), (1, 1)]


def test_an_added_tile_seen_further_out_is_still_added_and_a_row_face_found_off_still_in_the_row():
    """On top of the turned tile, an added tile is seen further out (parallax, up to half a
    face's width at the table's corners); a row face's find may end a quarter of a width past
    the row's edge. Neither moves a face across the line."""
    in_row, added, _ = two_added_kans_side_by_side(outer=250.0)
    seen_out = [replace(face, top=face.top + 0.3 * W, bottom=face.bottom + 0.3 * W) for face in added]
    placed = arrange(Zone.MELDS, [*in_row, *seen_out], SCALE, wall_row_line=0.0)
    assert [t.row for t in placed] == [0] * 6 + [1, 1]
    off = replace(in_row[3], top=in_row[3].top + 0.26 * W, bottom=in_row[3].bottom + 0.26 * W)
    placed = arrange(Zone.MELDS, [*in_row[:3], off, *in_row[4:], *added], SCALE, wall_row_line=0.0)
    assert [t.row for t in placed] == [0] * 6 + [1, 1]


def test_of_two_faces_over_a_meld_s_turned_tile_the_surer_is_its_added_tile():
    in_row, added, straddling = two_added_kans_side_by_side(outer=250.0)
    # The straddling cut, read uncertain, lies over the left meld's turned tile, and comes first.
    over_left = replace(straddling, left=straddling.left - 12, right=straddling.right - 12)
    faces = [
        *(ZoneTile(Zone.MELDS, 0, face, meld=index // 3) for index, face in enumerate(in_row)),
        ZoneTile(Zone.MELDS, 1, over_left, meld=0),
        ZoneTile(Zone.MELDS, 1, added[0], meld=0),
    ]
    labels = [1, 2, 3, 11, 12, 13, 21, 7]  # the row's, the cut's, the added tile's
    confidences = [0.99] * 6 + [0.05, 0.7]
    tiles = [
        ReadTile(face, TileReading(label, confidence, False, confidence < 0.5), np.zeros((4, 2)))
        for face, label, confidence in zip(faces, labels, confidences, strict=True)
    ]
    left_meld = seat_reading(tiles, W, frozenset()).melds[-1]  # melds right to left
    assert left_meld.added is not None
    assert left_meld.added.tile == TileReading(7, 1.0, False, False).tile


def test_a_meld_whose_turned_tile_has_an_added_tile_beside_it_is_a_pon_of_three():
    """Seed 3 000 030: a pon with an added tile, then a kan of four, the gap between them hidden
    (the turned tile ends where the kan's first face begins) and a gap inside the pon a little
    wider. Cut at the widest gap, the pon took the kan's first tile; an added kan's pon has
    three tiles in the row."""
    outer = 250.0
    pon = [
        centred_piece(100 + W / 2, outer - H / 2, False, SCALE),
        centred_piece(100 + 1.5 * W, outer - H / 2, False, SCALE),
    ]
    turned = Piece(pon[-1].right + 0.2 * W, pon[-1].right + 0.2 * W + H, outer - W, outer, True)
    kan = row_of(4, turned.right, outer - H, gap=0.05 * W, sideways_at=2)
    kan = [replace(f, top=outer - W, bottom=outer) if f.sideways else f for f in kan]
    row = [*pon, turned, *kan]
    added = replace(turned, top=turned.top - W, bottom=turned.bottom - W)
    assert [len(group) for group in meld_groups(row, SCALE)] == [4, 3]  # without the added tile
    assert [len(group) for group in meld_groups(row, SCALE, [added])] == [3, 4]
    tiles = [ZoneTile(Zone.MELDS, 0, face) for face in row] + [ZoneTile(Zone.MELDS, 1, added)]
    grouped = group_melds(tiles, SCALE)
    assert [t.meld for t in grouped if t is not None] == [0, 0, 0, 1, 1, 1, 1, 0]


def test_a_face_found_upright_beside_an_added_tile_is_planned_turned_and_read_again():
    """Seeds 3 000 067 and 3 000 083: a white dragon turned under an added tile, judged
    upright (its blank face shows no way up). The added tile lies beside the meld's turned
    tile: the row's plan cuts that face sideways along it, and reads it there."""
    outer = 250.0
    pon = row_of(3, 100, outer - H, gap=1.5, sideways_at=0)
    turned = replace(pon[0], top=outer - W, bottom=outer)
    found_upright = centred_piece(turned.centre_u + 2, outer - H / 2, False, SCALE)  # the judge's call
    added = replace(turned, top=turned.top - W, bottom=turned.bottom - W)
    sure = TileReading(31, 0.9, False, False)
    tiles = [ReadTile(ZoneTile(Zone.MELDS, 0, face), sure, np.zeros((4, 2))) for face in (found_upright, *pon[1:])] + [
        ReadTile(ZoneTile(Zone.MELDS, 1, added), sure, np.zeros((4, 2)))
    ]
    plan = SeatRows(np.eye(3), SCALE, centre_u=1000.0).planned(painted([turned, *pon[1:], added]), tiles)
    (row,) = plan.rows
    ((index, face),) = row.turned
    assert index == 0
    assert face.sideways
    assert (face.left, face.right, face.bottom) == pytest.approx((added.left, added.right, outer))
    assert face in plan.faces()  # read with the rows' batch
    # The run that holds it fits, and lays it where it was turned: it is not read a second time.
    (run,) = row.runs
    assert run.fits
    assert run.moved == []
    assert sum(f.sideways for f in plan.faces()) == 1
    # With no added tile beside it, a face is left as found.
    alone = [tile for tile in tiles if tile.found.row == 0]
    assert SeatRows(np.eye(3), SCALE, centre_u=1000.0).planned(painted(pon), alone).rows[0].turned == []


def test_a_lone_tile_in_the_melds_row_is_no_meld():
    lone = row_of(1, 100, 200)
    assert group_melds(arrange(Zone.MELDS, lone, SCALE, wall_row_line=0.0), SCALE) == [None]
    assert meld_groups(lone, SCALE) == []


def faces_cut(search):
    """The faces ``gap_faces`` cuts, as pieces; every one as light as a face."""
    faces = list(gap_faces(search, SCALE))
    assert not any(face.dark for face in faces)
    return [face.piece for face in faces]


def search_of(residual, mask=None, gray=None, level=220.0, max_rows=3):
    mask = residual if mask is None else mask
    gray = np.where(mask > 0, 230, 90).astype(np.uint8) if gray is None else gray
    return GapSearch(residual, mask, gray, cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR), (1000, 2000), max_rows, level)


def test_a_gap_one_face_wide_gives_one_upright_face_at_the_origin_s_place():
    row = row_of(3, 50, 30)
    residual = painted(row[1:2])
    (face,) = faces_cut(search_of(residual))
    assert not face.sideways
    assert face.centre_u == pytest.approx(row[1].centre_u + 1000, abs=1)
    assert face.centre_v == pytest.approx(row[1].centre_v + 2000, abs=1)


def test_a_lone_face_a_height_long_and_a_width_deep_lies_sideways():
    riichi = centred_piece(100, 60, True, SCALE)
    (face,) = faces_cut(search_of(painted([riichi])))
    assert face.sideways
    assert face.right - face.left == pytest.approx(H)


def test_a_gap_three_faces_long_and_two_rows_deep_gives_six_faces():
    faces = row_of(3, 50, 30, gap=1) + row_of(3, 50, 30 + H + 2, gap=1)
    found = list(faces_cut(search_of(painted(faces))))
    assert len(found) == 6
    assert sorted({round(f.top) for f in found}) == pytest.approx([30 + 1000 * 0 + 2000, 32 + H + 2000], abs=2)


def test_slivers_are_no_faces_and_dark_patches_are_dark_faces():
    sliver = np.zeros((300, 600), np.uint8)
    sliver[40:80, 100:108] = 1  # a tile's side, 8 px wide
    assert list(faces_cut(search_of(sliver))) == []
    patch = painted(row_of(1, 50, 30))
    dark = np.where(patch > 0, 120, 90).astype(np.uint8)  # felt in a shadow, or a face in one
    (face,) = gap_faces(search_of(patch, gray=dark), SCALE)
    assert face.dark  # the reader keeps it only where it reads as a face with marks


def test_a_patch_of_felt_that_fades_into_the_felt_is_no_face_but_one_with_edges_is():
    """Seed 3 000 044 (black faces): the felt's lighter patches pass the colour test in pieces a
    face's size, dark enough to pass for black faces, but have no edges."""
    face = painted(row_of(1, 50, 30))
    sharp = np.where(face > 0, 110, 90).astype(np.uint8)
    soft = cv2.GaussianBlur(sharp.astype(np.float32), (0, 0), 15).round().astype(np.uint8)
    assert len(list(faces_cut(search_of(face, gray=sharp, level=100.0)))) == 1
    assert list(faces_cut(search_of(face, gray=soft, level=100.0))) == []


def test_a_run_a_face_longer_than_its_faces_holds_one_more():
    row = row_of(6, 40, 50)
    mask = painted(row)
    kept = [row[i] for i in (0, 1, 2, 4, 5)]  # the fourth was never found
    (run,) = row_runs(mask, 50, kept, SCALE)
    assert misfit(run, kept, SCALE) == 1
    (way,) = ways([False] * 5, 1)  # an upright face anywhere in a row of upright ones is one way
    assert len(ways([False, True, False], 1)) == 2  # left of the sideways face or right of it
    faces = laid_out(run, way, 50, SCALE, centre_u=1000.0)
    assert [f.centre_u for f in faces] == pytest.approx([f.centre_u for f in row], abs=2)


def test_a_run_whose_faces_fit_is_left_as_it_is_and_a_face_too_many_may_go():
    row = row_of(4, 40, 50, sideways_at=1)
    (run,) = row_runs(painted(row), 50, row, SCALE)
    assert misfit(run, row, SCALE) == 0
    doubled = [*row, centred_piece(row[1].centre_u + 10, row[1].centre_v, True, SCALE)]
    doubled.sort(key=lambda f: f.centre_u)
    (run,) = row_runs(painted(row), 50, doubled, SCALE)
    assert misfit(run, doubled, SCALE) == -1
    assert len(ways([f.sideways for f in doubled], -1)) == 5


def test_a_called_tile_lies_against_the_owner_s_side_and_a_side_on_the_centre_s():
    run = Run(100.0, 100.0 + 2 * W + H + 1 + 8, (0, 1, 2))  # 8 px of a tile's side at one end
    left_of_centre = laid_out(run, (True, False, False), 50, SCALE, centre_u=1000.0, owner_side=True)
    assert left_of_centre[0].bottom == pytest.approx(50 + H)
    assert left_of_centre[0].top == pytest.approx(50 + H - W)
    assert left_of_centre[0].left == pytest.approx(100.0)  # the side is on the right, towards the centre
    right_of_centre = laid_out(run, (True, False, False), 50, SCALE, centre_u=0.0, owner_side=True)
    assert right_of_centre[-1].right == pytest.approx(run.right)


def test_a_hand_s_winning_tile_set_apart_stays_apart_when_blur_bridges_the_gap():
    hand = row_of(13, 40, 50, gap=1.5)
    winning = centred_piece(hand[-1].right + 0.4 * W + W / 2, hand[-1].centre_v, False, SCALE)
    faces = [*hand, winning]
    bridged = painted([*faces, Piece(hand[-1].right, winning.left, hand[-1].top, hand[-1].bottom, False)])
    (run,) = row_runs(bridged, 50, faces, SCALE)  # the mask shows one run: the gap is filled
    assert misfit(run, faces, SCALE) == 0  # and it fits: laid out evenly, the gap would be spread out
    parts = last_set_apart(run, faces, SCALE, (0.25, 0.75))
    assert [part.members for part in parts] == [tuple(range(13)), (13,)]
    assert parts[0].right == pytest.approx(hand[-1].right)
    assert parts[1].left == pytest.approx(winning.left)
    assert parts[1].right == run.right
    laid = laid_out(parts[0], [False] * 13, 50, SCALE, centre_u=1000.0) + laid_out(
        parts[1], [False], 50, SCALE, centre_u=1000.0
    )
    assert laid[-1].left - laid[-2].right > 0.3 * W  # the winning tile is still apart


def test_only_the_last_face_is_set_apart_and_a_face_wide_gap_is_left_to_the_fitting():
    row = row_of(6, 40, 50)
    missed = [row[i] for i in (0, 1, 2, 3, 5)]  # a face never found leaves a face-wide gap
    (run,) = row_runs(painted(row), 50, missed, SCALE)
    assert last_set_apart(run, missed, SCALE, (0.25, 0.75)) == [run]
    (whole,) = row_runs(painted(row), 50, row, SCALE)
    assert last_set_apart(whole, row, SCALE, (0.25, 0.75)) == [whole]
    inside = [*row[:3], *(replace(f, left=f.left + 0.4 * W, right=f.right + 0.4 * W) for f in row[3:])]
    bridge = Piece(inside[2].right, inside[3].left, inside[2].top, inside[2].bottom, False)  # blur fills it
    (wide,) = row_runs(painted([*inside, bridge]), 50, inside, SCALE)
    assert last_set_apart(wide, inside, SCALE, (0.25, 0.75)) == [wide]  # a gap inside the hand stays


def test_faces_side_by_side_in_a_run_the_mask_cut_short_all_stay():
    """The mask misses part of a face (a symbol in the felt's colour, glare) and breaks the row
    there: the run ending in that face is shorter than its faces, but they stand side by side,
    so none is dropped; a face found twice (a box on each half) may still go."""
    row = row_of(6, 40, 50, gap=3)
    mask = painted(row)
    hole = row[1].centre_u
    mask[:, round(hole) - 3 : round(hole) + 8] = 0  # felt through the second face's middle
    runs = row_runs(mask, 50, row, SCALE)
    assert len(runs) == 2
    assert misfit(runs[0], row, SCALE) == -1  # two faces in a run a face and a half long
    assert not doubled(runs[0], row, SCALE)
    tiles = [
        ReadTile(ZoneTile(Zone.POND, 0, face), TileReading(i, 0.99, False, False), np.zeros((4, 2)))
        for i, face in enumerate(row)
    ]
    plan = SeatRows(np.eye(3), SCALE, centre_u=1000.0).planned(mask, tiles)
    assert all(len(options) == len(run.run.members) for run in plan.rows[0].runs for options in run.options)
    # Read uncertain, the face on the mask's hole may be no face: the ways without one are tried.
    unsure = [replace(t, reading=replace(t.reading, uncertain=True)) if i == 1 else t for i, t in enumerate(tiles)]
    plan = SeatRows(np.eye(3), SCALE, centre_u=1000.0).planned(mask, unsure)
    assert [len(options) for options in plan.rows[0].runs[0].options] == [1, 1]
    twice = sorted(
        [*row, centred_piece(row[1].centre_u + 0.4 * W, row[1].centre_v, False, SCALE)], key=lambda f: f.left
    )
    (whole,) = row_runs(painted(row), 50, twice, SCALE)
    assert doubled(whole, twice, SCALE)


def test_two_melds_whose_gap_blur_bridged_are_fitted_apart_and_stay_two():
    """A kan and a pon 9 px apart (a sixth of a face's width and more starts a meld), the gap
    filled in the mask: the row is fitted as two runs, so laying the faces out keeps the gap
    and the melds their bounds. Laid out evenly as one run, the gap was spread over the row's
    gaps and the pon took the kan's last tile."""
    outer = 250.0
    kan = row_of(4, 100, outer - H, gap=1.5, sideways_at=2)
    pon = row_of(3, kan[-1].right + 9, outer - H, gap=1.5, sideways_at=2)
    faces = [replace(f, top=outer - W, bottom=outer) if f.sideways else f for f in kan + pon]
    mask = painted([*faces, Piece(kan[-1].right, pon[0].left, outer - H, outer, False)])
    tiles = [
        ReadTile(ZoneTile(Zone.MELDS, 0, face), TileReading(1, 0.99, False, False), np.zeros((4, 2))) for face in faces
    ]
    plan = SeatRows(np.eye(3), SCALE, centre_u=1000.0).planned(mask, tiles)
    (row,) = plan.rows
    assert [len(run.run.members) for run in row.runs] == [4, 3]
    laid = sorted((face for run in row.runs for face in run.options[0]), key=lambda f: f.left)
    assert [len(group) for group in meld_groups(laid, SCALE)] == [4, 3]
    (one,) = row_runs(mask, outer - H, faces, SCALE)
    assert [part.members for part in set_apart(one, faces, SCALE, (0.17, 0.75))] == [(0, 1, 2, 3), (4, 5, 6)]
    # A face of the pon missed: the run is laid out whole, way by way, each with the face put in.
    short = [tile for index, tile in enumerate(tiles) if index != 5]
    (row,) = SeatRows(np.eye(3), SCALE, centre_u=1000.0).planned(mask, short).rows
    assert [len(run.run.members) for run in row.runs] == [6]
    assert {len(way) for way in row.runs[0].options} == {7}


def test_two_upright_faces_found_as_one_uncertain_sideways_face_are_tried_upright():
    """Seed 3 000 022 (`black`, with effects): after a pon's turned tile, the two upright faces
    of the meld were found as one sideways face across their seam, read uncertain. Only upright
    faces put in beside it, no way gave the meld its two; turned upright, it is one more way."""
    outer = 250.0
    chi = row_of(3, 100, outer - H, gap=1.5, sideways_at=1)
    pon = row_of(3, chi[-1].right + 12, outer - H, gap=1.5, sideways_at=0)
    drawn = [replace(f, top=outer - W, bottom=outer) if f.sideways else f for f in chi + pon]
    seam = centred_piece(pon[1].right + 0.75, outer - W / 2, True, SCALE)  # across the last two faces
    found = [*drawn[:4], seam]
    sure = TileReading(1, 0.99, False, False)
    tiles = [ReadTile(ZoneTile(Zone.MELDS, 0, face), sure, np.zeros((4, 2))) for face in found]
    tiles[-1] = replace(tiles[-1], reading=TileReading(2, 0.07, False, True))
    mask = painted([*drawn, Piece(chi[-1].right, pon[0].left, outer - H, outer, False)])  # blur bridged the melds
    rows = SeatRows(np.eye(3), SCALE, centre_u=1000.0)
    (row,) = rows.planned(mask, tiles).rows
    (run,) = row.runs
    assert not run.fits
    drawn_way = [f.sideways for f in drawn]
    assert drawn_way in [[f.sideways for f in way] for way in run.options]
    laid = next(way for way in run.options if [f.sideways for f in way] == drawn_way)
    # Laid out evenly along the run (the melds' gap spread over the row's): each within a quarter face.
    assert [f.centre_u for f in laid] == pytest.approx([f.centre_u for f in drawn], abs=0.25 * W)
    # Read surely, a sideways find stays sideways: only upright faces are put in beside it.
    tiles[-1] = replace(tiles[-1], reading=sure)
    (row,) = rows.planned(mask, tiles).rows
    assert all(sum(f.sideways for f in way) == 3 for way in row.runs[0].options)


def test_a_cut_straddling_two_pond_rows_joins_one_and_takes_no_face_of_the_next_into_a_row_of_its_own():
    """A find halfway between rows 1 and 2 (seed 3 000 010 with effects): begun at its top, it
    started a row, and row 2's first face, a little higher than the rest, went into it."""
    rows = [row_of(6, 10, 20), row_of(6, 10, 20 + H + 3), row_of(7, 10, 20 + 2 * (H + 3))]
    rows[2][1] = replace(rows[2][1], top=rows[2][1].top - 2, bottom=rows[2][1].bottom - 2)
    straddling = centred_piece(rows[2][1].right, 20 + 1.5 * (H + 3) + H / 2, False, SCALE)
    faces = [face for row in rows for face in row] + [straddling]
    placed = arrange(Zone.POND, faces, SCALE, wall_row_line=0.0)
    assert [tile.row for tile in placed[:19]] == [0] * 6 + [1] * 6 + [2] * 7
    assert placed[19].row in (1, 2)


def test_a_gap_in_the_added_row_is_cut_sideways_however_deep_its_strip():
    """An added tile the detector missed (seed 3 000 024 with effects): its side and its
    parallax on top of the turned tile make its strip in the mask deeper than a face is wide
    and longer than one is high; cut by its depth alone, it gave two upright faces."""
    outer = 250.0  # where the meld row's faces end
    strip = Piece(100, 100 + 1.85 * W, outer - W - H, outer - W, False)
    residual = painted([strip])
    (face,) = faces_cut(replace(search_of(residual, max_rows=2), row_edge=outer))
    assert face.sideways
    assert face.bottom == pytest.approx(strip.bottom + 2000, abs=1)
    # A gap at the row's edge is the row's: cut by its depth as before.
    in_row = painted([Piece(100, 100 + W, outer - H, outer, False)])
    (face,) = faces_cut(replace(search_of(in_row, max_rows=2), row_edge=outer))
    assert not face.sideways


def test_faces_taken_to_the_frame_together_get_the_corners_each_gets_alone():
    """``frame_quads`` (one call for a seat's faces) against each face's own corners in face
    order, upright and sideways, through a tilted seat-to-frame map: the same float64 corners."""
    rng = np.random.default_rng(5)
    to_frame = np.array([[0.9, -0.2, 400.0], [0.15, 1.1, 120.0], [1e-4, -2e-4, 1.0]])
    faces = [
        centred_piece(float(u), float(v), bool(turned), SCALE)
        for u, v, turned in zip(rng.uniform(0, 1000, 40), rng.uniform(0, 1000, 40), rng.random(40) < 0.4, strict=True)
    ]
    together = frame_quads(faces, to_frame)
    assert len(together) == len(faces)
    for face, quad in zip(faces, together, strict=True):
        left, right, top, bottom = face.left - 0.5, face.right - 0.5, face.top - 0.5, face.bottom - 0.5
        if face.sideways:
            corners = [(left, bottom), (left, top), (right, top), (right, bottom)]
        else:
            corners = [(left, top), (right, top), (right, bottom), (left, bottom)]
        alone = cv2.perspectiveTransform(np.array(corners, np.float64).reshape(-1, 1, 2), to_frame).reshape(4, 2)
        assert quad.shape == (4, 2)
        assert quad.dtype == np.float64
        assert np.array_equal(quad, alone)
        assert np.array_equal(frame_quad(face, to_frame), alone)
    # Face order: the top-left corner first; a sideways face's top lies to the left.
    upright = frame_quad(Piece(10.5, 40.5, 20.5, 60.5, False), np.eye(3))
    sideways = frame_quad(Piece(10.5, 50.5, 20.5, 50.5, True), np.eye(3))
    assert upright.tolist() == [[10, 20], [40, 20], [40, 60], [10, 60]]
    assert sideways.tolist() == [[10, 50], [10, 20], [50, 20], [50, 50]]
    assert frame_quads([], to_frame) == []
