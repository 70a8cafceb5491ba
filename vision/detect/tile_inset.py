"""Finds cut a little large: a doubtful reading re-cut tighter about its centre.

Seen from a seat, a standing tile shows its face and its top, a lying one its face and its
side, and the finder's quad can take in some of that block around the face: the crop then
holds the face shrunk, with a band of bone or back colour beside it, and the classifier,
taught on faces cut to their edges, reads it unsurely or as another kind (a 5p with a band
above it reads as a 1p). Each tile read less surely than :data:`DOUBT_BELOW` is cut again
:data:`INSET` of its size about the same centre; when that cut reads surer, its reading takes
the tile's place. The tile keeps its quad: the finder's quad is where the tile is, the tighter
cut only how it reads best.

Cutting every tile tighter would not do: a quad that fits the face loses the face's edges, and
on the Chinese held-out photographs (tiles seen from above, finds that fit) reading every
find tighter lost 4 points of 34-kind accuracy. The figures and how the two numbers were chosen
are in ``docs/vision-history.md``.

A calibrated table (the live table reader) does not cut again: its finds fit the faces seen
from above, and on the table reader's bench the tighter cuts mended a few tiles but left more
read wrong and sure, which is what a referee acts on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np

from vision.detect.tile_lie import QuadReader, TileLie

#: The tighter cut's size, a share of the find's width and height about its centre.
INSET: Final = 0.8
#: Readings less sure than this (summed label probability) are cut again tighter.
DOUBT_BELOW: Final = 0.8


def inset_quad(corners: np.ndarray, share: float = INSET) -> np.ndarray:
    """The quad scaled by ``share`` about its centre, corners in the same order."""
    if corners.shape != (4, 2):
        raise ValueError(f"a tile's quad must be a 4×2 array, got shape {corners.shape}")
    if not share > 0.0:  # NaN too
        raise ValueError(f"a quad's inset share must be positive, got {share}")
    centre = corners.mean(axis=0)
    return np.asarray(centre + (corners - centre) * share, np.float32)


def read_inset(image: np.ndarray, classifier: QuadReader, lies: Sequence[TileLie]) -> tuple[TileLie, ...]:
    """``lies`` with each reading less sure than :data:`DOUBT_BELOW` replaced by its tighter
    cut's reading where that reads surer (see the module's doc); quads and sideways calls kept,
    the rest unchanged, in order."""
    doubtful = [i for i, lie in enumerate(lies) if lie.reading.confidence < DOUBT_BELOW]
    if not doubtful:
        return tuple(lies)
    readings = classifier.classify_quads(image, [inset_quad(lies[i].corners) for i in doubtful])
    settled = list(lies)
    for i, reading in zip(doubtful, readings, strict=True):
        if reading.confidence > lies[i].reading.confidence:
            settled[i] = TileLie(lies[i].corners, reading, lies[i].sideways)
    return tuple(settled)
