"""Small geometry of tile quadrilaterals in image pixels."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def angle_of_corners(corners: np.ndarray) -> float:
    """Clockwise turn (0-360) of a face's top from the image's up; corners in face order
    (top-left, top-right, bottom-right, bottom-left)."""
    top = (corners[0] + corners[1]) / 2
    bottom = (corners[2] + corners[3]) / 2
    dx, dy = top - bottom
    # Image y grows downwards, so "up" is -y and clockwise is towards +x.
    return float(np.degrees(np.arctan2(dx, -dy)) % 360.0)


def mapped_points(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    """``points`` (N×2, picture coordinates with pixel edges at whole numbers) where the 3×3
    homography ``matrix`` puts them. The matrix maps pixel centres, as OpenCV's warps take it
    (``warpPerspective``; an affine warp's 2×3 matrix with ``[0, 0, 1]`` below it): a corner
    at x lies at pixel coordinate x - 0.5."""
    shifted = np.asarray(points, np.float64).reshape(-1, 2) - 0.5
    moved = shifted @ np.asarray(matrix, np.float64)[:, :2].T + np.asarray(matrix, np.float64)[:, 2]
    return np.asarray(moved[:, :2] / moved[:, 2:3] + 0.5, np.float64)


def points_box(points: np.ndarray) -> tuple[float, float, float, float]:
    """[x0, y0, x1, y1] enclosing ``points`` (N×2), not rounded."""
    points = np.asarray(points, np.float64).reshape(-1, 2)
    return (float(points[:, 0].min()), float(points[:, 1].min()), float(points[:, 0].max()), float(points[:, 1].max()))


def mapped_box(matrix: np.ndarray, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """The box enclosing where ``matrix`` (as :func:`mapped_points`) puts box ``box``'s corners."""
    x0, y0, x1, y1 = box
    return points_box(mapped_points(matrix, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)))


def reflected_copy(across: int, down: int, width: float, height: float) -> np.ndarray:
    """The 3×3 map (as :func:`mapped_points` takes it) of a ``width`` × ``height`` picture onto
    its copy ``across`` and ``down`` copies over, in the picture continued by its mirror images
    as ``cv2.BORDER_REFLECT`` continues it: copy k lies k widths over, mirrored where k is odd."""

    def axis(copies: int, size: float) -> tuple[float, float]:
        # Pixel centres: a mirrored copy puts centre c at (k + 1)·size - 1 - c.
        return (-1.0, (copies + 1) * size - 1.0) if copies % 2 else (1.0, copies * size)

    sx, tx = axis(across, width)
    sy, ty = axis(down, height)
    return np.array([[sx, 0.0, tx], [0.0, sy, ty], [0.0, 0.0, 1.0]])


def centre(corners: np.ndarray) -> np.ndarray:
    """A quad's centre: the mean of its four corners, as ``corners.mean(axis=0)`` sums them (in
    order, in the corners' own type), without its overhead: a table reader takes a thousand a frame."""
    return np.asarray((corners[0] + corners[1] + corners[2] + corners[3]) / 4)


def centres(quads: Sequence[np.ndarray]) -> np.ndarray:
    """Each quad's ``centre``, N×2, as ``np.array([centre(q) for q in quads])`` makes them (each
    in its own corners' type, then as one array): all at once when the quads share a type."""
    if not quads:
        return np.zeros((0, 2))
    kinds = {quad.dtype for quad in quads}
    if len(kinds) != 1 or any(quad.shape != (4, 2) for quad in quads):
        return np.array([centre(quad) for quad in quads])
    stacked = np.stack(quads)
    return np.asarray((stacked[:, 0] + stacked[:, 1] + stacked[:, 2] + stacked[:, 3]) / 4)


def length(vector: np.ndarray) -> np.floating:
    """A 1-D vector's length as ``np.linalg.norm`` computes it (its own float type, the square
    root of its dot with itself), without that function's overhead."""
    if not issubclass(vector.dtype.type, np.inexact):
        vector = vector.astype(float)
    return np.sqrt(vector.dot(vector))  # type: ignore[no-any-return]


def rectangle_corners(centre: np.ndarray, along: np.ndarray, half_length: float, half_width: float) -> np.ndarray:
    """The four corners (4×2) of a rectangle about ``centre`` whose length lies along the unit
    vector ``along`` and whose width along ``along`` turned a quarter (``[-along[1], along[0]]``),
    in the order back-left, front-left, front-right, back-right of those two axes (in any plane:
    the table's millimetres or an image's pixels)."""
    across = np.array([-along[1], along[0]])
    signs = ((-1, -1), (1, -1), (1, 1), (-1, 1))
    return np.array([centre + sl * half_length * along + sw * half_width * across for sl, sw in signs])


def bounding_box(corners: np.ndarray) -> tuple[int, int, int, int]:
    """[x0, y0, x1, y1] enclosing the corners, in whole pixels."""
    x0, y0 = np.floor(corners.min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
    return int(x0), int(y0), int(x1), int(y1)


def long_edge(corners: np.ndarray) -> float:
    """A quad's longer edge: the longer of its first corner's two edges (a face's long edge
    whichever way its corners run)."""
    corners = np.asarray(corners, np.float64)
    return float(max(length(corners[1] - corners[0]), length(corners[3] - corners[0])))


def angle_difference(a: float, b: float) -> float:
    """The smaller turn between two angles in degrees (0-180)."""
    return float(abs((a - b + 180.0) % 360.0 - 180.0))


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quadrilaterals."""
    import cv2  # noqa: PLC0415 - keeps this helper module free of cv2 for callers that only need angles

    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    union = cv2.contourArea(a.astype(np.float32)) + cv2.contourArea(b.astype(np.float32)) - area
    return float(area / union) if union > 0 else 0.0
