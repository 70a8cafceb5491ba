"""The classifier in 8-bit integers (vision/training/quantize.py): the shipped int8 model is
built from the shipped float one and reads real and rendered faces as it does, and the recipe
records the product's own crops and writes a model the runtime accepts."""

import hashlib
import json
import shutil

import cv2
import numpy as np
import pytest

from models import MODELS_DIR
from tests.vision.fixture_photos import FIXTURE
from vision.classify.classifier import INT8_MODEL, OnnxTileClassifier
from vision.classify.crops import crop_tile
from vision.eval.label_file import load_labels
from vision.render.renderer import RenderOptions, render_table
from vision.render.tile_art import ArtStyle
from vision.training.quantize import (
    QuantizeError,
    _photos_from,
    int8_path,
    quantized,
    record_inputs,
    write_metadata,
)

FLOAT_CLASSIFIER = MODELS_DIR / "tile-classifier.onnx"  # the default


def _sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_shipped_int8_classifier_is_quantized_from_the_shipped_float_one():
    # A float model trained again and not quantized again fails here.
    assert int8_path(FLOAT_CLASSIFIER) == INT8_MODEL
    metadata = json.loads(INT8_MODEL.with_suffix(".json").read_text(encoding="utf-8"))
    assert metadata["sha256"] == _sha(INT8_MODEL)
    assert metadata["quantized"]["from_sha256"] == _sha(FLOAT_CLASSIFIER)
    assert metadata["quantized"]["from"] == FLOAT_CLASSIFIER.name
    assert INT8_MODEL.stat().st_size < FLOAT_CLASSIFIER.stat().st_size


def _fixture_crops():
    """Every labelled face of the six fixture photographs, cut as the classifier cuts a find."""
    labels = load_labels(FIXTURE / "labels.json")
    crops = []
    for name, tiles in labels.items():
        image = cv2.imread(str(FIXTURE / name))
        crops += [crop_tile(image, tile.corners) for tile in tiles]
    return np.stack(crops)


def _labels_differing(crops, a, b):
    return sum(x.label != y.label for x, y in zip(a.classify(crops), b.classify(crops), strict=True))


def test_the_int8_classifier_reads_real_faces_as_the_float_one():
    crops = _fixture_crops()
    assert len(crops) == 87
    assert _labels_differing(crops, OnnxTileClassifier(FLOAT_CLASSIFIER), OnnxTileClassifier(INT8_MODEL)) <= 2


def test_the_int8_classifier_reads_rendered_faces_as_the_float_one():
    crops = []
    for seed in range(2_000_000, 2_000_004):  # the rendered held-out style's bench tables
        table = render_table(seed, RenderOptions(size=(1920, 1080), style=ArtStyle.BLACK, px_per_mm=(1.3, 2.6)))
        crops += [crop_tile(table.image, truth.corners) for truth in table.truths]
    assert len(crops) > 250
    # Measured: none of 2 611 such crops of 30 tables read otherwise.
    assert _labels_differing(np.stack(crops), OnnxTileClassifier(FLOAT_CLASSIFIER), OnnxTileClassifier(INT8_MODEL)) <= 2


def test_the_recipe_records_the_products_crops_and_writes_a_model_the_runtime_accepts(tmp_path):
    photo = FIXTURE / "images" / "leo-miura-Screenshot-2025-09-20-02-02-52.jpg"
    recorded = record_inputs([photo], seat_views=1, tables=1, classifier=FLOAT_CLASSIFIER)
    assert len(recorded) >= 3
    assert all(x.shape[1:] == (3, 42, 32) and 0 < len(x) <= 64 and x.dtype == np.float32 for x in recorded)

    for name in ("tile-classifier.onnx", "tile-classifier.json"):
        shutil.copy(MODELS_DIR / name, tmp_path / name)
    built = int8_path(tmp_path / "tile-classifier.onnx")
    quantized(tmp_path / "tile-classifier.onnx", "crops", recorded, built)
    metadata = write_metadata(tmp_path / "tile-classifier.onnx", built, {"batches": len(recorded)})
    assert metadata["quantized"]["calibration"] == {"batches": len(recorded)}
    assert json.loads(built.with_suffix(".json").read_text(encoding="utf-8")) == metadata
    assert built.stat().st_size < (tmp_path / "tile-classifier.onnx").stat().st_size
    # Calibrated on one photograph, a seat view and a table, it still reads as the float one.
    crops = _fixture_crops()
    assert _labels_differing(crops, OnnxTileClassifier(built), OnnxTileClassifier(FLOAT_CLASSIFIER)) <= 4


def test_the_recipe_refuses_no_inputs_and_a_float_model_its_metadata_does_not_describe(tmp_path):
    with pytest.raises(QuantizeError, match=r"no calibration input was recorded for tile-classifier\.onnx"):
        quantized(FLOAT_CLASSIFIER, "crops", [], tmp_path / "out.onnx")
    changed = tmp_path / "tile-classifier.onnx"
    changed.write_bytes(FLOAT_CLASSIFIER.read_bytes() + b"\0")
    shutil.copy(FLOAT_CLASSIFIER.with_suffix(".json"), tmp_path / "tile-classifier.json")
    with pytest.raises(QuantizeError, match=r"tile-classifier\.onnx does not match the sha256"):
        write_metadata(changed, tmp_path / "built.onnx", {})


def test_calibration_photos_are_spread_over_the_label_files_and_a_broken_one_is_named(tmp_path):
    labels = tmp_path / "source" / "labels.json"
    labels.parent.mkdir()
    labels.write_text(json.dumps({"images": {f"images/{i:02d}.jpg": [] for i in range(10)}}))
    picked = _photos_from([labels], 3)
    assert [name for name, _ in picked] == ["source/images/00.jpg", "source/images/03.jpg", "source/images/06.jpg"]
    assert picked[0][1] == labels.parent / "images" / "00.jpg"
    assert _photos_from([labels], 0) == []
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(QuantizeError, match=r"broken\.json"):
        _photos_from([broken], 3)
