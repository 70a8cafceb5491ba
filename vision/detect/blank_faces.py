"""A still photograph whose only finds are blank faces shows nothing that makes them tiles.

The white dragon (5z) is a blank white face: any white box, card, sheet of paper or die seen
at a tile's size looks like one, and the classifier reads such a thing 5z, often surely. In a
photograph of tiles a white dragon stands among other faces; in a tile-free picture the blank
finds stand alone. So when every find of a photograph reads as a blank face, none is kept.

Measured before it was kept (`docs/vision.md`): of the rendered tile-free scenes, 9 of 80 gave
only blank finds (24 finds), of the training ones 8 of 120 (11); no photograph of the two
held-out sources nor 200 of `alanchoi`'s training photographs has only blank finds, and one
of 150 rendered seat views (one find, a tile) had. The price: a photograph of white dragons
alone reads as no tile.
"""

from __future__ import annotations

from collections.abc import Sequence

from vision.classify.labels import WHITE_DRAGON_LABEL
from vision.detect.still_photo import Detection


def without_blanks_alone(detections: Sequence[Detection]) -> tuple[Detection, ...]:
    """``detections`` (one photograph's), or none when every one reads as a blank face."""
    if all(d.label == WHITE_DRAGON_LABEL for d in detections):
        return ()
    return tuple(detections)
