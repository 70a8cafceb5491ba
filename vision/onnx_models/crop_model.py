"""A crop model: a small network shipped with its metadata that reads crops of one size cut about
found tiles and gives one number for each (the aspect judge, the sideways judge, the tile
verifier).

Each such model is loaded and run the same way, here: its metadata read and checked against the
model file (:func:`~vision.onnx_models.model_file.load_model_metadata`), the crop size and
context it was trained on checked against what the code reading it cuts, a CPU session opened;
a batch of N×H×W×3 uint8 BGR crops checked, normalised as the metadata says and run. What the
crops are and what the numbers mean is each reader's own.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import numpy as np

from vision.onnx_models.cpu_session import cpu_session, nchw_input
from vision.onnx_models.model_file import load_model_metadata

log = logging.getLogger(__name__)


class CropModel:
    """A loaded crop model (``NAME.onnx`` beside ``NAME.json``); safe to share between calls, and
    nothing of it changes once loaded.

    ``what`` names the model in messages, ``error`` is raised (naming the file) when either file
    is missing or damaged or the metadata's crops are not the ``size`` (pixels a side, or
    ``(width, height)``) and ``context`` (how much around the tile the crop holds; not checked
    when ``None``) that the code cuts. The metadata's ``input`` gives the crop's size as
    ``size`` or as ``width`` and ``height`` (as ``vision.training.export.crop_input`` writes it)."""

    def __init__(
        self,
        model_path: Path,
        what: str,
        error: type[Exception],
        size: int | tuple[int, int],
        context: float | None = None,
        *,
        threads: int = 1,
    ):
        metadata = load_model_metadata(model_path, what, error)
        width, height = (size, size) if isinstance(size, int) else size
        model_input = metadata.get("input")
        if not isinstance(model_input, dict):
            model_input = {}
        described = _described_size(model_input)
        if described != (width, height) or (context is not None and model_input.get("context") != context):
            of_theirs = "" if context is None else f" of {model_input.get('context')} tile lengths"
            of_ours = "" if context is None else f" of {context}"
            raise error(
                f"{model_path.with_suffix('.json').name} describes {_size_words(*described)} px crops{of_theirs}; "
                f"this code cuts {_size_words(width, height)} px{of_ours}"
            )
        try:
            self.mean, self.std = float(model_input["mean"]), float(model_input["std"])
        except (KeyError, TypeError, ValueError) as exc:
            raise error(f"{model_path.with_suffix('.json').name} gives no crop mean and std for the {what}") from exc
        self.path = model_path
        self.what = what
        self.metadata: dict[str, Any] = metadata
        self.sha256 = str(metadata["sha256"])
        self.size = (width, height)
        self._error = error
        self._session = cpu_session(model_path, threads)
        self._input_name = self._session.get_inputs()[0].name
        log.debug("loaded %s %s", what, model_path)

    def run(self, crops: np.ndarray) -> np.ndarray:
        """The model's number for each crop (N×H×W×3 uint8 BGR, at :attr:`size`), flat float32;
        none for no crop. A batch of another shape or type is a ValueError naming the one read."""
        width, height = self.size
        if crops.ndim != 4 or crops.shape[1:] != (height, width, 3) or crops.dtype != np.uint8:
            raise ValueError(f"the {self.what} reads N×{height}×{width}×3 uint8 crops, got {crops.shape} {crops.dtype}")
        if len(crops) == 0:
            return np.zeros(0, np.float32)
        batch = nchw_input(crops, self.mean, self.std)
        outputs = np.asarray(self._session.run(None, {self._input_name: batch})[0], np.float32).reshape(-1)
        if len(outputs) != len(crops):
            raise self._error(f"{self.path} gave {len(outputs)} numbers for {len(crops)} crops: one each")
        return outputs


def _described_size(model_input: dict[str, Any]) -> tuple[Any, Any]:
    """The crop's (width, height) as the metadata gives it: ``size`` a side, or ``width`` and ``height``."""
    if "size" in model_input:
        return model_input["size"], model_input["size"]
    return model_input.get("width"), model_input.get("height")


def _size_words(width: Any, height: Any) -> str:
    """``64`` for a square crop, ``32×42`` (width × height) for another."""
    return f"{width}" if width == height else f"{width}×{height}"
