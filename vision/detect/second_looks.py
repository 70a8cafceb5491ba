"""A still photograph read a second time, changed as its first reading calls for.

A first reading can say what is wrong with the picture: its tiles' faces show a coloured light
(:mod:`vision.detect.face_white`), they are smeared along a line, a camera that moved
(:mod:`vision.detect.camera_shake`), or they are soft, a lens focused off the table
(:mod:`vision.detect.soft_focus`). Each such :class:`SecondLook` changes the picture it is
given (or declines), the changed picture is read again, and the second reading is kept when it
reads surer (:func:`vision.detect.pixel_aspect.sureness`). The looks run in order, each on the
picture whose reading was kept, so a picture both soft and coloured is set right and then
sharpened: four readings at most with the three looks, one when none is called for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from vision.detect.pixel_aspect import AspectReading, sureness
from vision.detect.still_photo import Detection

ReadPhoto = Callable[[np.ndarray], AspectReading]


@dataclass(frozen=True)
class SecondLook:
    """A change a first reading may call for: ``change(picture, finds)`` gives the picture
    changed, or None where the finds do not call for it; ``what`` says what was done (``vision
    detect`` prints it when the second reading is kept)."""

    what: str
    change: Callable[[np.ndarray, Sequence[Detection]], np.ndarray | None]


def with_second_looks(read: ReadPhoto, looks: Sequence[SecondLook]) -> ReadPhoto:
    """``read`` followed by each of ``looks`` in turn: the picture changed as the kept reading
    calls for, read again, and that reading kept when it reads surer (its ``read_again`` naming
    the looks kept)."""

    def read_with_looks(image: np.ndarray) -> AspectReading:
        picture, reading = image, read(image)
        kept: list[str] = []
        for look in looks:
            changed = look.change(picture, reading.detections)
            if changed is None:
                continue
            again = read(changed)
            if sureness(again.detections) > sureness(reading.detections):
                picture, reading = changed, again
                kept.append(look.what)
        return replace(reading, read_again=tuple(kept)) if kept else reading

    return read_with_looks
