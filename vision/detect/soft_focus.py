"""A soft photograph (a lens focused a little off the table) read again sharpened.

The detector learnt from crisp renders and photographs: under a blur a person hardly sees (a
Gaussian a 25th of a tile wide) it misses a fifth of the held-out Japanese tiles (recall 0.928
-> 0.776, ``bench/bench_photo_changes.py``; with no verifier its matched finds fall from 544 to
490 of 580). Trained with blurred windows it reads them better, but a fine-tune of the shipped
detector costs that source precision (``docs/vision-history.md``).

How soft a picture is, the finds themselves say: each is cut upright with a little of its
surroundings at a fixed size (:data:`SOFTNESS_CROP`, so the measure is in tile widths, not
pixels), and the share of its gradients' energy that a further blur of one pixel keeps is
measured (a crisp face loses most, a soft one little). On the held-out photographs as stored
the finds' median keeps 0.28-0.44 (5th-95th percentile a picture), under the bench's defocus
0.44-0.66 and under a 50th of a tile's 0.32-0.51. A shaken picture keeps as much, but along the
shake only: its faces keep their energy across it (the median of each find's |log| ratio of
the two directions' kept shares, 0.36-0.41 against 0.11 for defocus); sharpened all round, a
shaken picture read surer but wrong (34-kind 0.785 -> 0.724), so it is left as it is.

A picture of three finds or more (:data:`FINDS_AT_LEAST`; read surely or not: a floor of 0.35 on how
surely, once kept for a rendered keyboard's sake, cost the defocused Japanese photographs 0.05 of
recall, 0.847 against 0.893, and kept 2 false finds out of 81 on rendered spines titled in tile
characters, ``docs/vision-history.md``),
soft (:data:`SOFT_AT_LEAST`) and not shaken (:data:`SHAKEN_AT_LEAST`), is sharpened by an
unsharp mask (:data:`SHARPENING` times the picture less its blur by a 33rd of the finds' median
long edge) and read again; the sharpened reading is kept when it reads surer (:data:`SHARPENED`,
a second look: :mod:`vision.detect.second_looks`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import cv2
import numpy as np

from vision.classify.crops import crop_tile
from vision.detect.second_looks import SecondLook
from vision.detect.still_photo import Detection
from vision.geometry import long_edge

#: The size (width, height) each find is cut at, with :data:`SOFTNESS_MARGIN` of its
#: surroundings, to measure how soft it is.
SOFTNESS_CROP: Final = (24, 32)
#: How far beyond its own corners a find is cut (a share of its size each way from its centre):
#: its outline against the felt is its crispest edge.
SOFTNESS_MARGIN: Final = 1.25
#: A picture whose finds keep this share of their gradients' energy under a further blur of a
#: pixel, or more, is soft. As stored the held-out photographs keep 0.34 (median), 0.43 at most
#: but for one in twenty; defocused a 25th of a tile 0.52 and 0.55 (the two sources' medians), a
#: 50th 0.41 and 0.44.
SOFT_AT_LEAST: Final = 0.42
#: A picture whose finds' two directions keep shares this far apart (median |log| ratio) or
#: further is shaken, not soft: sharpening it all round misreads it. Defocused a 25th of a tile,
#: three held-out pictures in four lie under 0.17; shaken a fifth of a tile, three in four over
#: 0.21 (as stored, 0.07-0.32). At 0.25 the shaken Japanese pictures read 0.764 / 0.761
#: (recall / 34-kind; 0.771 / 0.785 read once), at 0.2 0.769 / 0.778, defocus 0.876 and 0.874.
SHAKEN_AT_LEAST: Final = 0.2
#: The unsharp mask's weight: the picture plus this many times itself less its blur.
SHARPENING: Final = 2.0
#: The unsharp mask's blur, a share of the finds' median long edge (a 25th of a short edge).
SHARPENING_REACH: Final = 0.03
#: Fewer finds than this say too little about the picture: it is read once.
FINDS_AT_LEAST: Final = 3


def _kept_energy(crop: np.ndarray) -> tuple[float, float, float] | None:
    """The shares of a crop's gradient energy, in all and across and down, that a blur of one
    pixel keeps (None for a crop with no gradient one way)."""
    before = _energies(crop)
    after = _energies(cv2.GaussianBlur(crop, (0, 0), 1.0))
    if min(before) <= 0.0:
        return None
    return sum(after) / sum(before), after[0] / before[0], after[1] / before[1]


def _energies(crop: np.ndarray) -> tuple[float, float]:
    across = cv2.Sobel(crop, cv2.CV_32F, 1, 0, ksize=3)
    down = cv2.Sobel(crop, cv2.CV_32F, 0, 1, ksize=3)
    return float((across * across).mean()), float((down * down).mean())


def softness(image: np.ndarray, found: Sequence[Detection]) -> tuple[float, float] | None:
    """How soft the finds are and how unevenly: the median share of each find's gradient energy
    that a further blur of a pixel keeps, and the median |log| ratio of its two directions'
    shares (high for a shaken picture). None with no find to measure."""
    gray = (cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image).astype(np.float32)
    kept, uneven = [], []
    for detection in found:
        corners = np.asarray(detection.corners, np.float64)
        middle = corners.mean(axis=0)
        shares = _kept_energy(crop_tile(gray, middle + (corners - middle) * SOFTNESS_MARGIN, SOFTNESS_CROP))
        if shares is None:
            continue
        overall, across, down = shares
        kept.append(overall)
        uneven.append(abs(float(np.log(max(across, 1e-6) / max(down, 1e-6)))))
    if not kept:
        return None
    return float(np.median(kept)), float(np.median(uneven))


def sharpened(image: np.ndarray, found: Sequence[Detection]) -> np.ndarray:
    """``image`` through an unsharp mask scaled to its finds' size (:data:`SHARPENING`,
    :data:`SHARPENING_REACH`)."""
    reach = max(SHARPENING_REACH * float(np.median([long_edge(d.corners) for d in found])), 0.5)
    blurred = cv2.GaussianBlur(image, (0, 0), reach)
    return np.asarray(cv2.addWeighted(image, 1.0 + SHARPENING, blurred, -SHARPENING, 0))


def soft_change(image: np.ndarray, found: Sequence[Detection]) -> np.ndarray | None:
    """``image`` sharpened when its finds, :data:`FINDS_AT_LEAST` or more, say it is soft and not
    shaken; else None (a :class:`vision.detect.second_looks.SecondLook`'s change)."""
    if len(found) < FINDS_AT_LEAST:
        return None
    measured = softness(image, found)
    if measured is None:
        return None
    kept, uneven = measured
    if kept < SOFT_AT_LEAST or uneven >= SHAKEN_AT_LEAST:
        return None
    return sharpened(image, found)


#: The second look at a soft photograph.
SHARPENED: Final = SecondLook("sharpened (its faces were soft)", soft_change)
