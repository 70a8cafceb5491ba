"""A white dragon read without much confidence may be a washed-out back or face.

The commonest sure wrong reading of the table reader (``bench_table_reader``, 360 rendered
tables with camera effects) was the white dragon: a face-down tile whose pale back a lamp
washes out reads as its blank face, as does a face whose marks glare erases (in a wall, the
dora indicators' run now tells most such backs, ``dora_run``). The classifier
is as sure of some of these as of right readings, but less sure on the whole: a white dragon
read below :data:`BLANK_SURE_FROM` is called uncertain (the referee asks rather than acts on it).

Only the white dragon: on real tiles (``bench_tile_crops``, a Japanese set cut from broadcast
frames) 1 of its 39 sure right readings is below that. The next commonest on renders, a blurred
2m read as 3m, was left alone: 16 of the real set's 17 right 3m readings would then be
uncertain, and none of its wrong ones is a 3m.

Pure: a reading in, a reading out.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from vision.classify.classifier import TileReading
from vision.classify.labels import WHITE_DRAGON_LABEL

#: A white dragon reading is sure from this confidence (the classifier's own threshold is lower).
BLANK_SURE_FROM: Final = 0.75


def blank_doubted(reading: TileReading) -> TileReading:
    """``reading`` called uncertain when it reads a white dragon less surely than :data:`BLANK_SURE_FROM`."""
    if reading.uncertain or reading.label != WHITE_DRAGON_LABEL or reading.confidence >= BLANK_SURE_FROM:
        return reading
    return replace(reading, uncertain=True)
