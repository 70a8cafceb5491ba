"""One frame's tile readings: each quad cut and read once, many quads read in one batch.

A table reader reads the same face more than once a frame: a doubtful find's cut as found is
read again beside its turned and nudged cuts, and when the felt mask shows tile that no find
covers, the whole table is placed and its rows fitted a second time with the gaps' faces in,
cutting most of the first pass's faces again. The crop depends only on the frame and the
quad's corners as float32 (:func:`vision.classify.crops.crop_tile`), so a quad whose float32
corners were read before gets the same reading without another crop or network run. And
the classifier's time goes by the crop, not by the call, but each call has its own overhead:
a caller that knows what it will read (every row's ways, every face's nudges) reads them all
ahead in one batch (:meth:`FrameReadings.read_ahead`). The network reads each crop of a batch
alone, so a reading does not depend on which batch it came in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from vision.classify.classifier import TileReading


class QuadClassifier(Protocol):
    """Reads the tiles inside quads of an image (:class:`vision.classify.classifier.OnnxTileClassifier`)."""

    def classify_quads(self, image: np.ndarray, quads: list[np.ndarray]) -> tuple[TileReading, ...]: ...


class FrameReadings:
    """The readings of quads of one frame, each read once; a ``QuadReader`` for that frame only."""

    def __init__(self, classifier: QuadClassifier, image: np.ndarray) -> None:
        self.classifier = classifier
        self.image = image
        self._read: dict[bytes, TileReading] = {}

    def __len__(self) -> int:
        """How many different quads were read."""
        return len(self._read)

    def read_ahead(self, quads: Sequence[np.ndarray]) -> None:
        """Reads, in one batch, every quad not read yet (each once)."""
        wanted: dict[bytes, np.ndarray] = {}
        for quad in quads:
            key = _key(quad)
            if key not in self._read:
                wanted.setdefault(key, quad)
        if wanted:
            readings = self.classifier.classify_quads(self.image, list(wanted.values()))
            self._read.update(zip(wanted, readings, strict=True))

    def classify_quads(self, image: np.ndarray, quads: list[np.ndarray]) -> tuple[TileReading, ...]:
        """Readings of the tiles inside each quad of this frame (``image`` must be it)."""
        if image is not self.image:
            raise ValueError("these readings are of another frame: read a new frame with its own FrameReadings")
        self.read_ahead(quads)
        return tuple(self._read[_key(quad)] for quad in quads)


def _key(quad: np.ndarray) -> bytes:
    """What the crop depends on: the corners as the crop's perspective transform takes them."""
    corners = np.asarray(quad, np.float32)
    if corners.shape != (4, 2):
        raise ValueError(f"a tile needs 4 corners as a 4×2 array, got shape {corners.shape}")
    return corners.tobytes()
