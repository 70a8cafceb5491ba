"""A phone photo of a tile set laid out in the enrollment rows (:mod:`vision.enrollment.rows`),
drawn by the renderer: what ``jantaku vision enroll --layout rows`` reads, with true corners."""

from __future__ import annotations

import numpy as np

from vision.enrollment.rows import ROW_LABELS
from vision.render.camera import overhead_camera
from vision.render.drawing import draw_shadows, draw_tile, felt_image
from vision.render.effects import camera_effects
from vision.render.enrollment_grid import RenderedGrid
from vision.render.face_style import Art, tile_art_of
from vision.render.placement import TILE_HEIGHT_MM, TILE_WIDTH_MM, PlacedTile
from vision.render.renderer import TileTruth
from vision.render.tile_art import BACK_HUES


def render_row_layout(
    style: Art, seed: int, size: tuple[int, int] = (1600, 1200), *, red_fives: bool = True
) -> RenderedGrid:
    """The rows on felt, photographed from above by hand: a little turned and tipped, each
    tile placed a few millimetres and degrees off."""
    rng = np.random.default_rng(seed)
    art = tile_art_of(style)
    rows = ROW_LABELS if red_fives else ROW_LABELS[:4]
    pitch_x, pitch_y = TILE_WIDTH_MM + rng.uniform(5, 12), TILE_HEIGHT_MM + rng.uniform(10, 25)
    camera = overhead_camera(
        size,
        height_mm=float(rng.uniform(450, 650)),
        # the rows fill 55-80 % of the picture's width or height
        px_per_mm=float(rng.uniform(0.55, 0.8)) * min(size[0] / (9 * pitch_x), size[1] / (len(rows) * pitch_y)),
        yaw_deg=float(rng.normal(0, 4)),
        tilt_deg=(float(rng.normal(0, 6)), float(rng.normal(0, 4))),
    )
    image = felt_image(size, float(rng.choice([rng.uniform(35, 50), rng.uniform(95, 115)])), rng)
    placed = [
        PlacedTile(
            label,
            (column - 4) * pitch_x + float(rng.normal(0, 1.5)),
            ((len(rows) - 1) / 2 - row) * pitch_y + float(rng.normal(0, 1.5)),
            float(rng.normal(0, 3)),
            sideways=False,
        )
        for row, labels in enumerate(rows)
        for column, label in enumerate(labels)
    ]
    draw_shadows(image, tuple(placed), camera, rng)
    felt = image.copy()
    back_hue = int(rng.choice(BACK_HUES))
    truths = [TileTruth(tile.label, draw_tile(image, tile, camera, art, back_hue), False) for tile in placed]
    gloss = (0.08 + 0.92 * (np.abs(image - felt).max(axis=2) > 1.0)).astype(np.float32)
    return RenderedGrid(camera_effects(image, rng, gloss), tuple(truths))
