"""The aspect judge's recipe (vision/training/train_aspect.py; needs the train extra)."""

import json

import cv2
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.detect.aspect_judge import OnnxAspectJudge  # noqa: E402
from vision.training.aspect_data import stretched_crops  # noqa: E402
from vision.training.aspect_model import AspectNet  # noqa: E402
from vision.training.seat_view_set import write_set  # noqa: E402
from vision.training.train_aspect import Recipe, crop_errors, fit, predict, run  # noqa: E402


def _bars_picture() -> np.ndarray:
    """Light 'tiles' 40×60 with a dark circle each: round only when shown at their true width."""
    picture = np.full((240, 400, 3), 70, np.uint8)
    for x in range(30, 370, 70):
        cv2.rectangle(picture, (x, 90), (x + 39, 149), (230, 230, 230), -1)
        cv2.circle(picture, (x + 20, 120), 12, (30, 30, 30), -1)
    return picture


def test_the_network_learns_how_stretched_a_tile_is():
    rng = np.random.default_rng(0)
    torch.manual_seed(0)
    boxes = [[x, 90, x + 40, 150] for x in range(30, 370, 70)]
    train = stretched_crops(_bars_picture(), boxes, rng, copies=60)
    check = stretched_crops(_bars_picture(), boxes, np.random.default_rng(1), copies=8)
    model = AspectNet()
    untrained = crop_errors(predict(model.eval(), check.crops), check.log_stretches)
    fit(model, train, Recipe(steps=100, batch=16, learning_rate=3e-3))
    model.eval()
    trained = crop_errors(predict(model, check.crops), check.log_stretches)
    assert trained["mean_abs_log_error"] < 0.6 * untrained["mean_abs_log_error"]


def test_the_recipe_exports_a_judge_the_run_time_loads_with_its_checks(tmp_path):
    write_set(tmp_path / "seats", 2, first_seed=5_400_020)
    run(Recipe(tables=1, steps=3, batch=8), str(tmp_path / "out"), [tmp_path / "seats" / "labels.json"], known=2)
    judge = OnnxAspectJudge(tmp_path / "out" / "tile-aspect.onnx")
    assert judge.log_stretches(np.zeros((2, 64, 64, 3), np.uint8)).shape == (2,)
    metadata = json.loads((tmp_path / "out" / "tile-aspect.json").read_text())
    assert metadata["known_squeezes"]["pictures"] == 2
    assert set(metadata["known_squeezes"]["true_squeeze_kept"]) == {"sureness", "judge"}
    assert metadata["metrics_validation"]["crops"] > 0
