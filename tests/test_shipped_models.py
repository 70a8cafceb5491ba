"""Every model shipped in models/ has its metadata (the sha256 of the very file) and a model
card (a quantized build its float model's), and all of them together stay within issue 13's
size budget."""

import hashlib
import json

from models import MODELS_DIR

SIZE_BUDGET = 20 * 1024 * 1024  # all shipped models together (issue 13: ≤ 20 MB)


def test_each_model_has_matching_metadata_and_a_card():
    models = sorted(MODELS_DIR.glob("*.onnx"))
    assert {m.stem for m in models} >= {"tile-classifier", "tile-detector", "tile-sideways", "tile-verifier"}
    for model in models:
        metadata = json.loads(model.with_suffix(".json").read_text(encoding="utf-8"))
        assert metadata["sha256"] == hashlib.sha256(model.read_bytes()).hexdigest(), model.name
        if "quantized" in metadata:
            # A quantized build is its float model's, described in that model's card.
            float_model = MODELS_DIR / metadata["quantized"]["from"]
            assert float_model.exists(), model.name
            card = float_model.with_suffix(".md").read_text(encoding="utf-8")
            assert card.startswith(f"# Model card: {float_model.stem}"), model.name
            assert model.name in card, model.name
        else:
            card = model.with_suffix(".md").read_text(encoding="utf-8")
            assert card.startswith(f"# Model card: {model.stem}"), model.name


def test_the_models_together_fit_the_size_budget():
    assert sum(m.stat().st_size for m in MODELS_DIR.glob("*.onnx")) <= SIZE_BUDGET
