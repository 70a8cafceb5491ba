"""The training tools' JSON files (vision/training): a label file or model metadata that is
missing, not JSON or not a JSON object is refused with an error naming the file, by the
functions the recipes call and, in one line on stderr with a failing status, by the tools
run from the command line. Nothing here needs torch."""

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from vision.find.finder import FindResult
from vision.training import (
    compact_source,
    photo_crops,
    photo_frames,
    real_photos,
    red_five_marks,
    sideways_marks,
    verifier_data,
)
from vision.training.photo_marks import MarksError
from vision.training.real_photos import RealPhotoError

ROOT = Path(__file__).resolve().parents[2]

#: Each broken file: its text (None: no file at all) and what the error says of it.
BROKEN = {
    "not JSON": ('{"images": {"a.jpg": [', "not JSON (line 1 column"),
    "a JSON array": ("[1, 2, 3]", "must hold a JSON object {...}, not an array"),
    "missing": (None, "does not exist"),
}


def label_file(folder: Path, text: str | None) -> Path:
    """``folder/labels.json`` holding ``text`` (None: not there)."""
    path = folder / "labels.json"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    return path


class _NoFinds:
    def find(self, image: np.ndarray) -> FindResult:  # never reached: the file is refused first
        raise AssertionError("the label file should have been refused before any image was read")


#: The functions that read a built source's labels.json, each given the file's path.
SOURCE_READERS = {
    "photo_frames": lambda path, out: photo_frames.build_photo_frames(path, seed=0),
    "photo_crops": lambda path, out: photo_crops.photo_crops(path, "train", seed=0),
    "compact_source": compact_source.compact,
    "verifier_data": lambda path, out: verifier_data.mine_label_set(path, _NoFinds(), seed=0),
    "real_photos subset": lambda path, out: real_photos.subset(path, "train", out / "labels-train.json"),
}

#: The functions that draw marking sheets from a label file.
SHEET_READERS = {
    "red_five_marks": lambda path, out: red_five_marks.contact_sheet(path),
    "sideways_marks": lambda path, out: sideways_marks.write_sheets(path, out, 1.0, marks_path=out / "no-marks.json"),
}


@pytest.mark.parametrize("reader", SOURCE_READERS)
@pytest.mark.parametrize("kind", BROKEN)
def test_a_built_source_s_broken_label_file_is_refused_by_name(tmp_path, reader, kind):
    path = label_file(tmp_path, BROKEN[kind][0])
    with pytest.raises(RealPhotoError) as refused:
        SOURCE_READERS[reader](path, tmp_path / "out")
    assert str(refused.value).startswith(f"labels file {path}: {BROKEN[kind][1]}")
    assert "\n" not in str(refused.value)
    assert not (tmp_path / "out").exists()  # nothing written


@pytest.mark.parametrize("reader", SOURCE_READERS)
def test_a_label_file_that_is_not_a_built_source_s_is_refused_by_name(tmp_path, reader):
    path = label_file(tmp_path, '{"images": {"a.jpg": []}, "groups": {"a.jpg": "a"}}')
    with pytest.raises(RealPhotoError, match=re.escape(f'labels file {path}: "split" must be an object')):
        SOURCE_READERS[reader](path, tmp_path / "out")


@pytest.mark.parametrize("reader", SHEET_READERS)
@pytest.mark.parametrize("kind", BROKEN)
def test_a_sheet_s_broken_label_file_is_refused_by_name(tmp_path, reader, kind):
    path = label_file(tmp_path, BROKEN[kind][0])
    with pytest.raises(MarksError) as refused:
        SHEET_READERS[reader](path, tmp_path / "out")
    assert str(refused.value).startswith(f"labels file {path}: {BROKEN[kind][1]}")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("reader", SHEET_READERS)
def test_a_sheet_s_label_file_without_images_is_refused_by_name(tmp_path, reader):
    path = label_file(tmp_path, '{"images": [["a.jpg"]]}')
    with pytest.raises(MarksError, match=re.escape(f'labels file {path}: "images" must be an object')):
        SHEET_READERS[reader](path, tmp_path / "out")


def run_tool(module: str, *arguments: object) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", module, *map(str, arguments)],
        capture_output=True,
        text=True,
        env=environment,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def assert_refused_in_one_line(result: subprocess.CompletedProcess[str], expected: str) -> None:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [expected], result.stderr


@pytest.mark.parametrize(
    ("module", "arguments"),
    [
        ("vision.training.red_five_marks", ("sheet", "--labels", "{labels}", "--out", "{out}/fives.png")),
        ("vision.training.sideways_marks", ("sheet", "--labels", "{labels}", "--out", "{out}", "--pixel-aspect", "1")),
        ("vision.training.compact_source", ("--labels", "{labels}", "--out", "{out}")),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_a_tool_given_a_broken_label_file_says_so_in_one_line(tmp_path, module, arguments):
    labels = label_file(tmp_path, BROKEN["a JSON array"][0])
    result = run_tool(module, *(a.format(labels=labels, out=tmp_path / "out") for a in arguments))
    assert_refused_in_one_line(result, f"labels file {labels}: must hold a JSON object {{...}}, not an array")
    assert not (tmp_path / "out").exists()


def test_building_a_source_from_no_checkout_says_so_in_one_line(tmp_path):
    result = run_tool(
        "vision.training.real_photos", "--source", "alanchoi", "--repo", tmp_path, "--out", tmp_path / "o"
    )
    source = real_photos.SOURCES["alanchoi"]
    expected = f"{tmp_path / 'data'} is not a folder: is {tmp_path} a checkout of {source.repo} at {source.commit}?"
    assert_refused_in_one_line(result, expected)


def test_a_model_s_broken_metadata_is_refused_before_the_model_is_rewritten(tmp_path):
    pytest.importorskip("onnx")  # features_output needs the train extra's onnx (not torch)
    from vision.training.features_output import FeaturesOutputError, update_metadata

    model = tmp_path / "tile-classifier.onnx"
    model.write_bytes(b"not read: the metadata is refused first")
    with pytest.raises(
        FeaturesOutputError, match=re.escape(f"model metadata {model.with_suffix('.json')}: does not exist")
    ):
        update_metadata(model, 128)
    model.with_suffix(".json").write_text('"a string"', encoding="utf-8")
    result = run_tool("vision.training.features_output", model)
    assert_refused_in_one_line(
        result, f"model metadata {model.with_suffix('.json')}: must hold a JSON object {{...}}, not a string"
    )
    assert model.read_bytes() == b"not read: the metadata is refused first"


def test_a_recipe_checks_its_label_sets_before_drawing_anything(tmp_path):
    good = tmp_path / "good.json"
    good.write_text('{"images": {}, "groups": {}, "split": {}}')
    broken = tmp_path / "broken.json"
    broken.write_text("[1]")
    assert real_photos.checked_label_sets([good]) == [good]
    assert real_photos.checked_label_sets([]) == []
    with pytest.raises(SystemExit) as stopped:
        real_photos.checked_label_sets([good, broken, tmp_path / "missing.json"])
    assert str(broken) in str(stopped.value.code)
    assert "missing.json" not in str(stopped.value.code)  # the first that is not one
