"""The tile verifier: is what the detector found a tile's face at all?

The detector (:mod:`vision.find.learnt`) looks at a small neighbourhood; in a photograph it
also fires on lettered book spines, point sticks, keyboards and on boxes that straddle two
tiles of a row. The verifier looks again at each find, with some of its surroundings (a tile
has a rim and a body around its face, a straddling box has a seam down its middle), and
scores it. Finds scored at or below the model's ``keep_above`` are dropped.

The model (``models/tile-verifier.onnx``, trained by :mod:`vision.training.train_verifier`
on the detector's own finds in labelled photographs and renders) reads a crop of the find's
quad widened by :data:`CONTEXT` about its centre, at the classifier's crop size, and gives
one logit.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import numpy as np

from models import MODELS_DIR
from vision.classify.crops import CROP_SIZE, crop_tile
from vision.geometry import centre, centres
from vision.onnx_models.crop_model import CropModel
from vision.onnx_models.model_file import ModelFileError

log = logging.getLogger(__name__)

DEFAULT_VERIFIER: Final = MODELS_DIR / "tile-verifier.onnx"
CONTEXT: Final = 1.3  # the crop is the quad widened this much about its centre
_CHUNK: Final = 256


def verifier_option(value: str | None) -> Path | None:
    """A ``--verifier`` option: the shipped model when not given, none for 'none', else the file named."""
    if value is None:
        return DEFAULT_VERIFIER
    return None if value.strip().lower() == "none" else Path(value)


class VerifierError(ModelFileError):
    """The verifier's model file or metadata is missing, damaged or does not match this code."""


def verifier_crop(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The crop the verifier reads: ``corners`` (4×2, face order) widened by :data:`CONTEXT`."""
    middle = centre(corners)
    return crop_tile(image, (corners - middle) * CONTEXT + middle)


def widened(quads: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Each quad widened by :data:`CONTEXT` about its centre, as :func:`verifier_crop` widens
    it: all at once where the quads share a type (the same steps, elementwise)."""
    if len({quad.dtype for quad in quads}) != 1 or any(quad.shape != (4, 2) for quad in quads):
        return [(quad - centre(quad)) * CONTEXT + centre(quad) for quad in quads]
    middles = centres(quads)[:, None, :]
    return list((np.stack(quads) - middles) * CONTEXT + middles)


class OnnxTileVerifier:
    """Scores found quads 0..1 (a tile's face or not); safe to share between calls."""

    def __init__(self, model_path: Path = DEFAULT_VERIFIER, *, threads: int = 1, keep_above: float | None = None):
        self.model = CropModel(model_path, "tile verifier", VerifierError, CROP_SIZE, CONTEXT, threads=threads)
        self.sha256, self.mean, self.std = self.model.sha256, self.model.mean, self.model.std
        self.keep_above = float(self.model.metadata["keep_above"] if keep_above is None else keep_above)
        log.debug("tile verifier %s keeps above %.2f", model_path, self.keep_above)

    def scores(self, image: np.ndarray, quads: list[np.ndarray]) -> np.ndarray:
        """Each quad's probability of being a tile's face."""
        if not quads:
            return np.zeros(0, np.float32)
        crops = np.stack([crop_tile(image, quad) for quad in widened(quads)])
        logits = np.concatenate(
            [self.model.run(crops[start : start + _CHUNK]) for start in range(0, len(crops), _CHUNK)]
        )
        return np.asarray(1.0 / (1.0 + np.exp(-logits)), np.float32)

    def keep(self, image: np.ndarray, quads: list[np.ndarray]) -> list[bool]:
        """Which quads are kept (:meth:`keeps`)."""
        return [self.keeps(float(score)) for score in self.scores(image, quads)]

    def keeps(self, score: float) -> bool:
        """Whether a find of this score is kept as a tile's face: scored above ``keep_above``."""
        return score > self.keep_above
