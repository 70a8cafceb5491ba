"""Render a table: felt, tiles as little prisms (side, then art on the top face), camera effects.

Deterministic from a seed: the same seed and options give the same pixels and ground truth.
Ground truth lists every tile whose top face lies wholly inside the frame, with its corners in
face order (top-left, top-right, bottom-right, bottom-left as the face reads).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from table_app.domain.tile import Tile
from vision.classify.labels import BACK_LABEL, tile_of_label
from vision.geometry import angle_of_corners
from vision.render.camera import Camera, random_camera
from vision.render.drawing import draw_shadows, draw_tile, felt_image
from vision.render.effects import camera_effects
from vision.render.enrolled_faces import EnrolledFaces
from vision.render.face_style import Art, tile_art_of
from vision.render.layout import TableLayout, random_layout
from vision.render.placement import place_tiles
from vision.render.riichi_sticks import STICKS_STREAM, draw_riichi_sticks
from vision.render.tile_art import BACK_HUES, ArtStyle
from vision.render.tile_palette import Palette

log = logging.getLogger(__name__)

_EDGE_MARGIN_PX = 3.0  # a tile this close to the border is not counted as fully visible


@dataclass(frozen=True, slots=True)
class Occluder:
    """Something over the table that is neither felt nor tile (a player's hand or arm): a
    skin-coloured polygon ``height_mm`` above the table, its outline soft."""

    polygon_mm: tuple[tuple[float, float], ...]  # table millimetres
    height_mm: float = 60.0
    colour_bgr: tuple[int, int, int] = (125, 160, 215)


@dataclass(frozen=True, slots=True)
class RenderOptions:
    size: tuple[int, int] = (1920, 1080)
    style: ArtStyle = ArtStyle.REGULAR
    px_per_mm: tuple[float, float] = (1.3, 2.6)
    effects: bool = True
    camera: Camera | None = None  # a fixed camera; None draws one at random from the seed
    occluder: Occluder | None = None
    palette: Palette | None = None  # the regular art recoloured (training); ``style`` is then unused
    faces: EnrolledFaces | None = None  # a tile set's own faces; ``style`` and ``palette`` are then unused
    strokes: float = 0.0  # art pixels added to each side of every ink stroke (negative: taken off)
    riichi_sticks: bool = False  # a 1 000-point stick before each riichi seat's pond (vision.render.riichi_sticks)

    @property
    def art(self) -> Art:
        """What the faces are drawn from: the enrolled faces, else the palette, else the style."""
        if self.faces is not None:
            return self.faces
        return self.palette if self.palette is not None else self.style


def with_art(options: RenderOptions, art: Art, strokes: float = 0.0) -> RenderOptions:
    """``options`` drawing ``art`` (an art style, the regular art in a palette, or enrolled
    faces) with its strokes ``strokes`` art pixels thicker (negative: thinner)."""
    if isinstance(art, EnrolledFaces):
        return replace(options, style=ArtStyle.REGULAR, palette=None, faces=art, strokes=strokes)
    if isinstance(art, Palette):
        return replace(options, style=ArtStyle.REGULAR, palette=art, faces=None, strokes=strokes)
    return replace(options, style=art, palette=None, faces=None, strokes=strokes)


@dataclass(frozen=True, eq=False)
class TileTruth:
    label: int
    corners: np.ndarray  # 4×2 image pixels, face order
    sideways: bool

    @property
    def tile(self) -> Tile:
        return tile_of_label(self.label)

    @property
    def face_up(self) -> bool:
        return self.label != BACK_LABEL

    @property
    def angle(self) -> float:
        """Clockwise turn of the tile's top from the image's up, 0-360."""
        return angle_of_corners(self.corners)

    @property
    def centre(self) -> np.ndarray:
        return np.asarray(self.corners.mean(axis=0))


@dataclass(frozen=True, eq=False)
class RenderedTable:
    image: np.ndarray  # uint8 BGR
    truths: tuple[TileTruth, ...]
    layout: TableLayout
    tile_height_px: float = field(default=0.0)  # median length of a tile's long edge in the image


def render_table(
    seed: int, options: RenderOptions = RenderOptions(), layout: TableLayout | None = None
) -> RenderedTable:
    rng = np.random.default_rng(seed)
    table = layout if layout is not None else random_layout(rng)
    art = tile_art_of(options.art, options.strokes)
    camera = random_camera(rng, options.size, options.px_per_mm)
    if options.camera is not None:
        # Drawn all the same, so that a fixed camera leaves the rest of the seed's table as it was.
        camera = options.camera
    felt_hue = float(rng.choice([rng.uniform(35, 50), rng.uniform(50, 75), rng.uniform(95, 115)]))
    # Tables pair felt and backs that contrast: no blue backs on blue felt.
    back_hue = int(rng.choice([hue for hue in BACK_HUES if abs(hue - felt_hue) > 25]))
    placed = place_tiles(table, rng)
    if not art.red_fives:  # a set without red fives shows its plain five there
        placed = tuple(replace(tile, label=art.drawn_label(tile.label)) for tile in placed)
    image = felt_image(options.size, felt_hue, rng)
    draw_shadows(image, placed, camera, rng)
    felt = image.copy()
    if options.riichi_sticks:
        # Drawn from a stream of their own, so that the rest of the seed's table is the same.
        draw_riichi_sticks(image, camera, table, np.random.default_rng([seed, STICKS_STREAM]))
    truths = []
    # Outermost first: a tile nearer the point below the camera hides the inner side of the next.
    nadir = np.array(camera.nadir)
    for tile in sorted(placed, key=lambda t: -float(np.hypot(t.x - nadir[0], t.y - nadir[1]))):
        corners = draw_tile(image, tile, camera, art, back_hue)
        if wholly_inside(corners, options.size):
            truths.append(TileTruth(tile.label, corners, tile.sideways))
    if options.occluder is not None:
        _draw_occluder(image, options.occluder, camera)
    gloss = 0.08 + 0.92 * (np.abs(image - felt).max(axis=2) > 1.0)  # tiles shine, felt is matte
    if options.effects:
        frame = camera_effects(image, rng, gloss.astype(np.float32))
    else:
        frame = np.clip(image, 0, 255).astype(np.uint8)
    heights = [float(np.linalg.norm(t.corners[0] - t.corners[3])) for t in truths]
    log.debug("rendered table seed=%d with %d visible tiles", seed, len(truths))
    return RenderedTable(frame, tuple(truths), table, float(np.median(heights)) if heights else 0.0)


def _draw_occluder(image: np.ndarray, occluder: Occluder, camera: Camera) -> None:
    outline = np.asarray(occluder.polygon_mm, np.float64)
    points = camera.project(np.hstack([outline, np.full((len(outline), 1), occluder.height_mm)]))
    mask = np.zeros(image.shape[:2], np.float32)
    cv2.fillPoly(mask, [np.round(points).astype(np.int32)], 1.0)
    mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), sigmaX=4.0))
    # Skin is not flat: a soft shading across it, brighter towards the lamp.
    shading = 0.85 + 0.3 * cv2.GaussianBlur(mask, (0, 0), sigmaX=25.0)
    colour = np.array(occluder.colour_bgr, np.float32)[None, None, :] * shading[..., None]
    image[:] = colour * mask[..., None] + image * (1.0 - mask[..., None])


def wholly_inside(corners: np.ndarray, size: tuple[int, int]) -> bool:
    """Whether a face lies wholly in a frame of ``size``, a few pixels clear of its border (the
    ground truth lists only such faces)."""
    width, height = size
    return bool(
        np.all(corners >= _EDGE_MARGIN_PX)
        and np.all(corners[:, 0] <= width - _EDGE_MARGIN_PX)
        and np.all(corners[:, 1] <= height - _EDGE_MARGIN_PX)
    )
