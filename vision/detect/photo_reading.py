"""A still photograph read end to end (``jantaku vision detect`` and ``eval``, the real-photo
bench): its tiles found and read at the photograph's pixel aspect (given, or chosen by
:mod:`vision.detect.pixel_aspect`), then those far off its typical tile size dropped
(:mod:`vision.detect.tile_sizes`).

The size rule comes after the aspect is chosen: the aspect is chosen by how surely all the
finds read, and the finds the rule drops are what tells a wrong aspect (glyphs and misread
faces read unsurely)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from vision.detect.pixel_aspect import AspectReading, detect_any_pixel_aspect, detect_at_pixel_aspect
from vision.detect.still_photo import Detection
from vision.detect.tile_sizes import of_one_size


def read_photo(
    image: np.ndarray, detect: Callable[[np.ndarray], Sequence[Detection]], pixel_aspect: float | None = None
) -> AspectReading:
    """``detect`` (e.g. :func:`~vision.detect.still_photo.detect_tiles` with its models) run at
    ``pixel_aspect`` (None: the common aspects tried), and the finds of one size kept."""
    if pixel_aspect is None:
        reading = detect_any_pixel_aspect(image, detect)
    else:
        reading = AspectReading(pixel_aspect, detect_at_pixel_aspect(image, detect, pixel_aspect))
    return AspectReading(reading.pixel_aspect, of_one_size(reading.detections))
