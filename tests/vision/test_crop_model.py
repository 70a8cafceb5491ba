"""A crop model (``vision.onnx_models.crop_model``): the shipped crop models run through it give
exactly what onnxruntime gives run by hand, and what does not fit is refused naming the file."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from models import MODELS_DIR
from vision.classify.crops import CROP_SIZE
from vision.classify.verifier import OnnxTileVerifier, verifier_crop
from vision.detect import aspect_judge, sideways_judge
from vision.detect.aspect_judge import OnnxAspectJudge
from vision.detect.sideways_judge import OnnxSidewaysJudge
from vision.onnx_models.crop_model import CropModel
from vision.onnx_models.onnx_runtime import onnxruntime

SIDEWAYS = MODELS_DIR / "tile-sideways.onnx"
VERIFIER = MODELS_DIR / "tile-verifier.onnx"


class ExampleModelError(RuntimeError):
    """The error a reader of a crop model gives it to raise."""


def by_hand(model_path: Path, crops: np.ndarray) -> np.ndarray:
    """``model_path`` run on ``crops`` (N×H×W×3 uint8) straight through onnxruntime, normalised
    as its metadata says: what a crop model must give."""
    model_input = json.loads(model_path.with_suffix(".json").read_text(encoding="utf-8"))["input"]
    mean, std = np.float32(model_input["mean"]), np.float32(model_input["std"])
    batch = (crops.transpose(0, 3, 1, 2).astype(np.float32) / np.float32(255.0) - mean) / std
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    session = onnxruntime.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
    (output,) = session.run(None, {session.get_inputs()[0].name: np.ascontiguousarray(batch)})
    assert output.dtype == np.float32
    return np.asarray(output).reshape(-1)


def sigmoid(logits: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-logits)), np.float32)


def some_crops(count: int, height: int, width: int) -> np.ndarray:
    """Noise, a flat grey and a bright bar across a dark square: crops the models read differently."""
    crops = np.random.default_rng(count).integers(0, 256, (count, height, width, 3), dtype=np.uint8)
    crops[0] = 128
    crops[1] = 20
    crops[1, height // 3 : 2 * height // 3, width // 4 : 3 * width // 4] = 235
    return crops


def test_the_aspect_judge_gives_what_its_model_gives_run_by_hand():
    crops = some_crops(7, aspect_judge.INPUT_SIZE, aspect_judge.INPUT_SIZE)
    judge = OnnxAspectJudge()
    expected = by_hand(aspect_judge.DEFAULT_ASPECT_JUDGE, crops)
    assert np.ptp(expected) > 0.01  # the crops are read differently: the comparison is not of one number
    got = judge.log_stretches(crops)
    assert got.dtype == np.float32
    assert np.array_equal(got, expected)


def test_the_sideways_judge_gives_what_its_model_gives_run_by_hand():
    crops = some_crops(7, sideways_judge.INPUT_SIZE, sideways_judge.INPUT_SIZE)
    expected = by_hand(sideways_judge.DEFAULT_JUDGE, crops)
    assert np.ptp(expected) > 0.01
    assert np.array_equal(OnnxSidewaysJudge().probabilities(crops), sigmoid(expected))


def test_the_verifier_gives_what_its_model_gives_run_by_hand_in_batches_of_any_size():
    width, height = CROP_SIZE
    crops = some_crops(300, height, width)  # more than the verifier runs at once
    expected = by_hand(VERIFIER, crops)
    assert np.ptp(expected) > 0.01
    model = OnnxTileVerifier().model
    assert np.array_equal(model.run(crops), expected)
    assert np.array_equal(np.concatenate([model.run(crops[:100]), model.run(crops[100:])]), expected)


def test_the_verifier_scores_found_quads_as_its_model_scores_their_crops():
    verifier = OnnxTileVerifier()
    rng = np.random.default_rng(5)
    image = rng.integers(0, 256, (240, 320, 3), dtype=np.uint8)
    quads = [rng.uniform(20, 220, (4, 2)) for _ in range(260)]
    crops = np.stack([verifier_crop(image, quad) for quad in quads])
    assert np.array_equal(verifier.scores(image, quads), sigmoid(by_hand(VERIFIER, crops)))


def test_a_loaded_model_says_what_it_is():
    model = CropModel(SIDEWAYS, "sideways model", ExampleModelError, 48, 2.8, threads=2)
    metadata = json.loads(SIDEWAYS.with_suffix(".json").read_text(encoding="utf-8"))
    assert model.sha256 == metadata["sha256"]
    assert model.size == (48, 48)
    assert (model.mean, model.std) == (metadata["input"]["mean"], metadata["input"]["std"])
    assert model.metadata["sideways_above"] == metadata["sideways_above"]
    assert CropModel(VERIFIER, "tile verifier", ExampleModelError, (32, 42), 1.3).size == (32, 42)


def test_crops_of_another_shape_or_type_are_refused_naming_the_shape_read():
    square = CropModel(SIDEWAYS, "sideways model", ExampleModelError, 48, 2.8)
    with pytest.raises(ValueError, match=r"the sideways model reads N×48×48×3 uint8 crops, got \(2, 32, 32, 3\) uint8"):
        square.run(np.zeros((2, 32, 32, 3), np.uint8))
    with pytest.raises(ValueError, match=r"N×48×48×3 uint8 crops, got \(2, 48, 48, 3\) float32"):
        square.run(np.zeros((2, 48, 48, 3), np.float32))
    with pytest.raises(ValueError, match=r"N×48×48×3 uint8 crops, got \(48, 48, 3\) uint8"):
        square.run(np.zeros((48, 48, 3), np.uint8))  # one crop, not a batch of one
    upright = CropModel(VERIFIER, "tile verifier", ExampleModelError, (32, 42), 1.3)
    with pytest.raises(ValueError, match=r"the tile verifier reads N×42×32×3 uint8 crops, got \(1, 32, 42, 3\)"):
        upright.run(np.zeros((1, 32, 42, 3), np.uint8))  # width and height swapped
    assert upright.run(np.zeros((1, 42, 32, 3), np.uint8)).shape == (1,)


def test_no_crop_gives_no_number():
    model = CropModel(SIDEWAYS, "sideways model", ExampleModelError, 48, 2.8)
    empty = model.run(np.zeros((0, 48, 48, 3), np.uint8))
    assert empty.shape == (0,)
    assert empty.dtype == np.float32


def _copied(tmp_path: Path, model_path: Path, name: str, **input_changes: object) -> Path:
    """``model_path`` copied into ``tmp_path`` as ``name`` with its metadata's ``input`` changed
    (a value of ``None`` removes that key); the sha256 still matches."""
    copy = tmp_path / name
    shutil.copy(model_path, copy)
    metadata = json.loads(model_path.with_suffix(".json").read_text(encoding="utf-8"))
    for key, value in input_changes.items():
        if value is None:
            del metadata["input"][key]
        else:
            metadata["input"][key] = value
    copy.with_suffix(".json").write_text(json.dumps(metadata), encoding="utf-8")
    return copy


def test_a_model_for_crops_of_another_size_or_context_is_refused_naming_its_metadata(tmp_path):
    smaller = _copied(tmp_path, SIDEWAYS, "smaller.onnx", size=32)
    with pytest.raises(
        ExampleModelError,
        match=r"smaller\.json describes 32 px crops of 2\.8 tile lengths; this code cuts 48 px of 2\.8",
    ):
        CropModel(smaller, "sideways model", ExampleModelError, 48, 2.8)
    wider = _copied(tmp_path, SIDEWAYS, "wider.onnx", context=3.5)
    with pytest.raises(
        ExampleModelError, match=r"wider\.json describes 48 px crops of 3\.5 tile lengths; this code cuts 48 px of 2\.8"
    ):
        CropModel(wider, "sideways model", ExampleModelError, 48, 2.8)
    assert CropModel(wider, "sideways model", ExampleModelError, 48).size == (48, 48)  # context not checked
    with pytest.raises(ExampleModelError, match=r"wider\.json describes 48 px crops; this code cuts 64 px$"):
        CropModel(wider, "sideways model", ExampleModelError, 64)
    taller = _copied(tmp_path, VERIFIER, "taller.onnx", height=48)
    with pytest.raises(
        ExampleModelError, match=r"taller\.json describes 32×48 px crops of 1\.3 tile lengths; this code cuts 32×42 px"
    ):
        CropModel(taller, "tile verifier", ExampleModelError, (32, 42), 1.3)
    unsized = _copied(tmp_path, SIDEWAYS, "unsized.onnx", size=None)
    with pytest.raises(ExampleModelError, match=r"unsized\.json describes None px crops"):
        CropModel(unsized, "sideways model", ExampleModelError, 48, 2.8)


def test_a_model_with_no_normalisation_in_its_metadata_is_refused_naming_it(tmp_path):
    meanless = _copied(tmp_path, SIDEWAYS, "meanless.onnx", mean=None)
    with pytest.raises(ExampleModelError, match=r"meanless\.json gives no crop mean and std for the sideways model"):
        CropModel(meanless, "sideways model", ExampleModelError, 48, 2.8)


def test_a_missing_model_or_metadata_is_refused_naming_it(tmp_path):
    with pytest.raises(
        ExampleModelError, match=r"sideways model .*absent\.onnx or its metadata absent\.json is missing"
    ):
        CropModel(tmp_path / "absent.onnx", "sideways model", ExampleModelError, 48, 2.8)
    bare = tmp_path / "bare.onnx"
    shutil.copy(SIDEWAYS, bare)
    with pytest.raises(ExampleModelError, match=r"bare\.json is missing"):
        CropModel(bare, "sideways model", ExampleModelError, 48, 2.8)


def test_a_model_giving_more_than_one_number_a_crop_is_refused_as_it_runs():
    # The classifier reads the verifier's crop size but gives 76 logits a crop.
    classifier = CropModel(MODELS_DIR / "tile-classifier.onnx", "tile classifier", ExampleModelError, CROP_SIZE)
    with pytest.raises(ExampleModelError, match=r"tile-classifier\.onnx gave 152 numbers for 2 crops: one each"):
        classifier.run(np.zeros((2, 42, 32, 3), np.uint8))
