"""The tile classifier at run time: the ONNX model through onnxruntime, batch by batch.

The model reads each crop both ways up at once (76 outputs: 38 labels upright, the same 38
upside down). The label's confidence is the two halves summed; below the model's
``uncertain_below`` the reading is marked uncertain — the caller must not treat it as known.
With a tile-set enrollment (:mod:`vision.enrollment`) the probabilities are blended with those
of a head fitted on the model's ``features`` output for that table's tiles. Last, a 5m or 6m
reading whose numeral and 萬 are both red becomes the red 5m (:mod:`vision.classify.red_numeral`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from models import MODELS_DIR
from table_app.domain.tile import Tile
from vision.classify.crops import CROP_SIZE, crop_tile
from vision.classify.labels import BACK_LABEL, LABEL_COUNT, is_red_label, label_name, tile_of_label
from vision.classify.red_numeral import RED_FIVE_MAN, is_red_five_man
from vision.enrollment.enrollment_file import load_enrollment
from vision.enrollment.head import EnrolledHead
from vision.onnx_models.cpu_session import cpu_session, nchw_input
from vision.onnx_models.model_file import ModelFileError, load_model_metadata

log = logging.getLogger(__name__)

DEFAULT_MODEL = MODELS_DIR / "tile-classifier.onnx"
#: The same classifier in 8-bit integers (:mod:`vision.training.quantize`): about twice as fast
#: a tile, for a machine that needs the time (the vision commands' ``--model``); not the
#: default, as a few borderline readings differ (``docs/vision-history.md``, 2026-12-04).
INT8_MODEL = MODELS_DIR / "tile-classifier.int8.onnx"
FEATURES_OUTPUT = "features"  # the pooled features the last layer reads (vision.training.features_output)


_CHUNK = 128  # crops per onnxruntime run


class ModelError(ModelFileError):
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

    def __init__(
        self,
        model_path: Path = DEFAULT_MODEL,
        *,
        threads: int = 1,
        uncertain_below: float | None = None,
        enrollment: Path | None = None,
    ):
        metadata = _load_metadata(model_path)
        self.sha256 = str(metadata["sha256"])
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
        self._session = cpu_session(model_path, threads)
        self._input_name = self._session.get_inputs()[0].name
        outputs = [output.name for output in self._session.get_outputs()]
        self.has_features = FEATURES_OUTPUT in outputs
        self._logits_name = outputs[0]
        self.enrollment: EnrolledHead | None = None
        if enrollment is not None:
            if not self.has_features:
                raise ModelError(
                    f"{model_path} has no {FEATURES_OUTPUT!r} output: an enrollment cannot be used with it"
                )
            self.enrollment = load_enrollment(enrollment, self.sha256)
        log.debug("loaded tile classifier %s%s", model_path, f" with enrollment {enrollment}" if enrollment else "")

    def classify(self, crops: np.ndarray) -> tuple[TileReading, ...]:
        """Readings of N crops (N×height×width×3 uint8 BGR, as :func:`vision.classify.crops.crop_tile` cuts)."""
        if len(crops) == 0:
            self._check(crops)
            return ()
        base, features = self.outputs(crops, features=self.enrollment is not None)
        probabilities = base if self.enrollment is None or features is None else self.enrollment.blended(base, features)
        return self.crop_readings(crops, probabilities)

    def crop_readings(self, crops: np.ndarray, probabilities: np.ndarray) -> tuple[TileReading, ...]:
        """The readings of ``crops`` from their N×76 ``probabilities`` (the base model's, or
        blended with an enrollment's head), as :meth:`classify` gives them: :meth:`readings`, then
        a 5m or 6m whose numeral and 萬 are red read as the red 5m
        (:mod:`vision.classify.red_numeral`: a real set's red 伍 the network took for 六)."""
        return tuple(
            replace(read, label=RED_FIVE_MAN) if is_red_five_man(crop, read.label, read.upside_down) else read
            for crop, read in zip(crops, self.readings(probabilities), strict=True)
        )

    def outputs(self, crops: np.ndarray, *, features: bool) -> tuple[np.ndarray, np.ndarray | None]:
        """The base model's N×76 probabilities and, with ``features``, its N×F features."""
        self._check(crops)
        if features and not self.has_features:
            raise ModelError(f"this model has no {FEATURES_OUTPUT!r} output")
        names = [self._logits_name, FEATURES_OUTPUT] if features else [self._logits_name]
        logits: list[np.ndarray] = []
        feature_rows: list[np.ndarray] = []
        # In chunks: onnxruntime keeps the memory of the largest batch it ever ran, and a table
        # reader may send hundreds of crops a frame; 128 costs no speed and bounds that memory.
        for start in range(0, len(crops), _CHUNK):
            chunk = crops[start : start + _CHUNK]
            batch = nchw_input(chunk, self.input.mean, self.input.std)
            results = self._session.run(names, {self._input_name: batch})
            logits.append(np.asarray(results[0]))
            if features:
                feature_rows.append(np.asarray(results[1]))
        return _softmax(np.concatenate(logits)), (np.concatenate(feature_rows) if features else None)

    def readings(self, probabilities: np.ndarray) -> tuple[TileReading, ...]:
        """Readings of N×76 probabilities (upright labels, then upside down): each crop's label
        is the one whose two halves sum highest, its confidence that sum."""
        upright, turned = probabilities[:, :LABEL_COUNT], probabilities[:, LABEL_COUNT:]
        merged = upright + turned
        labels = np.argmax(merged, axis=1)
        rows = np.arange(len(probabilities))
        confidences = merged[rows, labels]
        upside_down = turned[rows, labels] > upright[rows, labels]
        return tuple(
            TileReading(int(label), float(confidence), bool(down), float(confidence) < self.uncertain_below)
            for label, confidence, down in zip(labels, confidences, upside_down, strict=True)
        )

    def _check(self, crops: np.ndarray) -> None:
        expected = (self.input.height, self.input.width, 3)
        if crops.ndim != 4 or crops.shape[1:] != expected or crops.dtype != np.uint8:
            raise ValueError(f"crops must be N×{expected[0]}×{expected[1]}×3 uint8, got {crops.shape} {crops.dtype}")

    def classify_quads(self, image: np.ndarray, quads: list[np.ndarray]) -> tuple[TileReading, ...]:
        """Readings of the tiles inside each 4×2 quad of a BGR image."""
        if not quads:
            return ()
        return self.classify(np.stack([crop_tile(image, quad) for quad in quads]))


def _softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return np.asarray(shifted / shifted.sum(axis=1, keepdims=True))


def _load_metadata(model_path: Path) -> dict[str, Any]:
    metadata = load_model_metadata(model_path, "tile classifier", ModelError)
    metadata_path = model_path.with_suffix(".json")
    if len(metadata.get("labels", [])) != LABEL_COUNT:
        raise ModelError(f"{metadata_path.name} lists {len(metadata.get('labels', []))} labels, expected {LABEL_COUNT}")
    return metadata
