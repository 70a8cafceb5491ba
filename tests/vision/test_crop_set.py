"""Labelled single-tile crop sets (vision/eval/crop_set.py) and their bench
(bench/bench_tile_crops.py): the class map of the broadcast crops, the shipped classifier's
counts on crops cut from the vendored art laid out as that source lays its folders out, and
a missing folder or a broken crop named in one line."""

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from table_app.domain.tile import KIND_COUNT
from tests.vision.art_faces import art_face
from vision.classify.classifier import OnnxTileClassifier, TileReading
from vision.classify.labels import BACK_LABEL, is_red_label, kind_of_label, label_name
from vision.detect.still_photo import detect_tiles
from vision.enrollment.rows import ROW_LABELS, cut_row_layout
from vision.eval.crop_set import (
    CROP_SOURCES,
    CropScore,
    CropSetError,
    CropSource,
    enroll_on_crops,
    rows_picture,
    score_crops,
    source_crops,
    split_for_enrollment,
)
from vision.render.tile_art import ArtStyle

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_tile_crops.py"
MLEAGUE = CROP_SOURCES["mleague-crops"]


def _art_crop(label: int, style: ArtStyle = ArtStyle.REGULAR) -> np.ndarray:
    """A tile's art over white, scaled to 36×48 px: a crop of a tile's face as a set's crops are."""
    return cv2.resize(art_face(label, style), (36, 48), interpolation=cv2.INTER_AREA)


def _write_source(root: Path, source: CropSource, copies: int = 1, drawn: dict[str, int] | None = None) -> None:
    """Each class folder with ``copies`` crops of its label's art (or of ``drawn[class]``'s),
    each copy exposed a little differently."""
    for name, label in source.classes.items():
        for pattern in source.folders:
            folder = root / pattern.format(cls=name)
            folder.mkdir(parents=True)
            for copy in range(copies):
                crop = _art_crop((drawn or {}).get(name, label)).astype(np.float32) * (1 - 0.08 * copy) + 6 * copy
                cv2.imwrite(str(folder / f"{name}_{copy}.png"), np.clip(crop, 0, 255).astype(np.uint8))


def test_the_broadcast_crops_name_every_face_and_the_three_red_fives_once():
    labels = list(MLEAGUE.classes.values())
    assert len(labels) == 37
    assert len(set(labels)) == 37
    assert BACK_LABEL not in labels
    assert [label_name(MLEAGUE.classes[c]) for c in ("1", "9", "11", "21", "29", "31", "35", "37")] == [
        "1m", "9m", "1p", "1s", "9s", "1z", "5z", "7z"
    ]  # fmt: skip
    for cls, suit in (("10", "5m"), ("20", "5p"), ("30", "5s")):
        assert is_red_label(MLEAGUE.classes[cls])
        assert label_name(MLEAGUE.classes[cls]) == suit
    assert sorted(kind_of_label(label) for label in labels if not is_red_label(label)) == list(range(KIND_COUNT))


def test_crops_are_listed_per_class_in_every_folder(tmp_path):
    source = CropSource("three", "someone/crops", "0" * 12, "CC0", "test", ("a/{cls}", "b/{cls}-"), {"1": 0, "2": 34})
    _write_source(tmp_path, source, copies=2)
    crops = source_crops(source, tmp_path)
    assert [c.label for c in crops] == [0] * 4 + [34] * 4
    assert {c.path.parent.name for c in crops} == {"1", "1-", "2", "2-"}


def test_the_shipped_classifier_reads_art_crops_and_their_red_fives(tmp_path, shipped_classifier):
    classes = {"5m": 4, "r5m": 34, "r5p": 35, "r5s": 36, "6m": 5, "1z": 27}
    source = CropSource("fives", "someone/crops", "0" * 12, "CC0", "test", ("{cls}",), classes)
    _write_source(tmp_path, source)
    score = score_crops(source_crops(source, tmp_path), shipped_classifier.classify_quads)
    assert score.crops == 6
    assert score.kind_right == 6, score.confusions
    assert (score.reds, score.reds_read_red, score.plain_fives, score.plain_fives_read_red) == (3, 3, 1, 0)
    assert score.reds_by_suit == {"5m": [1, 1], "5p": [1, 1], "5s": [1, 1]}


def test_a_wrong_reading_is_counted_as_a_confusion(tmp_path, shipped_classifier):
    # A 6m crop labelled as a red 5m: its kind is wrong, and it is a red five not read red.
    source = CropSource("wrong", "someone/crops", "0" * 12, "CC0", "test", ("{cls}",), {"x": 34})
    (tmp_path / "x").mkdir()
    cv2.imwrite(str(tmp_path / "x" / "six.png"), _art_crop(5))
    score = score_crops(source_crops(source, tmp_path), shipped_classifier.classify_quads)
    assert (score.kind_right, score.reds, score.reds_read_red) == (0, 1, 0)
    assert score.confusions == {("red 5m", "6m"): 1}


def test_a_missing_class_folder_names_it(tmp_path):
    with pytest.raises(CropSetError, match=r"class 1 folder .*test_origin/1 does not exist"):
        source_crops(MLEAGUE, tmp_path)


def test_a_broken_crop_names_the_file(tmp_path, shipped_classifier):
    source = CropSource("one", "someone/crops", "0" * 12, "CC0", "test", ("{cls}",), {"1": 0})
    (tmp_path / "1").mkdir()
    (tmp_path / "1" / "broken.png").write_bytes(b"not a picture")
    with pytest.raises(CropSetError, match=r"broken\.png is not a readable picture"):
        score_crops(source_crops(source, tmp_path), shipped_classifier.classify_quads)


