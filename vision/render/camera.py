"""A pinhole camera over the table: the tilt, turn, height and zoom of a real overhead mount."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class Camera:
    projection: np.ndarray  # 3×4, table millimetres (x, y, height) → homogeneous image pixels
    nadir: tuple[float, float]  # the table point straight below the camera, mm
    size: tuple[int, int]  # image width, height

    def project(self, points: np.ndarray) -> np.ndarray:
        """Image pixels (N×2) of table points (N×3 in mm; the third column is the height)."""
        homogeneous = np.hstack([points, np.ones((len(points), 1))]) @ self.projection.T
        if np.any(homogeneous[:, 2] <= 0):
            raise ValueError("a point lies behind the camera")
        return np.asarray(homogeneous[:, :2] / homogeneous[:, 2:3])


def overhead_camera(
    size: tuple[int, int],
    *,
    height_mm: float,
    px_per_mm: float,
    yaw_deg: float,
    tilt_deg: tuple[float, float] = (0.0, 0.0),
    target_mm: tuple[float, float] = (0.0, 0.0),
) -> Camera:
    """A camera ``height_mm`` above ``target_mm`` looking down, turned by ``yaw_deg`` about the
    vertical and tipped by ``tilt_deg`` (about its own x and y axes); ``px_per_mm`` is the scale
    on the table at the image centre."""
    width, height = size
    focal = px_per_mm * height_mm
    intrinsics = np.array([[focal, 0.0, width / 2], [0.0, focal, height / 2], [0.0, 0.0, 1.0]])
    # Looking straight down: image x along table x, image y along table -y, depth along -height.
    down = np.array([[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]])
    rotation = _about_x(tilt_deg[0]) @ _about_y(tilt_deg[1]) @ down @ _about_z(yaw_deg)
    optical_axis = rotation[2]  # the camera's viewing direction in table coordinates
    target = np.array([target_mm[0], target_mm[1], 0.0])
    centre = target - optical_axis * height_mm / max(abs(optical_axis[2]), 1e-6)
    extrinsics = np.hstack([rotation, (-rotation @ centre)[:, None]])
    return Camera(intrinsics @ extrinsics, (float(centre[0]), float(centre[1])), size)


def random_camera(rng: np.random.Generator, size: tuple[int, int], px_per_mm: tuple[float, float]) -> Camera:
    return overhead_camera(
        size,
        height_mm=float(rng.uniform(650, 1000)),
        px_per_mm=float(rng.uniform(*px_per_mm)),
        yaw_deg=float(rng.uniform(0, 360)),
        tilt_deg=(float(rng.normal(0, 4)), float(rng.normal(0, 4))),
        target_mm=(float(rng.normal(0, 40)), float(rng.normal(0, 40))),
    )


def _about_x(degrees: float) -> np.ndarray:
    c, s = np.cos(np.deg2rad(degrees)), np.sin(np.deg2rad(degrees))
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def _about_y(degrees: float) -> np.ndarray:
    c, s = np.cos(np.deg2rad(degrees)), np.sin(np.deg2rad(degrees))
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def _about_z(degrees: float) -> np.ndarray:
    c, s = np.cos(np.deg2rad(degrees)), np.sin(np.deg2rad(degrees))
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
