"""Cutting a tile out of an image into the classifier's upright input, from its four corners."""

from __future__ import annotations

from typing import Final

import cv2
import numpy as np

#: The classifier's input (width, height): a tile's 3:4 face.
CROP_SIZE: Final = (32, 42)


def crop_tile(image: np.ndarray, corners: np.ndarray, size: tuple[int, int] = CROP_SIZE) -> np.ndarray:
    """The face inside ``corners`` (4×2, face order: top-left, top-right, bottom-right,
    bottom-left) warped to an upright ``size`` BGR image."""
    if corners.shape != (4, 2):
        raise ValueError(f"a tile needs 4 corners as a 4×2 array, got shape {corners.shape}")
    width, height = size
    target = _CROP_CORNERS if size == CROP_SIZE else _corners_of(width, height)
    transform = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    warped = cv2.warpPerspective(
        image, transform, (width, height), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )
    return np.asarray(warped)


def _corners_of(width: int, height: int) -> np.ndarray:
    return np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)


#: The classifier's crop's corners, made once: a table reader cuts hundreds of crops a frame.
_CROP_CORNERS: Final = _corners_of(*CROP_SIZE)


def turned_half(corners: np.ndarray) -> np.ndarray:
    """The same quad read upside down: the bottom edge becomes the top."""
    return np.roll(corners, 2, axis=0)


def quarter_turned(corners: np.ndarray) -> np.ndarray:
    """The same face size turned a quarter clockwise about the quad's centre, in portrait
    order (so its long edges lie where the given quad's short ones point)."""
    if corners.shape != (4, 2):
        raise ValueError(f"a tile's quad must be a 4×2 array, got shape {corners.shape}")
    centre = corners.mean(axis=0)
    offsets = corners - centre
    # Image y grows downwards: (x, y) → (-y, x) turns a quarter clockwise on screen.
    return np.asarray(np.stack([-offsets[:, 1], offsets[:, 0]], axis=1) + centre, np.float32)


def turned_about_centre(corners: np.ndarray, degrees: float) -> np.ndarray:
    """The quad turned ``degrees`` clockwise on screen about its centre, corners in the same
    order (the same face, askew)."""
    if corners.shape != (4, 2):
        raise ValueError(f"a tile's quad must be a 4×2 array, got shape {corners.shape}")
    centre = corners.mean(axis=0)
    turn = np.radians(degrees)
    cos, sin = np.cos(turn), np.sin(turn)
    # Image y grows downwards, so this matrix turns clockwise on screen.
    rotation = np.array([[cos, -sin], [sin, cos]])
    return np.asarray((corners - centre) @ rotation.T + centre, np.float32)


def shifted_quads(corners: np.ndarray, fraction: float) -> list[np.ndarray]:
    """The quad moved ``fraction`` of its width left and right, and of its height up and down."""
    across = corners[1] - corners[0]
    down = corners[3] - corners[0]
    return [np.asarray(corners + sign * fraction * step) for step in (across, down) for sign in (-1.0, 1.0)]
