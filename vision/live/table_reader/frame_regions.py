"""Where the calibrated table lies in the frame and in the top-down view, worked out once per
calibration (``TableReader``'s set-up): points through a seat's or the view's homography, a
face's length in frame pixels, the frame rectangle the detector looks at, and the view's masks
of what the camera does not see and of the corner markers' squares."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import cv2
import numpy as np

from vision.calibration.calibration import Calibration
from vision.calibration.table import PhysicalTileSize
from vision.calibration.zones import ZoneBox, ZoneBoxes
from vision.live.table_reader.seat_tiles import PARALLAX, zone_box_items
from vision.live.table_reader.seat_view import ViewGeometry

MARKER_SLACK_MM: Final = 2.0  # a marker's square is ignored this much wider: the calibration's error, blur


def apply_homography(homography: np.ndarray, point: np.ndarray) -> tuple[float, float]:
    x, y, w = homography @ np.array([float(point[0]), float(point[1]), 1.0])
    return float(x / w), float(y / w)


def apply_all(homography: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``apply_homography`` of N points (N×2) at once: their x and y."""
    x, y = points[:, 0], points[:, 1]
    w = homography[2, 0] * x + homography[2, 1] * y + homography[2, 2]
    return (
        (homography[0, 0] * x + homography[0, 1] * y + homography[0, 2]) / w,
        (homography[1, 0] * x + homography[1, 1] * y + homography[1, 2]) / w,
    )


def reaching_out(box: ZoneBox) -> ZoneBox:
    """A zone with its far edge pushed out by the parallax (a tile's top is seen further out)."""
    return ZoneBox(box.left, box.right, box.near, box.far * (1 + PARALLAX))


def frame_tile_height(view: ViewGeometry, seat_to_frame: Sequence[np.ndarray], tile: PhysicalTileSize) -> float:
    """A face's long edge in frame pixels, the mean over the seats halfway out from the centre."""
    lengths = []
    for seat in range(4):
        u, near = view.seat_px(np.array(0.0), np.array(200.0))
        _, far = view.seat_px(np.array(0.0), np.array(200.0 + tile.height_mm * (1 + PARALLAX / 2)))
        a = np.array(apply_homography(seat_to_frame[seat], np.array([float(u), float(near)])))
        b = np.array(apply_homography(seat_to_frame[seat], np.array([float(u), float(far)])))
        lengths.append(float(np.linalg.norm(b - a)))
    return float(np.mean(lengths))


def zones_region(
    view: ViewGeometry, seat_to_frame: Sequence[np.ndarray], boxes: ZoneBoxes, margin_px: float, size: tuple[int, int]
) -> tuple[int, int, int, int]:
    """The frame rectangle (left, top, right, bottom) around every seat's zones, their far
    edges reaching out (``reaching_out``), ``margin_px`` wider each way, clipped to the frame."""
    corners = []
    for to_frame in seat_to_frame:
        for _, zone in zone_box_items(boxes):
            box = reaching_out(zone)
            for x_mm in (box.left, box.right):
                for distance_mm in (box.near, box.far):
                    u, v = view.seat_px(np.array(x_mm), np.array(distance_mm))
                    corners.append(apply_homography(to_frame, np.array([float(u), float(v)])))
    low = np.floor(np.min(corners, axis=0) - margin_px).astype(int)
    high = np.ceil(np.max(corners, axis=0) + margin_px).astype(int)
    width, height = size
    return max(int(low[0]), 0), max(int(low[1]), 0), min(int(high[0]), width), min(int(high[1]), height)


def unseen_mask(calibration: Calibration, view: ViewGeometry) -> np.ndarray:
    """Bool view mask of what lies outside the camera's frame (and, past it, in a replicated border)."""
    width, height = calibration.image_size
    frame = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]], np.float64)
    outline = cv2.perspectiveTransform(frame.reshape(-1, 1, 2), view.frame_to_view).reshape(-1, 2)
    seen = np.zeros((view.side_px, view.side_px), np.uint8)
    cv2.fillConvexPoly(seen, np.round(outline * 4).astype(np.int32), 1, shift=2)
    return np.asarray(cv2.erode(seen, np.ones((5, 5), np.uint8)) == 0)


def marker_squares(calibration: Calibration, view: ViewGeometry, marker_mm: float, reach_mm: float) -> np.ndarray:
    """Bool view mask of the corner markers' squares, centred on the calibration rectangle's
    corners, less their part within ``reach_mm`` of the centre lines: there a corner meld's
    top (seen further out than its footprint) covers the marker, and is tile."""
    table = calibration.table
    half = marker_mm / 2 + MARKER_SLACK_MM
    squares = np.zeros((view.side_px, view.side_px), np.uint8)
    for x in (-table.width_mm / 2, table.width_mm / 2):
        for y in (-table.depth_mm / 2, table.depth_mm / 2):
            centre = np.array([x, y])
            near = np.maximum(np.abs(centre) - half, reach_mm)
            far = np.abs(centre) + half
            low = np.where(centre < 0, -far, near)
            high = np.where(centre < 0, -near, far)
            start = np.floor((low + view.half_mm) * view.px_per_mm).astype(int)
            stop = np.ceil((high + view.half_mm) * view.px_per_mm).astype(int)
            squares[max(start[1], 0) : max(stop[1], 0), max(start[0], 0) : max(stop[0], 0)] = 1
    return squares.astype(bool)
