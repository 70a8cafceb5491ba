"""Drawing a table's pieces through a camera: the felt, and a tile as a little prism (two
layers of side, then the art on its top face). Shared by ``render_table`` (a fresh table per
seed) and ``TableCamera`` (the demo's fixed camera, which draws each tile once into a sprite).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.classify.labels import BACK_LABEL
from vision.render.camera import Camera
from vision.render.placement import TILE_THICKNESS_MM, PlacedTile, tile_corners_mm
from vision.render.tile_art import TileArt


def felt_image(size: tuple[int, int], hue: float, rng: np.random.Generator) -> np.ndarray:
    width, height = size
    hsv = np.array([[[hue, rng.uniform(90, 220), rng.uniform(70, 150)]]], np.uint8)
    colour = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
    coarse = cv2.resize(rng.normal(0, 6, (height // 64 + 2, width // 64 + 2)).astype(np.float32), (width, height))
    fine = rng.normal(0, 3, (height, width)).astype(np.float32)
    return np.asarray(colour[None, None, :] + (coarse + fine)[..., None])


def project_prism(tile: PlacedTile, camera: Camera) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    corners = tile_corners_mm(tile)
    base = camera.project(np.hstack([corners, np.zeros((4, 1))]))
    middle = camera.project(np.hstack([corners, np.full((4, 1), TILE_THICKNESS_MM * 0.45)]))
    top = camera.project(np.hstack([corners, np.full((4, 1), TILE_THICKNESS_MM)]))
    return base, middle, top


def draw_tile(image: np.ndarray, tile: PlacedTile, camera: Camera, art: TileArt, back_hue: int) -> np.ndarray:
    base, middle, top = project_prism(tile, camera)
    face = art.image(tile.label, back_hue)
    back = art.image(BACK_LABEL, back_hue)
    body = art.image(27 + 4)  # the white dragon is the bare body of this style
    # A tile is two layers: the back's colour below, the body's above; the face-down tile is upside down.
    lower, upper = (back, body) if tile.label != BACK_LABEL else (body, back)
    fill_polygon(image, np.vstack([base, middle]), _side_colour(lower))
    fill_polygon(image, np.vstack([middle, top]), _side_colour(upper))
    warp_onto(image, face, top)
    return top


def _centre_mean(tile_image: np.ndarray) -> np.ndarray:
    centre = tile_image[tile_image.shape[0] // 2 - 5 : tile_image.shape[0] // 2 + 5, 5:15, :3]
    return np.asarray(centre.reshape(-1, 3).mean(axis=0))


def body_colour(tile_image: np.ndarray) -> np.ndarray:
    """The colour of a tile image's body (BGR float32), read beside its face: what its sides and
    top are painted with (the seat view shades it itself)."""
    return np.asarray(_centre_mean(tile_image), np.float32)


def _side_colour(tile_image: np.ndarray) -> np.ndarray:
    return np.asarray(_centre_mean(tile_image) * 0.78, np.float32)


def fill_polygon(image: np.ndarray, points: np.ndarray, colour: np.ndarray) -> None:
    """The convex hull of ``points`` filled with ``colour`` (clipped to 0-255), antialiased."""
    hull = cv2.convexHull(np.round(points * 4).astype(np.int32))
    cv2.fillConvexPoly(image, hull, np.clip(colour, 0, 255).tolist(), lineType=cv2.LINE_AA, shift=2)


def warp_onto(image: np.ndarray, face: np.ndarray, corners: np.ndarray, covered: np.ndarray | None = None) -> None:
    """A BGRA image (art at ``ART_SIZE``, or any texture; uint8 or float) warped onto
    ``corners``, blended by its alpha; ``covered`` (the image's height × width, float), when
    given, keeps on each pixel the most alpha any warp put there."""
    height, width = image.shape[:2]
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if x1 <= x0 or y1 <= y0:
        return
    face_h, face_w = face.shape[:2]
    source = np.array([[0, 0], [face_w, 0], [face_w, face_h], [0, face_h]], np.float32)
    homography = cv2.getPerspectiveTransform(source, (corners - [x0, y0]).astype(np.float32))
    warped = cv2.warpPerspective(face, homography, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA).astype(np.float32)
    alpha = warped[..., 3:4] / 255.0
    region = image[y0:y1, x0:x1]
    region[:] = warped[..., :3] * alpha + region * (1.0 - alpha)
    if covered is not None:
        covered[y0:y1, x0:x1] = np.maximum(covered[y0:y1, x0:x1], alpha[..., 0])


def draw_shadows(image: np.ndarray, placed: tuple[PlacedTile, ...], camera: Camera, rng: np.random.Generator) -> None:
    """Darken the felt under every tile's prism, softly, as one lamp above casts them."""
    mask = np.zeros(image.shape[:2], np.float32)
    offset = rng.normal(0, 4, size=2)
    for tile in placed:
        base, _, top = project_prism(tile, camera)
        hull = cv2.convexHull(np.vstack([base, top + offset]).astype(np.int32))
        cv2.fillConvexPoly(mask, hull, 1.0)
    mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), sigmaX=float(rng.uniform(2, 6))))
    image *= 1.0 - float(rng.uniform(0.3, 0.6)) * mask[..., None]
