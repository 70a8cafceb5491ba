"""A photo of the enrollment sheet with one tile of every label in its cell, drawn by the
renderer: what ``jantaku vision enroll`` reads, with the tiles' true corners."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.enrollment.sheet import GRID_LABELS, SHEET_MM, cell_box_mm, draw_enrollment_sheet
from vision.render.camera import Camera, overhead_camera

# The renderer's own drawing steps: the grid is a table whose felt carries a printed sheet.
from vision.render.drawing import draw_shadows, draw_tile, felt_image
from vision.render.effects import camera_effects
from vision.render.placement import PlacedTile
from vision.render.renderer import TileTruth
from vision.render.tile_art import BACK_HUES, ArtStyle, load_tile_art

_SHEET_PX_PER_MM = 4.0
_CELL_HUE = 50  # OpenCV hue of the sheet's green: backs of a near hue would not stand out


@dataclass(frozen=True, eq=False)
class RenderedGrid:
    image: np.ndarray  # uint8 BGR
    truths: tuple[TileTruth, ...]  # the tiles in cell order, empty cells left out


def render_enrollment_grid(
    style: ArtStyle, seed: int, size: tuple[int, int] = (1920, 1080), effects: bool = True
) -> RenderedGrid:
    """The sheet centred on the table under a camera at a random turn and height, each tile
    placed by hand (a few millimetres off its cell's centre, a few degrees turned)."""
    rng = np.random.default_rng(seed)
    art = load_tile_art(style)
    camera = overhead_camera(
        size,
        height_mm=float(rng.uniform(650, 1000)),
        px_per_mm=float(rng.uniform(1.5, 1.9)),
        yaw_deg=float(rng.uniform(-30, 30) + rng.choice([0, 180])),
        tilt_deg=(float(rng.normal(0, 3)), float(rng.normal(0, 3))),
        target_mm=(float(rng.normal(0, 10)), float(rng.normal(0, 10))),
    )
    image = felt_image(size, float(rng.uniform(95, 115)), rng)
    _draw_sheet(image, camera)
    placed = []
    for index, label in enumerate(GRID_LABELS):
        if label is None:
            continue
        x0, y0, x1, y1 = cell_box_mm(index)
        x, y = (x0 + x1) / 2 + rng.uniform(-4, 4), (y0 + y1) / 2 + rng.uniform(-4, 4)
        placed.append(PlacedTile(label, x - SHEET_MM[0] / 2, SHEET_MM[1] / 2 - y, float(rng.normal(0, 3)), False))
    draw_shadows(image, tuple(placed), camera, rng)
    back_hue = int(rng.choice([hue for hue in BACK_HUES if abs(hue - _CELL_HUE) > 25]))
    felt = image.copy()
    truths = [TileTruth(tile.label, draw_tile(image, tile, camera, art, back_hue), False) for tile in placed]
    gloss = 0.08 + 0.92 * (np.abs(image - felt).max(axis=2) > 1.0)
    frame = camera_effects(image, rng, gloss.astype(np.float32)) if effects else np.clip(image, 0, 255).astype(np.uint8)
    return RenderedGrid(frame, tuple(truths))


def _draw_sheet(image: np.ndarray, camera: Camera) -> None:
    sheet = draw_enrollment_sheet(_SHEET_PX_PER_MM).astype(np.float32)
    height, width = sheet.shape[:2]
    sheet_px = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    table_mm = sheet_px / _SHEET_PX_PER_MM * [1, -1] + [-SHEET_MM[0] / 2, SHEET_MM[1] / 2]
    image_px = camera.project(np.hstack([table_mm, np.zeros((4, 1))])).astype(np.float32)
    homography = cv2.getPerspectiveTransform(sheet_px, image_px)
    size = (image.shape[1], image.shape[0])
    warped = cv2.warpPerspective(sheet, homography, size, flags=cv2.INTER_AREA)
    cover = cv2.warpPerspective(np.ones((height, width), np.float32), homography, size, flags=cv2.INTER_LINEAR)
    # Paper is matte and a little darker than the lamp's full white.
    image[:] = warped * 0.85 * cover[..., None] + image * (1.0 - cover[..., None])
