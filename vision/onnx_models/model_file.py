"""An ONNX model shipped beside its metadata (``NAME.onnx`` + ``NAME.json``): both present, the
metadata readable, and the model the very file the metadata describes (its sha256).

The tile classifier and the tile detector load theirs through here, the crop models through
:class:`vision.onnx_models.crop_model.CropModel`; each then checks what its own code needs of
the metadata (labels, output channels, crop size) and raises its own error type.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from vision.json_file import read_json_object


class ModelFileError(RuntimeError):
    """A model file or its metadata is missing, damaged or does not match the code reading it;
    each model's own error is one (the message names the file)."""


def load_model_metadata(model_path: Path, what: str, error: type[Exception]) -> dict[str, Any]:
    """The metadata of ``model_path`` (``what`` names the model in messages); ``error`` is raised
    when either file is missing, the JSON is damaged, or the sha256 does not match."""
    metadata_path = model_path.with_suffix(".json")
    if not model_path.is_file() or not metadata_path.is_file():
        raise error(f"{what} {model_path} or its metadata {metadata_path.name} is missing")
    metadata = read_json_object(metadata_path, f"{what} metadata", error)
    digest = hashlib.sha256(model_path.read_bytes()).hexdigest()
    if metadata.get("sha256") != digest:
        raise error(f"{model_path} does not match the sha256 in {metadata_path.name}")
    return metadata
