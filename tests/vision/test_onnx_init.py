"""Fine-tuning starts from the shipped classifier exactly (needs the train extra: skipped without torch)."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from models import MODELS_DIR
from vision.find.centres import normalised

TILES = Path(__file__).resolve().parents[2] / "table_app" / "web" / "static" / "tiles"
NAMES = ("1m", "5p", "7z")


def test_a_classifier_loaded_from_onnx_gives_the_onnx_models_logits():
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    import onnxruntime

    from vision.training.onnx_weights import classifier_from_onnx, freeze_batch_norm

    path = MODELS_DIR / "tile-classifier.onnx"
    model = classifier_from_onnx(path)
    model.train()
    freeze_batch_norm(model)  # fine-tuning: batch norms keep their (folded) statistics
    model.head[1].eval()  # dropout off, to compare
    noise = np.random.default_rng(0).uniform(-2, 2, size=(3, 3, 42, 32)).astype(np.float32)
    faces = [
        cv2.resize(cv2.imread(str(TILES / f"{name}.png")), (32, 42), interpolation=cv2.INTER_AREA) for name in NAMES
    ]
    crops = np.concatenate([noise, normalised(np.stack(faces))])
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    expected = session.run(["logits"], {session.get_inputs()[0].name: crops})[0]
    with torch.no_grad():
        got = model(torch.from_numpy(crops)).numpy()
    assert np.abs(got - expected).max() < 1e-4
    assert np.abs(expected).max() > 1.0  # the faces are read surely: the comparison is not of two near-zeros


def test_a_model_of_another_shape_is_refused(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from vision.training.onnx_weights import classifier_from_onnx

    expected = r"tile-detector.onnx: 15 convolutions and linear layers; this TileNet has 7 — not a model of this shape"
    with pytest.raises(ValueError, match=expected):
        classifier_from_onnx(MODELS_DIR / "tile-detector.onnx")


def test_a_detector_loaded_from_onnx_gives_the_onnx_models_maps():
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    import onnxruntime

    from vision.find.centres import net_input
    from vision.render.renderer import RenderOptions, render_table
    from vision.training.onnx_weights import detector_from_onnx

    path = MODELS_DIR / "tile-detector.onnx"
    width = json.loads(path.with_suffix(".json").read_text())["training"]["recipe"].get("width", 1.0)
    model = detector_from_onnx(path, width).eval()
    frame = normalised(net_input(render_table(5, RenderOptions((960, 540))).image).pixels[None])
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    expected = session.run(None, {session.get_inputs()[0].name: frame})[0]
    with torch.no_grad():
        got = model(torch.from_numpy(frame)).numpy()
    assert np.abs(got - expected).max() < 1e-3
    assert expected[:, 0].max() > 0  # some tile's heat is sure: the comparison is not of two flat maps
