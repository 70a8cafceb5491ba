"""Export the trained network to ONNX with its metadata file (labels, input, normalisation,
sha256, data, metrics)."""

from __future__ import annotations

import hashlib
import json
import logging
import subprocess
from pathlib import Path
from typing import Any

import torch
from torch import nn

from vision.classify.crops import CROP_SIZE
from vision.classify.labels import LABEL_COUNT, is_red_label, label_name
from vision.training.features_output import add_features_output, features_metadata
from vision.training.metrics import UNCERTAIN_BELOW
from vision.training.model import MEAN, STD

log = logging.getLogger(__name__)

MODEL_NAME = "tile-classifier"


def export_model(
    model: nn.Module,
    out: str,
    *,
    metrics: dict[str, Any],
    recipe: dict[str, Any],
    timings: dict[str, int],
    counts: dict[str, int],
    code: str,
) -> Path:
    width, height = CROP_SIZE
    onnx_path = export_crop_model(model, Path(out) / f"{MODEL_NAME}.onnx", (height, width), "logits")
    feature_width = add_features_output(onnx_path)
    metadata = {
        "labels": [{"index": i, "tile": label_name(i), "red": is_red_label(i)} for i in range(LABEL_COUNT)],
        "outputs": "logits[0:38] = label read upright, logits[38:76] = label read upside down; softmax over all 76",
        "features": features_metadata(feature_width),
        "input": {
            "width": width,
            "height": height,
            "layout": "NCHW",
            "channels": "BGR",
            "scale": 1 / 255,
            "mean": MEAN,
            "std": STD,
            "crop": "the tile's face warped upright from its four corners (vision.classify.crops.crop_tile)",
        },
        "uncertain_below": UNCERTAIN_BELOW,
        "training": {
            "command": ".venv/bin/python -m vision.training.train --out models",
            "code": code,
            "recipe": recipe,
            "data": (
                "crops of tiles on tables drawn by vision.render (FluffyStuff CC0 art): 'regular' style (3 tables "
                "in 8), its lightness-inverted 'regular-dark' variation (1 in 8) and the regular art in a random "
                "palette per table (4 in 8, vision.render.tile_palette), backs recoloured to six hues; cut at the true "
                "corners jittered, and at the corners the learnt tile detector found; perspective, lighting, "
                "shadows, glare, blur, noise, JPEG in the renderer"
            ),
            "held_out": "the 'black' art style (never in training), tables from seeds 1000000-1000079",
            "timings_s": timings,
            "counts": counts,
        },
        "metrics_held_out": metrics,
    }
    write_model_metadata(onnx_path, metadata)
    return onnx_path


def export_crop_model(model: nn.Module, onnx_path: Path, size: tuple[int, int], output: str) -> Path:
    """Export a network that reads a batch of N×3×H×W crops (``size`` = (H, W), input ``crops``,
    any N) to ``onnx_path`` (its folder made), evaluated on the CPU; the path."""
    onnx_path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        model.cpu().eval(),
        (torch.zeros(1, 3, *size),),
        str(onnx_path),
        dynamo=False,
        input_names=["crops"],
        output_names=[output],
        dynamic_axes={"crops": {0: "batch"}, output: {0: "batch"}},
        opset_version=17,
    )
    return onnx_path


def crop_input(size: dict[str, int], context: float, mean: float, std: float, crop: str) -> dict[str, Any]:
    """A crop model's ``input`` metadata, what its run time checks and normalises with: the crop's
    ``size`` (``{"size": N}`` or ``{"width": W, "height": H}``), its ``context`` (how much around
    the tile it holds), NCHW BGR scaled by 1/255 then ``(x - mean) / std``, and how it is cut."""
    return {
        **size,
        "context": context,
        "layout": "NCHW",
        "channels": "BGR",
        "scale": 1 / 255,
        "mean": mean,
        "std": std,
        "crop": crop,
    }


def write_model_metadata(onnx_path: Path, metadata: dict[str, Any]) -> None:
    """``NAME.json`` beside ``NAME.onnx``: the model's file name and sha256 first, then ``metadata``
    (what ``vision.onnx_models.model_file.load_model_metadata`` checks at run time)."""
    digest = hashlib.sha256(onnx_path.read_bytes()).hexdigest()
    document = {"model": onnx_path.name, "sha256": digest, **metadata}
    onnx_path.with_suffix(".json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    log.info("exported %s (%d bytes, sha256 %s)", onnx_path, onnx_path.stat().st_size, digest)


def code_version() -> str:
    """The git commit the recipe ran from (the renderer and finder shape the data), and
    whether the tree had uncommitted changes."""
    root = Path(__file__).resolve().parents[2]
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        status = ["git", "status", "--porcelain", "--", "vision"]
        dirty = subprocess.run(status, cwd=root, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return commit + (" with uncommitted changes" if dirty else "")
