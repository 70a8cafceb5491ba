"""A photo with what ``vision detect`` found drawn on it (``--draw``): each tile's outline, its
top edge thicker (which way the face reads), and its name; uncertain readings in amber,
sideways tiles in blue. What a user checks first at a new table, before any figure."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from vision.detect.still_photo import Detection

_SURE: Final = (60, 200, 60)
_UNSURE: Final = (0, 170, 255)
_SIDEWAYS: Final = (255, 140, 40)


class OverlayWriteError(ValueError):
    """The drawing could not be written where asked."""


def draw_detections(image: np.ndarray, detections: Sequence[Detection]) -> np.ndarray:
    """A copy of ``image`` (BGR) with every detection drawn on it."""
    out = image.copy()
    thickness = max(1, round(max(image.shape[:2]) / 700))
    scale = max(0.4, max(image.shape[:2]) / 2000)
    for detection in detections:
        colour = _UNSURE if detection.uncertain else _SIDEWAYS if detection.sideways else _SURE
        quad = np.round(detection.corners).astype(np.int32)
        cv2.polylines(out, [quad], isClosed=True, color=colour, thickness=thickness, lineType=cv2.LINE_AA)
        cv2.line(out, tuple(quad[0]), tuple(quad[1]), colour, thickness * 3, cv2.LINE_AA)
        name = ("r" if detection.reading.red else "") + detection.reading.name
        x0, y0, _, _ = detection.box
        origin = (int(x0), max(int(y0) - 3, 10))
        cv2.putText(out, name, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thickness + 2, cv2.LINE_AA)
        cv2.putText(out, name, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness, cv2.LINE_AA)
    return out


def write_overlay(path: Path, image: np.ndarray, detections: Sequence[Detection]) -> None:
    """Draw and write to ``path`` (its suffix picks the format: .png, .jpg, ...)."""
    if path.is_dir():
        raise OverlayWriteError(f"--draw {path}: is a folder, not a file name")
    if not path.parent.is_dir():
        raise OverlayWriteError(f"--draw {path}: folder {path.parent} does not exist")
    try:
        written = cv2.imwrite(str(path), draw_detections(image, detections))
    except cv2.error as error:  # an unknown suffix
        raise OverlayWriteError(
            f"--draw {path}: cannot write this kind of picture ({path.suffix or 'no suffix'})"
        ) from error
    if not written:
        raise OverlayWriteError(f"--draw {path}: could not be written")
