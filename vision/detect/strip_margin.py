"""A strip of tiles read inside a margin.

A data set's export stretches every picture to a square, and a picture of one row or one column
of tiles, cut tight along them, becomes bands of tiles stretched five to twelve times
(:data:`vision.detect.pixel_aspect.STRIP_PIXEL_ASPECTS`). Its squeeze undone, it is a strip whose
tiles touch its long edges, and its end tiles its short ones: the finder drops each tile the
frame's edge touches (it takes it for one the edge cuts), and the network sees no tile's outline
against anything at the strip's edges. Such a picture is read inside a margin of a flat colour
(:data:`MARGIN_BGR`), its finds' corners taken back to the picture's own pixels.

Only a picture read at a strip's squeeze is given the margin (:data:`STRIP_AT_LEAST`: a squeeze
no common frame's shape makes): a camera's frame, a square export of one, and any part of a
picture read at its frame's squeeze are read as they are, and a tile their edge cuts is still
dropped. (On ``alanchoi``'s held-out photographs the strips' tiles found went from 0-10 of 9-12
a strip to nearly every one; a margin given by the restored picture's shape instead also framed
tile-free rectangles read at 16:9, and what their edges cut was found: ``docs/vision-history.md``.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final

import cv2
import numpy as np

from vision.detect.still_photo import Detection

#: A picture squeezed at least this much (its pixels this many times wider than tall, or taller
#: than wide) was a strip: the least squeeze tried for one
#: (:data:`~vision.detect.pixel_aspect.STRIP_PIXEL_ASPECTS`), beyond every common frame's (16:9).
STRIP_AT_LEAST: Final = 2.4
#: The margin on every side, as a share of the strip's width: half a strip's width is about half
#: a tile's length beside a row's tiles, and as much beyond its end tiles.
MARGIN_SHARE: Final = 0.5
#: The margin's colour: a flat mid grey, neither a face's white nor a dark back.
MARGIN_BGR: Final = (90, 90, 90)


def is_strip_squeeze(pixel_aspect: float) -> bool:
    """Whether a picture read at ``pixel_aspect`` (a pixel's width over its height) is read as a
    strip of tiles its export stretched (:data:`STRIP_AT_LEAST`)."""
    return max(pixel_aspect, 1.0 / pixel_aspect) >= STRIP_AT_LEAST


def read_in_margin(image: np.ndarray, detect: Callable[[np.ndarray], Sequence[Detection]]) -> tuple[Detection, ...]:
    """``detect`` run on ``image`` inside a margin (:data:`MARGIN_SHARE` of its shorter side on
    every side, :data:`MARGIN_BGR`), each detection's corners moved back to ``image``'s pixels
    (and into them: a face found to the picture's edge may reach a pixel or two past it)."""
    height, width = image.shape[:2]
    margin = max(1, round(MARGIN_SHARE * min(height, width)))
    framed = cv2.copyMakeBorder(image, margin, margin, margin, margin, cv2.BORDER_CONSTANT, value=MARGIN_BGR)
    return tuple(
        replace(d, corners=np.clip(np.asarray(d.corners, np.float64) - margin, 0.0, (width - 1.0, height - 1.0)))
        for d in detect(framed)
    )
