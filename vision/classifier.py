"""The tile classifier at run time: the ONNX model through onnxruntime, batch by batch.

The model reads each crop both ways up at once (76 outputs: 38 labels upright, the same 38
upside down). The label's confidence is the two halves summed; below the model's
``uncertain_below`` the reading is marked uncertain — the caller must not treat it as known.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime

from models import MODELS_DIR
from table_app.domain.tile import Tile
from vision.crops import CROP_SIZE, crop_tile
from vision.labels import BACK_LABEL, LABEL_COUNT, is_red_label, label_name, tile_of_label

log = logging.getLogger(__name__)

DEFAULT_MODEL = MODELS_DIR / "tile-classifier.onnx"


class ModelError(RuntimeError):
    """The model file or its metadata is missing, damaged or does not match this code."""


@dataclass(frozen=True, slots=True)
class TileReading:
    label: int
    confidence: float
    upside_down: bool  # the crop's bottom edge is the face's top
    uncertain: bool

    @property
    def tile(self) -> Tile:
        return tile_of_label(self.label)

    @property
    def name(self) -> str:
        return label_name(self.label)

    @property
    def red(self) -> bool:
        return is_red_label(self.label)

    @property
    def face_down(self) -> bool:
        return self.label == BACK_LABEL


@dataclass(frozen=True, slots=True)
class ModelInput:
    width: int
    height: int
    mean: float
    std: float


class OnnxTileClassifier:
    """Reads tile crops with the shipped (or a given) ONNX model; safe to share, not thread-bound."""

    def __init__(self, model_path: Path = DEFAULT_MODEL, *, threads: int = 1, uncertain_below: float | None = None):
        metadata = _load_metadata(model_path)
        self.input = ModelInput(
            int(metadata["input"]["width"]),
            int(metadata["input"]["height"]),
            float(metadata["input"]["mean"]),
            float(metadata["input"]["std"]),
        )
        if (self.input.width, self.input.height) != CROP_SIZE:
            size = f"{self.input.width}×{self.input.height}"
            raise ModelError(f"{model_path} expects {size} crops, this code cuts {CROP_SIZE}")
        self.uncertain_below = float(metadata["uncertain_below"] if uncertain_below is None else uncertain_below)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self._session = onnxruntime.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
        self._input_name = self._session.get_inputs()[0].name
        log.debug("loaded tile classifier %s", model_path)

    def classify(self, crops: np.ndarray) -> tuple[TileReading, ...]:
        """Readings of N crops (N×height×width×3 uint8 BGR, as :func:`vision.crops.crop_tile` cuts)."""
        expected = (self.input.height, self.input.width, 3)
        if crops.ndim != 4 or crops.shape[1:] != expected or crops.dtype != np.uint8:
            raise ValueError(f"crops must be N×{expected[0]}×{expected[1]}×3 uint8, got {crops.shape} {crops.dtype}")
        if len(crops) == 0:
            return ()
        batch = (crops.astype(np.float32).transpose(0, 3, 1, 2) / 255.0 - self.input.mean) / self.input.std
        logits = self._session.run(None, {self._input_name: batch})[0]
        return tuple(self._reading(row) for row in _softmax(np.asarray(logits)))

    def classify_quads(self, image: np.ndarray, quads: list[np.ndarray]) -> tuple[TileReading, ...]:
        """Readings of the tiles inside each 4×2 quad of a BGR image."""
        if not quads:
            return ()
        return self.classify(np.stack([crop_tile(image, quad) for quad in quads]))

    def _reading(self, probabilities: np.ndarray) -> TileReading:
        upright, turned = probabilities[:LABEL_COUNT], probabilities[LABEL_COUNT:]
        merged = upright + turned
        label = int(np.argmax(merged))
        confidence = float(merged[label])
        return TileReading(label, confidence, bool(turned[label] > upright[label]), confidence < self.uncertain_below)


def _softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return np.asarray(shifted / shifted.sum(axis=1, keepdims=True))


def _load_metadata(model_path: Path) -> dict[str, Any]:
    metadata_path = model_path.with_suffix(".json")
    if not model_path.is_file() or not metadata_path.is_file():
        raise ModelError(f"tile classifier {model_path} or its metadata {metadata_path.name} is missing")
    try:
        metadata: dict[str, Any] = json.loads(metadata_path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ModelError(f"{metadata_path} is not valid JSON: {error}") from error
    digest = hashlib.sha256(model_path.read_bytes()).hexdigest()
    if metadata.get("sha256") != digest:
        raise ModelError(f"{model_path} does not match the sha256 in {metadata_path.name}")
    if len(metadata.get("labels", [])) != LABEL_COUNT:
        raise ModelError(f"{metadata_path.name} lists {len(metadata.get('labels', []))} labels, expected {LABEL_COUNT}")
    return metadata
