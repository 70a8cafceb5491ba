"""Splitting a blob made of rows at different angles (walls meeting at a corner, ponds
touching corner to corner) into parts that each have one direction.

Such a blob fills its minimum-area rectangle poorly. Eroding it a little parts the rows where
they only touch; every pixel of the blob then goes to the nearest eroded part (a watershed),
so no tile is cut short.
"""

from __future__ import annotations

from typing import Final

import cv2
import numpy as np

from vision.find.seams import TileSize

_WELL_FILLED: Final = 0.72  # a blob filling its rectangle at least this well has one direction
_EROSIONS: Final = (0.15, 0.3, 0.45)  # kernel sizes tried, in tile widths


def split_directions(image: np.ndarray, contour: np.ndarray, size: TileSize) -> list[np.ndarray]:
    """The blob's parts as contours (the blob itself when it has one direction)."""
    (_, _), (rw, rh), _ = cv2.minAreaRect(contour)
    if cv2.contourArea(contour) >= _WELL_FILLED * rw * rh:
        return [contour]
    x, y, w, h = cv2.boundingRect(contour)
    x0, y0 = max(x - 2, 0), max(y - 2, 0)
    x1, y1 = min(x + w + 2, image.shape[1]), min(y + h + 2, image.shape[0])
    origin = np.array([x0, y0], np.int32)
    blob = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(blob, [contour - origin], -1, 255, thickness=cv2.FILLED)
    patch = np.ascontiguousarray(image[y0:y1, x0:x1])
    minimum = 0.3 * size.width * size.height
    for fraction in _EROSIONS:
        radius = max(1, int(fraction * size.width))
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.erode(blob, kernel))
        big = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= minimum * 0.3]
        if len(big) < 2:
            continue
        markers = np.zeros(blob.shape, np.int32)
        for number, label in enumerate(big, start=1):
            markers[labels == label] = number
        markers[blob == 0] = len(big) + 1  # the felt around is its own basin
        cv2.watershed(patch, markers)
        parts = []
        for number in range(1, len(big) + 1):
            part = ((markers == number) & (blob > 0)).astype(np.uint8) * 255
            found, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            parts += [c + origin for c in found if cv2.contourArea(c) >= minimum]
        if len(parts) >= 2:
            return parts
    return [contour]
