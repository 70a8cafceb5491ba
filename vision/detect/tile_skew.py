"""Tiles lying askew: an uncertain reading re-cut turned a little about its centre.

A tile tossed on the felt or leaning in a hand lies a few tens of degrees off its neighbours,
and a finder without a row to follow can put its axis square to the picture: the crop then
holds the face turned, and a turned 5p reads as a 1p or as nothing sure. The classifier calls
such a crop uncertain more often than not, so an uncertain reading is the sign (as for a
tile cut between two, :mod:`vision.detect.tile_phase`). Each still uncertain tile is cut again
turned each way by :data:`TURNS`; the surest turned cut that reads at least
:data:`TURNED_AT_LEAST` takes its place, with its turned corners (the face's true lie). A tile
no turn reads so surely stays as it was.

A caller that knows each tile's row axis (a calibrated table) has no use for it: the axis is
the table's, not a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np

from vision.classify.crops import turned_about_centre
from vision.detect.tile_lie import QuadReader, TileLie

#: The turns tried, degrees clockwise: tiles tossed on the felt lie up to about a third of a
#: quarter turn from the picture's axes (a larger skew is the finder's own axis to find).
TURNS: Final = (-30.0, -15.0, 15.0, 30.0)
#: How surely a turned cut must read to replace the tile's reading. A turned crop shows the
#: tile's side and the felt in its corners, and some of those read as a sure 1p: on 240
#: seat-view training scenes (renders, the truth known), turned cuts read from 0.6 (merely sure)
#: mended 21 readings and broke 21; those read at 0.9 or more mended 10 and broke 1.
TURNED_AT_LEAST: Final = 0.9


def unskew(image: np.ndarray, classifier: QuadReader, lies: Sequence[TileLie]) -> tuple[TileLie, ...]:
    """``lies`` with each uncertain tile replaced by its surest turned cut that reads at least
    :data:`TURNED_AT_LEAST` (see the module's doc); the rest unchanged, in order."""
    doubtful = [i for i, lie in enumerate(lies) if lie.reading.uncertain]
    if not doubtful:
        return tuple(lies)
    candidates = [(i, turned_about_centre(lies[i].corners, turn)) for i in doubtful for turn in TURNS]
    readings = classifier.classify_quads(image, [quad for _, quad in candidates])
    settled = list(lies)
    surest: dict[int, float] = {}
    for (i, quad), reading in zip(candidates, readings, strict=True):
        if reading.confidence >= TURNED_AT_LEAST and reading.confidence > surest.get(i, 0.0):
            surest[i] = reading.confidence
            settled[i] = TileLie(quad, reading, lies[i].sideways)
    return tuple(settled)
