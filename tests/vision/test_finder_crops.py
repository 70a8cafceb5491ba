"""Classifier training crops cut where the shipped pipeline finds labelled tiles
(``vision.training.finder_crops``, no torch): on rendered seat views with the shipped models."""

from dataclasses import dataclass

import numpy as np
import pytest

from vision.classify.crops import crop_tile, turned_half
from vision.classify.labels import kind_of_label
from vision.eval.label_file import LabelledTile
from vision.training.finder_crops import finder_crops, load_crops, main, matched, save_crops, shipped_read
from vision.training.photo_crops import PhotoCrops
from vision.training.seat_view_set import write_set


@dataclass(frozen=True)
class _Find:
    corners: np.ndarray
    label: int = 0
    sideways: bool = False
    uncertain: bool = False
    angle: float | None = None


def _quad(x: float, y: float, w: float = 30.0, h: float = 40.0) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float64)


def test_each_label_takes_the_find_on_it_and_a_find_off_every_label_is_left():
    truths = [LabelledTile(3, _quad(0, 0), None), LabelledTile(12, _quad(100, 0), None)]
    on_first = _Find(_quad(2, 3, 28, 36))
    far = _Find(_quad(300, 300))
    half_off = _Find(_quad(118, 0))  # centre 18 px off: beyond 0.4 of a 30-px-wide tile
    pairs = matched(truths, [far, half_off, on_first])
    assert len(pairs) == 1
    truth, quad = pairs[0]
    assert truth.label == 3
    assert np.array_equal(quad, on_first.corners)


@pytest.fixture(scope="module")
def seat_views(tmp_path_factory):
    folder = tmp_path_factory.mktemp("seat-views")
    write_set(folder, 2, first_seed=5_400_020)
    return folder / "labels.json"


def test_crops_are_cut_at_the_finds_quads_and_labelled_with_the_matched_tile(seat_views):
    quads_read = []

    def read(image):
        found = shipped(image)
        quads_read.append([np.asarray(d.corners) for d in found])
        return found

    shipped = shipped_read()
    crops = finder_crops(seat_views, "train", read, seed=3)
    again = finder_crops(seat_views, "train", shipped, seed=3)
    assert np.array_equal(crops.images, again.images)  # the same for a seed
    assert np.array_equal(crops.labels, again.labels)
    assert crops.images.shape[1:] == (42, 32, 3)
    assert crops.images.dtype == np.uint8
    found = sum(len(q) for q in quads_read)
    assert 10 <= len(crops.labels) <= found  # one crop a matched find, none for a find off every label
    # The classifier reads most of them as their label (either way up): they are its run-time input.
    from vision.classify.classifier import OnnxTileClassifier

    readings = OnnxTileClassifier().classify(crops.images)
    right = sum(kind_of_label(r.label) == kind_of_label(int(t)) for r, t in zip(readings, crops.labels, strict=True))
    assert right >= 0.8 * len(crops.labels)


def test_a_crop_is_the_finds_quad_cut_one_way_up_or_the_other(seat_views, tmp_path):
    from vision.detect.still_photo import read_image
    from vision.eval.label_file import load_labels

    labels = load_labels(seat_views)
    name, truths = next((n, t) for n, t in labels.items() if t)
    image = read_image(seat_views.parent / name)
    truth = truths[0]
    one = _Find(np.asarray(truth.corners, np.float64))

    def read(picture):
        return [one] if np.array_equal(picture, image) else []

    crops = finder_crops(seat_views, "train", read, seed=0)
    assert len(crops.labels) == 1
    assert crops.labels[0] == truth.label
    upright, turned = crop_tile(image, one.corners), crop_tile(image, turned_half(one.corners))
    assert np.array_equal(crops.images[0], upright) or np.array_equal(crops.images[0], turned)


def test_saved_crops_load_back_and_a_damaged_file_is_named(tmp_path):
    crops = PhotoCrops(np.arange(2 * 42 * 32 * 3, dtype=np.uint8).reshape(2, 42, 32, 3), np.array([4, 30]))
    path = tmp_path / "crops.npz"
    save_crops(crops, path, [tmp_path / "labels.json"], "train")
    loaded = load_crops(path)
    assert np.array_equal(loaded.images, crops.images)
    assert loaded.labels.tolist() == [4, 30]
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match=r"broken\.npz"):
        load_crops(broken)
    with pytest.raises(ValueError, match=r"missing\.npz"):
        load_crops(tmp_path / "missing.npz")
    wrong = tmp_path / "wrong.npz"
    np.savez(wrong, images=np.zeros((2, 32, 32, 3), np.uint8), labels=np.zeros(2, np.int64))
    with pytest.raises(ValueError, match=r"wrong\.npz.*N×42×32×3"):
        load_crops(wrong)
    short = tmp_path / "short.npz"
    np.savez(short, images=np.zeros((2, 42, 32, 3), np.uint8), labels=np.zeros(3, np.int64))
    with pytest.raises(ValueError, match=r"3 labels for 2 crops"):
        load_crops(short)


def test_the_command_names_a_broken_label_set_in_one_line(tmp_path, capsys):
    broken = tmp_path / "labels.json"
    broken.write_text("[1, 2]")
    assert main(["--labels", str(broken), "--out", str(tmp_path / "crops.npz")]) == 1
    error = capsys.readouterr().err.strip()
    assert "labels.json" in error
    assert len(error.splitlines()) == 1
    assert not (tmp_path / "crops.npz").exists()


def test_the_classifier_recipe_refuses_broken_finder_crops_before_drawing_anything(tmp_path):
    pytest.importorskip("torch")  # the classifier's recipe needs the train extra
    import subprocess
    import sys

    broken = tmp_path / "crops.npz"
    broken.write_bytes(b"not a zip")
    done = subprocess.run(
        [sys.executable, "-m", "vision.training.train", "--out", str(tmp_path / "out"), "--finder-crops", str(broken)],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert "crops.npz" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_the_command_names_a_missing_classifier_in_one_line(seat_views, tmp_path, capsys):
    missing = tmp_path / "no-classifier.onnx"
    assert main(["--labels", str(seat_views), "--out", str(tmp_path / "c.npz"), "--classifier", str(missing)]) == 1
    error = capsys.readouterr().err.strip()
    assert "no-classifier" in error
    assert len(error.splitlines()) == 1
