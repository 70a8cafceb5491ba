"""Real hard negatives: each labelled photograph's largest tile-free rectangle
(``vision.eval.background_crops``), the marks of those that show an unlabelled tile, and the
shipped pipeline on the real fixture's rectangles (felt and a desk: no tile found)."""

import itertools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from vision.classify.classifier import OnnxTileClassifier
from vision.detect.aspect_judge import OnnxAspectJudge
from vision.detect.photo_reading import photo_reader, read_photo
from vision.detect.still_photo import detect_tiles, make_finder, read_image
from vision.eval.background_crops import (
    MARGIN,
    MARKS_FILE,
    MIN_TILE_WIDTHS,
    BackgroundCrop,
    background_crop,
    background_crops,
    contact_sheet,
    largest_free_rectangle,
    load_tiles_seen,
)
from vision.eval.label_file import LabelFileError, LabelledTile, load_ignored, load_labels

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).resolve().parent / "data" / "real-photos" / "labels.json"


def _largest_by_brute_force(blocked: np.ndarray) -> int:
    rows, columns = blocked.shape
    best = 0
    for top, bottom in itertools.combinations(range(rows + 1), 2):
        for left, right in itertools.combinations(range(columns + 1), 2):
            if not blocked[top:bottom, left:right].any():
                best = max(best, (bottom - top) * (right - left))
    return best


@pytest.mark.parametrize("seed", range(12))
def test_the_largest_free_rectangle_is_free_and_as_large_as_any(seed):
    rng = np.random.default_rng(seed)
    blocked = rng.random((7, 9)) < rng.uniform(0.1, 0.6)
    found = largest_free_rectangle(blocked)
    best = _largest_by_brute_force(blocked)
    if best == 0:
        assert found is None
        return
    assert found is not None
    left, top, right, bottom = found
    assert not blocked[top:bottom, left:right].any()
    assert (right - left) * (bottom - top) == best


def test_a_grid_wholly_blocked_has_no_rectangle():
    assert largest_free_rectangle(np.ones((3, 4), bool)) is None
    assert largest_free_rectangle(np.zeros((3, 4), bool)) == (0, 0, 4, 3)


def _tile(x0: float, y0: float, width: float = 40.0, height: float = 54.0) -> LabelledTile:
    corners = np.array([[x0, y0], [x0 + width, y0], [x0 + width, y0 + height], [x0, y0 + height]], np.float64)
    return LabelledTile(0, corners, None)


def test_the_rectangle_keeps_its_margin_from_every_box_and_ignored_box():
    row = [_tile(40 + 42 * i, 20) for i in range(8)]  # a row of tiles along the top
    crop = background_crop("a.jpg", (600, 800), row, ignored=[(700.0, 300.0, 780.0, 380.0)])
    assert crop is not None
    left, top, right, bottom = crop.box
    assert crop.tile_width == 40.0
    assert top >= 20 + 54 + MARGIN * 40  # below the row and its margin
    boxes = [(40, 20, 40 + 42 * 7 + 40, 74), (700, 300, 780, 380)]
    for x0, y0, x1, y1 in boxes:
        clear = MARGIN * 40
        overlaps = left < x1 + clear and right > x0 - clear and top < y1 + clear and bottom > y0 - clear
        assert not overlaps
    assert 0 <= left < right <= 800
    assert 0 <= top < bottom <= 600


def test_a_photograph_full_of_tiles_or_without_labels_gives_no_rectangle():
    grid = [_tile(x, y) for x in range(0, 300, 42) for y in range(0, 300, 56)]
    assert background_crop("full.jpg", (300, 300), grid) is None
    assert background_crop("empty.jpg", (300, 300), []) is None
    # free room narrower than MIN_TILE_WIDTHS tile widths is not taken
    narrow = int(40 * (MIN_TILE_WIDTHS - 1))
    columns = [_tile(x, y) for x in (0, 40 + narrow) for y in range(0, 300, 56)]
    assert background_crop("narrow.jpg", (300, 80 + narrow), columns) is None


def test_photographs_marked_as_showing_a_tile_are_left_out():
    labels = {"a.jpg": (_tile(10, 10),), "b.jpg": (_tile(10, 10),)}
    sizes = {"a.jpg": (600, 800), "b.jpg": (600, 800)}
    crops = background_crops(labels, sizes, tiles_seen=frozenset({"b.jpg"}))
    assert [c.image for c in crops] == ["a.jpg"]


def test_the_marks_name_held_out_images_and_refuse_an_unlooked_source(tmp_path):
    assert all(name.startswith("images/") for name in load_tiles_seen("alanchoi"))
    assert len(load_tiles_seen("leo-miura")) == 1
    with pytest.raises(LabelFileError, match="'elsewhere' has not been looked at"):
        load_tiles_seen("elsewhere")
    bad = tmp_path / "marks.json"
    bad.write_text(json.dumps({"format": "jantaku-background-marks", "version": 1, "sources": {"x": [3]}}))
    with pytest.raises(LabelFileError, match="x: expected a list of image names"):
        load_tiles_seen("x", bad)
    bad.write_text(json.dumps({"format": "something else", "version": 1}))
    with pytest.raises(LabelFileError, match="not a jantaku-background-marks file"):
        load_tiles_seen("x", bad)
    bad.write_text("{broken")
    with pytest.raises(LabelFileError, match=r"marks\.json"):
        load_tiles_seen("x", bad)
    assert MARKS_FILE.is_file()


def test_the_contact_sheet_numbers_each_crop_in_a_grid():
    picture = np.full((100, 160, 3), 90, np.uint8)
    crops = [BackgroundCrop("p.jpg", (0, 0, 80, 60), 10.0)] * 3
    sheet = contact_sheet(crops, [picture] * 3, columns=2)
    assert sheet.shape == (360, 480, 3)
    assert (sheet[180:, 240:] == 0).all()  # the grid's empty cell
    assert (sheet[:180, :240, 2] > 200).any()  # the red number


def test_the_shipped_pipeline_finds_no_tile_in_the_real_fixtures_backgrounds():
    labels, ignored = load_labels(FIXTURE), load_ignored(FIXTURE)
    classifier, finder = OnnxTileClassifier(), make_finder("learnt")
    whole = photo_reader(classifier, finder, None, OnnxAspectJudge())
    read = 0
    for name, truths in labels.items():
        photograph = read_image(FIXTURE.parent / name)
        crop = background_crop(name, photograph.shape[:2], truths, ignored.get(name, ()))
        if crop is None:
            continue
        aspect = whole(photograph).pixel_aspect
        found = read_photo(crop.cut(photograph), lambda image: detect_tiles(image, classifier, finder=finder), aspect)
        assert found.detections == (), name
        read += 1
    assert read == 5  # felt and a wooden desk below three Japanese and two Chinese photographs


def test_the_sheet_command_lists_the_crops(tmp_path):
    sheet = tmp_path / "sheet.png"
    done = subprocess.run(
        [sys.executable, "-m", "vision.eval.background_crops", "--labels", str(FIXTURE), "--out", str(sheet)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert len(done.stdout.splitlines()) == 5
    assert read_image(sheet).shape == (180, 8 * 240, 3)
