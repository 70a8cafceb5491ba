"""Whether a blob of not-felt has an outline: something over the table has one, light on the felt has none.

The felt mask tells felt from not-felt by colour, and a lamp's glare on the felt or the felt's
own lighter patches shift its colour enough to pass for not-felt in places. Such a blob fades
into the felt over tens of pixels; an arm, a hand or a sleeve over the table ends at an edge,
blurred by the lens a few pixels at most. So the occluder test (``occluders.occluder_labels``)
keeps a blob only where its outline is a step in colour: the mean, over the blob's outline
pixels where no tile lies, of the colour's change a pixel. Measured on bench frames (σ 2 px
smoothing, the largest channel's step): arms 4.4-6.9 levels a pixel, glare and lighter felt
0.35-0.7.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import cv2
import numpy as np

_SMOOTH_PX: Final = 2.0  # sensor noise and JPEG blocks are no outline: smoothed out first
#: The least mean colour step (levels a pixel, the largest of the three channels) along a blob's
#: outline for it to be something over the table rather than light on the felt.
OUTLINE_STEP: Final = 2.0


def colour_steps(image: np.ndarray) -> np.ndarray:
    """Each pixel's colour change a pixel (float32, the largest over the channels' gradients),
    after smoothing: for a BGR (or grey) uint8 image."""
    smooth = cv2.GaussianBlur(image.astype(np.float32), (0, 0), _SMOOTH_PX)
    # Sobel's 3×3 kernel weighs a step by 8: divided back, a step of 1 level a pixel reads 1.
    across = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    down = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    steps = np.sqrt(across * across + down * down)
    return np.asarray(steps.max(axis=2) if steps.ndim == 3 else steps)


def outline_sums(labels: np.ndarray, image: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """For each of ``count`` labels of ``labels`` (int32, 0 none), over its outline in this part
    of the image: the sum of the colour steps (``colour_steps``) and the number of pixels. A
    blob cut by the part's edge has no outline there (erosion takes what lies past the edge as
    blob)."""
    blobs = (labels > 0).astype(np.uint8)
    # Blobs are 8-connected pieces, so no two touch: one erosion finds every blob's outline.
    outline = cv2.subtract(blobs, cv2.erode(blobs, np.ones((3, 3), np.uint8))) > 0
    on_outline = labels[outline]
    steps = colour_steps(image)[outline]
    return (
        np.bincount(on_outline, weights=steps, minlength=count).astype(np.float64),
        np.bincount(on_outline, minlength=count).astype(np.int64),
    )


def outlined(candidates: np.ndarray, parts: Iterable[tuple[np.ndarray, np.ndarray]], count: int) -> np.ndarray:
    """The ``candidates`` (labels, of ``count``) whose outline in the ``parts`` (each: a labels
    part and the image part under it) is a step (``OUTLINE_STEP``) on average. A blob with no
    outline there (it covers every part it reaches) has no soft edge to tell it by: it stays."""
    sums = np.zeros(count, np.float64)
    pixels = np.zeros(count, np.int64)
    for labels, image in parts:
        part_sums, part_pixels = outline_sums(labels, image, count)
        sums += part_sums
        pixels += part_pixels
    kept = [label for label in candidates.tolist() if not pixels[label] or sums[label] >= OUTLINE_STEP * pixels[label]]
    return np.asarray(kept, np.int64)
