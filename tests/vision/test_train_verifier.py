"""The tile verifier's recipe (vision/training/train_verifier.py; needs the train extra)."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.classify.crops import CROP_SIZE  # noqa: E402
from vision.classify.verifier import DEFAULT_VERIFIER, OnnxTileVerifier  # noqa: E402
from vision.training.onnx_weights import load_folded_weights  # noqa: E402
from vision.training.train_verifier import Recipe, VerifierNet, fit, predict, rates, threshold_keeping  # noqa: E402
from vision.training.verifier_data import VerifierCrops  # noqa: E402


def _crops(rng, n):
    """'Tiles': a light face with a dark rim around it; 'not tiles': noise."""
    width, height = CROP_SIZE
    faces = np.full((n, height, width, 3), 40, np.uint8)
    faces[:, 5:-5, 4:-4] = 220
    noise = rng.integers(0, 255, (n, height, width, 3), dtype=np.uint8)
    return VerifierCrops(np.concatenate([faces, noise]), np.array([True] * n + [False] * n), np.zeros(2 * n, bool))


def test_the_verifier_learns_to_tell_faces_from_noise_and_the_threshold_keeps_its_share():
    rng = np.random.default_rng(0)
    torch.manual_seed(0)
    model = VerifierNet()
    fit(model, _crops(rng, 64), Recipe(steps=60, batch=32))
    model.eval()
    check = _crops(rng, 32)
    scores = predict(model, check.images)
    keep_above = threshold_keeping(scores[check.tiles], 0.9)
    result = rates(scores, check.tiles, keep_above)
    assert result["tiles_kept"] >= 0.9
    assert result["not_tiles_dropped"] >= 0.9


def test_a_threshold_keeps_the_share_asked_and_needs_tiles():
    scores = np.linspace(0.0, 1.0, 101)
    keep_above = threshold_keeping(scores, 0.9)
    assert (scores > keep_above).mean() == pytest.approx(0.9, abs=0.011)
    with pytest.raises(ValueError, match="no true tile"):
        threshold_keeping(np.zeros(0), 0.9)


def test_training_needs_both_kinds():
    crops = VerifierCrops(np.zeros((4, CROP_SIZE[1], CROP_SIZE[0], 3), np.uint8), np.ones(4, bool), np.zeros(4, bool))
    with pytest.raises(ValueError, match="both kinds"):
        fit(VerifierNet(), crops, Recipe(steps=1))


def test_fine_tuning_starts_from_a_shipped_verifiers_weights_and_keeps_its_batch_norms():
    rng = np.random.default_rng(1)
    crops = _crops(rng, 16)
    model = VerifierNet()
    load_folded_weights(model, DEFAULT_VERIFIER)
    model.eval()
    shipped = OnnxTileVerifier().model.run(crops.images)
    assert predict(model, crops.images) == pytest.approx(1 / (1 + np.exp(-shipped)), abs=1e-4)
    norms = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    before = [m.running_var.clone() for m in norms]
    fit(model, crops, Recipe(steps=3, batch=8, learning_rate=1e-4, init=str(DEFAULT_VERIFIER)))
    assert all(torch.equal(m.running_var, b) for m, b in zip(norms, before, strict=True))
    fresh = VerifierNet()
    fit(fresh, crops, Recipe(steps=3, batch=8))
    assert not all(
        torch.equal(m.running_var, torch.ones_like(m.running_var))
        for m in fresh.modules()
        if isinstance(m, torch.nn.BatchNorm2d)
    )
