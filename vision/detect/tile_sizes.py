"""One photograph's tiles are one physical size: a find far off the photograph's typical tile
is a piece of a face, or a box over something that is no tile.

The learnt finder looks at a photograph on a pyramid of scales, so that tiles of any size are
found with no hint; the price is that a fine look fires on a glyph (a circle of a pin tile, a
stroke of a character) and a coarse one on a book spine or a panel several tiles long. In a
photograph of a table, perspective changes a tile's size smoothly and by less than twice from
the nearest tile to the farthest, so such finds stand out against the median find.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np

from vision.detect.still_photo import Detection
from vision.geometry import long_edge

#: A find whose long edge is under this share of the median find's is a piece of a face.
#: (Held-out real photographs: 103 such finds, one a tile.)
SMALLER_AT_MOST: Final = 0.5
#: A find this many times longer than the median that the classifier is unsure of is no tile
#: (book spines, panels); one read surely stays, as a tile close to the camera.
LARGER_UNSURE_AT_MOST: Final = 1.6
#: Fewer finds than this have no typical size to judge by.
_JUDGED_FROM: Final = 3


def of_one_size(detections: Sequence[Detection]) -> tuple[Detection, ...]:
    """``detections`` without those far off the photograph's typical tile size (see above)."""
    if len(detections) < _JUDGED_FROM:
        return tuple(detections)
    longs = np.array([long_edge(d.corners) for d in detections])
    typical = float(np.median(longs))
    return tuple(
        d
        for d, long in zip(detections, longs, strict=True)
        if long >= SMALLER_AT_MOST * typical and (long < LARGER_UNSURE_AT_MOST * typical or not d.uncertain)
    )
