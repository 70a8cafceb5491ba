"""Give the exported classifier a second output, ``features``: the pooled 128 values the last
layer reads (the input of its final Gemm). A tile-set enrollment (:mod:`vision.enrollment`)
fits its own small head on them. Needs the ``onnx`` package (the ``train`` extra).

    .venv/bin/python -m vision.training.features_output models/tile-classifier.onnx

rewrites the model in place (the weights are untouched) and its metadata's ``sha256`` and
``features`` entry; the export recipe (:mod:`vision.training.export`) calls the same function,
so a fresh export ships the output too.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path
from typing import Any

import onnx

from vision.json_file import read_json_object

FEATURES_OUTPUT = "features"
LOGITS_OUTPUT = "logits"


class FeaturesOutputError(ValueError):
    """A model that cannot be given the ``features`` output, or whose metadata cannot be read;
    the message names the file."""


def add_features_output(onnx_path: Path) -> int:
    """Add the ``features`` output (idempotent); returns its width."""
    model = onnx.load(str(onnx_path))
    graph = model.graph
    heads = [node for node in graph.node if LOGITS_OUTPUT in node.output]
    if len(heads) != 1 or heads[0].op_type != "Gemm":
        raise FeaturesOutputError(f"{onnx_path}: expected one Gemm node writing {LOGITS_OUTPUT!r}")
    pooled = heads[0].input[0]
    weight = next(init for init in graph.initializer if init.name == heads[0].input[1])
    width = int(weight.dims[1])  # Gemm with transB: weight is outputs × inputs
    if any(output.name == FEATURES_OUTPUT for output in graph.output):
        return width
    # An Identity names the pooled tensor "features" without touching the node that makes it.
    graph.node.append(onnx.helper.make_node("Identity", [pooled], [FEATURES_OUTPUT], name="features_identity"))
    graph.output.append(onnx.helper.make_tensor_value_info(FEATURES_OUTPUT, onnx.TensorProto.FLOAT, ["batch", width]))
    onnx.checker.check_model(model)
    onnx.save(model, str(onnx_path))
    return width


def features_metadata(width: int) -> dict[str, Any]:
    return {
        "output": FEATURES_OUTPUT,
        "size": width,
        "what": "the globally pooled activations the final linear layer reads (after ReLU); "
        "a tile-set enrollment fits its head on them",
    }


def read_metadata(onnx_path: Path) -> dict[str, Any]:
    """The model's metadata (``NAME.json`` beside ``NAME.onnx``); a :class:`FeaturesOutputError`
    naming the file when it is missing or not a JSON object."""
    return read_json_object(onnx_path.with_suffix(".json"), "model metadata", FeaturesOutputError)


def update_metadata(onnx_path: Path, width: int) -> None:
    metadata_path = onnx_path.with_suffix(".json")
    metadata = read_metadata(onnx_path)
    metadata["sha256"] = hashlib.sha256(onnx_path.read_bytes()).hexdigest()
    metadata["features"] = features_metadata(width)
    metadata_path.write_text(json.dumps(metadata, indent=2) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", type=Path, help="the ONNX model (its .json metadata beside it is updated)")
    args = parser.parse_args()
    try:
        read_metadata(args.model)  # first: broken metadata is refused before the model is rewritten
        width = add_features_output(args.model)
        update_metadata(args.model, width)
    except FeaturesOutputError as error:
        raise SystemExit(str(error)) from None  # one line naming the file, not a traceback
    print(f"{args.model}: output {FEATURES_OUTPUT!r} ({width} values); metadata sha256 updated")


if __name__ == "__main__":
    main()
