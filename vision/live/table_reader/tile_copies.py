"""A set holds four tiles of each kind: more sure faces of one kind than that is a misreading.

A lamp's glare can wash a whole hand's faces out, and washed-out faces read as a sure white
dragon (a blank face); blur can turn one 5p into a sure 1p. The reader cannot tell which of
the faces of an over-counted kind are the misread ones, so every face of that kind is called
uncertain (the referee asks rather than acts on a guess). Red and plain fives are one kind;
backs are not counted.

Pure: readings in, readings out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from typing import Final

from vision.classify.classifier import TileReading
from vision.classify.labels import kind_of_label

#: Copies of each tile kind in a riichi set (the red fives among the fives).
COPIES: Final = 4


def over_counted(readings: Iterable[TileReading]) -> frozenset[int]:
    """The 34-kinds (``kind_of_label``) read surely more than :data:`COPIES` times."""
    counts = Counter(kind_of_label(r.label) for r in readings if not r.face_down and not r.uncertain)
    return frozenset(kind for kind, count in counts.items() if count > COPIES)


def doubted(reading: TileReading, kinds: frozenset[int]) -> TileReading:
    """``reading`` called uncertain when it reads a face of one of ``kinds``."""
    if reading.face_down or reading.uncertain or kind_of_label(reading.label) not in kinds:
        return reading
    return replace(reading, uncertain=True)
