"""A still photograph whose finds are mostly read unsurely shows things that are no tiles.

In a photograph of tiles most finds read surely; the few that do not are tiles seen badly (a
glare, a steep angle) among many read well. In a picture with no tile in it (a shelf of
lettered book spines, felt, a wooden desk, a table's centre panel) the finds that get past
the verifier are letters, boxes and dice, and the classifier is unsure of nearly all of them.
So a photograph's unsure finds count only when enough of its finds are read surely: a find
the classifier is sure of stays either way.

Chosen on training material (`models/DATA.md`: the `alanchoi` training split and the
rendered tile-free seat views): at a sure share of 0.3, 200 of `alanchoi`'s training
photographs lost no tile and kept their false finds (115); the tile-free scenes' false finds
went from 124 to 61. Rendered seat views of standing tiles in recoloured palettes, where the
classifier is unsure of whole photographs, lose 6% of their finds (`docs/vision.md`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vision.detect.still_photo import Detection

#: A photograph under this share of whose finds are read surely keeps only its sure ones.
SURE_SHARE_AT_LEAST: Final = 0.3


def without_unsure_noise(detections: Sequence[Detection]) -> tuple[Detection, ...]:
    """``detections`` (one photograph's), less the unsure ones when under
    :data:`SURE_SHARE_AT_LEAST` of them are read surely."""
    if not detections:
        return ()
    sure = [d for d in detections if not d.uncertain]
    if len(sure) >= SURE_SHARE_AT_LEAST * len(detections):
        return tuple(detections)
    return tuple(sure)
