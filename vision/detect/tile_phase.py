"""Tiles a finder cut between two: an uncertain reading re-cut half a face either way.

In a dense row of touching tiles a finder can lose the row's phase and put its peak on the
seam between two faces: the quad then holds half of each, and both tiles go missing. The
classifier is trained to call such a crop uncertain (:mod:`vision.training.outliers`), so an
uncertain reading is the sign. Each uncertain tile is cut again half a face to either side
along its width and its height; the shifted quads that read surely, and do not land on a tile
already found, take its place (both halves of a seam give back both tiles). A tile no shift
reads better stays as it was: still uncertain, still reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np

from vision.classify.crops import shifted_quads
from vision.detect.tile_lie import QuadReader, TileLie
from vision.geometry import length

#: How far a quad is moved, in faces along the edge it is moved along.
SHIFT: Final = 0.5
#: Two quads whose centres lie closer than this many face widths are one tile.
SAME_TILE: Final = 0.6


def rephase(image: np.ndarray, classifier: QuadReader, lies: Sequence[TileLie]) -> tuple[TileLie, ...]:
    """``lies`` with every uncertain tile replaced by the shifted cuts of it that read surely
    and land on no other tile (see the module's doc); the rest unchanged, in order."""
    doubtful = [i for i, lie in enumerate(lies) if lie.reading.uncertain]
    if not doubtful:
        return tuple(lies)
    candidates = [(i, quad) for i in doubtful for quad in shifted_quads(lies[i].corners, SHIFT)]
    readings = classifier.classify_quads(image, [quad for _, quad in candidates])
    doubtful_set = set(doubtful)
    kept_centres = [lie.corners.mean(axis=0) for i, lie in enumerate(lies) if i not in doubtful_set]
    widths = {i: _face_width(lies[i].corners) for i in doubtful}
    replacements: dict[int, list[TileLie]] = {i: [] for i in doubtful}
    # Surest first: when two shifted cuts land on the same tile, the better read wins.
    for index in sorted(range(len(candidates)), key=lambda k: -readings[k].confidence):
        reading = readings[index]
        owner, quad = candidates[index]
        if reading.uncertain:
            break
        centre = quad.mean(axis=0)
        if _near_any(centre, kept_centres, SAME_TILE * widths[owner]):
            continue
        kept_centres.append(centre)
        replacements[owner].append(TileLie(quad, reading, lies[owner].sideways))
    new_centres = [new.corners.mean(axis=0) for group in replacements.values() for new in group]
    settled: list[TileLie] = []
    for i, lie in enumerate(lies):
        if replacements.get(i):
            settled.extend(replacements[i])
        elif i in replacements and _near_any(lie.corners.mean(axis=0), new_centres, SAME_TILE * widths[i]):
            continue  # another's shifted cut read this very tile surely
        else:
            settled.append(lie)
    return tuple(settled)


def _near_any(centre: np.ndarray, others: Sequence[np.ndarray], distance: float) -> bool:
    return any(length(centre - other) < distance for other in others)


def _face_width(corners: np.ndarray) -> float:
    return float(min(length(corners[1] - corners[0]), length(corners[3] - corners[0])))
