"""The light over a table, read off its tiles' faces frame by frame, and each frame set right by
what the frames before it showed.

The table reader's classifier learnt faces under near-neutral light. Under a warm lamp (blue a
third down, red a tenth up: ``bench/bench_table_reader.py --change warm``) the reader placed as
many tiles but read 56 of 2 943 wrong and sure, and 4 of 30 tables were read exactly, against
27 under their own light. A camera's own white balance judges the light from the whole frame,
at a table mostly felt; the tiles' faces are a better grey card
(:mod:`vision.detect.face_white`, which reads a still photograph again with its colours set
right).

A camera watching a table sees the same light frame after frame, so a frame is not read twice:
each is set right with the gains the frames before it called for (:meth:`LightMeter.set_right`,
a lookup table a channel), read, and the light its faces still show moves the gains part of
the way (:data:`STEP`) towards setting it right (:meth:`LightMeter.update`). The meter starts
to move only for a light :data:`vision.detect.face_white.CAST_AT_LEAST` or more from a neutral
one, so a table under its own light is read as it always was; once moving it follows the light
until the faces show it set right within :data:`SETTLED_WITHIN`. The first frames under a new
light are read as they come; within a few frames the light is set right.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np

from vision.detect.face_white import CAST_AT_LEAST, blue_and_red_scaled, cast_of, gains_setting_right, light_colour
from vision.detect.still_photo import Detection

#: The share (in log) of the way to setting the last frame's light right that the gains move
#: each frame: one odd frame (a sleeve over the faces) moves them half as far as it would.
STEP: Final = 0.5
#: A light the faces show within this (natural log of either ratio) of a neutral one,
#: after the gains, is set right: the gains stay.
SETTLED_WITHIN: Final = 0.02
#: The gains stay within these bounds (a frame whose faces are mostly a coloured back is no
#: grey card, and no lamp at a table is that coloured).
LEAST_GAIN, MOST_GAIN = 0.5, 2.0


class LightMeter:
    """The gains (blue, red; green kept) that set the light over one table right, learnt from
    the frames read so far. Starts neutral."""

    def __init__(self) -> None:
        self.gains = (1.0, 1.0)

    @property
    def neutral(self) -> bool:
        return self.gains == (1.0, 1.0)

    def set_right(self, image: np.ndarray) -> np.ndarray:
        """``image`` (BGR uint8) with its blue and red scaled by the gains (itself while neutral)."""
        return image if self.neutral else blue_and_red_scaled(image, self.gains)

    def update(self, image: np.ndarray, found: Sequence[Detection]) -> None:
        """Move the gains by the light ``found``'s faces show in ``image`` (a frame already set
        right by :meth:`set_right`)."""
        light = light_colour(image, found)
        if light is None:
            return
        cast = cast_of(light)
        if cast < SETTLED_WITHIN or (self.neutral and cast < CAST_AT_LEAST):
            return
        # Part of the way (in log) from the gains as they stand to those that set this frame right.
        further = gains_setting_right(light)
        blue, red = (gain * step**STEP for gain, step in zip(self.gains, further, strict=True))
        self.gains = (float(np.clip(blue, LEAST_GAIN, MOST_GAIN)), float(np.clip(red, LEAST_GAIN, MOST_GAIN)))