def test_the_first_crops_of_each_tile_are_enrolled_on_and_the_rest_measured(tmp_path):
    source = CropSource("two", "someone/crops", "0" * 12, "CC0", "test", ("{cls}",), {"1": 0, "2": 27})
    _write_source(tmp_path, source, copies=3)
    enrolled, measured = split_for_enrollment(source_crops(source, tmp_path), 1)
    assert [(c.label, c.path.name) for c in enrolled] == [(0, "1_0.png"), (27, "2_0.png")]
    assert [c.label for c in measured] == [0, 0, 27, 27]
    with pytest.raises(ValueError, match="at least one crop"):
        split_for_enrollment(enrolled, 0)


def test_enrolling_on_one_crop_of_each_tile_teaches_a_set_the_model_misreads(tmp_path):
    # A set whose red 5m looks like the art's 6m: read as 6m as shipped, as a red 5m once enrolled.
    source = CropSource("odd", "someone/crops", "0" * 12, "CC0", "test", ("{cls}",), {"r5m": 34, "1z": 27, "9p": 17})
    _write_source(tmp_path, source, copies=4, drawn={"r5m": 5})
    enrolled, measured = split_for_enrollment(source_crops(source, tmp_path), 1)
    classifier = OnnxTileClassifier()
    before = score_crops(measured, classifier.classify_quads)
    assert (before.reds, before.reds_read_red) == (3, 0)
    assert before.confusions[("red 5m", "6m")] == 3
    classifier.enrollment = enroll_on_crops(enrolled, classifier).head
    after = score_crops(measured, classifier.classify_quads)
    assert (after.reds_read_red, after.kind_right) == (3, 9)


def test_a_rows_picture_of_crops_is_cut_by_the_rows_layout_as_laid(tmp_path, shipped_classifier):
    _write_source(tmp_path, MLEAGUE)
    crops = source_crops(MLEAGUE, tmp_path)[::2]  # one of each tile (two folders a class)
    picture, laid = rows_picture(crops, seed=3)
    assert [t.label for t in laid] == [label for row in ROW_LABELS for label in row]
    cut = cut_row_layout([d.corners for d in detect_tiles(picture, shipped_classifier)])
    assert [t.label for t in cut] == [t.label for t in laid]
    for found, truth in zip(cut, laid, strict=True):
        height = float(np.linalg.norm(truth.corners[3] - truth.corners[0]))
        assert np.linalg.norm(found.corners.mean(axis=0) - truth.corners.mean(axis=0)) < 0.25 * height


def test_a_rows_picture_needs_one_crop_of_each_tile(tmp_path):
    _write_source(tmp_path, MLEAGUE)
    crops = [c for c in source_crops(MLEAGUE, tmp_path)[::2] if c.label not in (34, 8)]
    with pytest.raises(ValueError, match="none of 9m, 5m"):
        rows_picture(crops)


def _bench(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCH), *arguments], check=False, capture_output=True, text=True, timeout=120
    )


def test_the_bench_prints_the_figures_of_a_whole_source(tmp_path):
    _write_source(tmp_path, MLEAGUE)
    done = _bench("--repo", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "74 crops" in done.stdout
    accuracy = float(done.stdout.split("34-kind ")[1].split()[0])
    assert accuracy >= 0.9  # the vendored art the classifier learnt from
    assert "red fives read red" in done.stdout
    assert "(5m " in done.stdout


def test_the_bench_prints_the_figures_before_and_after_enrolling(tmp_path):
    _write_source(tmp_path, MLEAGUE)
    done = _bench("--repo", str(tmp_path), "--enroll", "1")
    assert done.returncode == 0, done.stderr
    assert "37 crops" in done.stdout  # one of each tile enrolled on, the other 37 measured
    shipped, enrolled = done.stdout.split("enrolled on 37 crops (1 of each tile):")
    assert "as shipped:" in shipped
    assert "red fives read red 3/3 (5m 1/1, 5p 1/1, 5s 1/1)" in enrolled
    assert "34-kind 1.000 (37/37)" in enrolled


def test_the_bench_enrolls_from_a_rows_photo_and_checks_on_another(tmp_path):
    _write_source(tmp_path, MLEAGUE, copies=2)
    done = _bench("--repo", str(tmp_path), "--rows", "3")  # 4 crops a tile: the first and 3 checks
    assert done.returncode == 0, done.stderr
    assert "rows layout: 4 of 4 photos accepted (0 refused)" in done.stdout
    after = float(
        done.stdout.split("second photos' label accuracy (38), 111 tiles: before ")[1].split("after ")[1].split()[0]
    )
    assert after >= 0.97


def test_the_bench_names_a_checkout_that_is_not_the_source_in_one_line(tmp_path):
    done = _bench("--repo", str(tmp_path / "absent"))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().count("\n") == 0
    assert "takahasiyouhei/majon-tile-detection" in done.stderr


def test_a_red_five_counts_as_found_only_when_read_as_itself():
    score = CropScore()
    score.add(36, TileReading(34, 0.9, False, False))  # a red 5s read as the red 5m
    score.add(36, TileReading(36, 0.9, False, False))
    score.add(22, TileReading(36, 0.9, False, False))  # a plain 5s read red
    assert (score.reds, score.reds_read_red, score.reds_by_suit) == (2, 1, {"5s": [1, 2]})
    assert (score.plain_fives, score.plain_fives_read_red) == (1, 1)
    assert score.confusions == {("red 5s", "red 5m"): 1}
