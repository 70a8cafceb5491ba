"""``TableCamera``: one fixed camera over one table, fast enough to film a whole game.

``render_table`` draws a fresh table, camera and lighting per seed (hundreds of ms a frame);
the demo films a thousand acts of one game through one camera, so here everything that does
not change is drawn once: the felt with its light fall-off and the four ArUco corner markers
(``vision.calibration.markers``: the demo calibrates from them like a real table), and each
tile as a sprite (its shadow, its sides and its face, drawn by ``vision.render.drawing``).
A tile's place comes from a seed of its own group (hand, seat, pond / hand / n-th meld /
wall), so a tile stays exactly where it lies while others are added. A table is composed
from the sprites once per layout; each frame then only adds sensor noise and a flicker of
light, different per frame and fixed by the frame's index.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibration.markers import TABLE_MARKER_MM, draw_marker
from vision.calibration.table import STANDARD_TABLE, TableCorner, TableGeometry
from vision.classify.labels import BACK_LABEL
from vision.render.camera import Camera, overhead_camera
from vision.render.drawing import draw_tile, project_prism
from vision.render.layout import TableLayout
from vision.render.placement import PlacedTile, place_tiles
from vision.render.riichi_sticks import STICKS_STREAM, draw_riichi_sticks
from vision.render.tile_art import ArtStyle, TileArt, load_tile_art

_NOISE_SLACK_PX = 64  # each frame takes the noise field at its own offset: noise differs frame to frame
_SHADOW_MARGIN_PX = 10
_MARKER_CORNERS = ((-1, 1), (1, 1), (1, -1), (-1, -1))  # a marker's corners as its image reads, table axes
_SPRITE_CACHE_LIMIT = 600  # about three hands of tiles (~40 kB each): older hands' sprites go beyond this


@dataclass(frozen=True, slots=True)
class TableCameraOptions:
    size: tuple[int, int] = (1920, 1080)
    # The whole table and its corner markers must fit the frame's 1080 rows: 1.35 px/mm
    # makes a tile's long edge about 37 px, within the classifier's training scales.
    px_per_mm: float = 1.35
    height_mm: float = 900.0
    tilt_deg: tuple[float, float] = (2.5, -1.5)  # a mount is never quite level
    yaw_deg: float = 0.0  # seat 0 at the bottom of the image
    marker_mm: float = TABLE_MARKER_MM  # printed marker with its white border, centred on the table's corner
    felt_hue: float = 60.0
    back_hue: int = 10
    style: ArtStyle = ArtStyle.REGULAR
    noise_sigma: float = 3.0
    seed: int = 0  # felt texture, tile wobble and noise
    riichi_sticks: bool = True  # a riichi's 1 000-point stick before its pond (vision.render.riichi_sticks)


@dataclass(frozen=True, eq=False)
class _Sprite:
    x0: int
    y0: int
    colour: np.ndarray  # float32 h×w×3, already multiplied by alpha
    keep: np.ndarray  # float32 h×w×1: 1 - alpha
    shadow_x0: int
    shadow_y0: int
    shadow: np.ndarray  # float32 h×w×1: the light left under the tile's shadow
    order: float  # painter's order: farther from the point below the camera first


class TableCamera:
    def __init__(
        self, options: TableCameraOptions = TableCameraOptions(), table: TableGeometry = STANDARD_TABLE
    ) -> None:
        self.options = options
        self.camera: Camera = overhead_camera(
            options.size,
            height_mm=options.height_mm,
            px_per_mm=options.px_per_mm,
            yaw_deg=options.yaw_deg,
            tilt_deg=options.tilt_deg,
        )
        self._art: TileArt = load_tile_art(options.style)
        rng = np.random.default_rng([options.seed, 1])
        self.background = self._draw_background(table, rng)
        self._plus, self._minus = self._noise_pair(np.random.default_rng([options.seed, 2]))
        self._sprites: dict[tuple[int, float, float, float, bool], _Sprite] = {}
        self._composed_key: tuple[TableLayout, int] | None = None
        self._composed = self.background

    def frame(self, layout: TableLayout, hand: int, index: int) -> np.ndarray:
        """The image (uint8 BGR) of ``layout`` during ``hand``, as frame ``index`` shows it."""
        table = self.table_image(layout, hand)
        rng = np.random.default_rng([self.options.seed, 3, index])
        width, height = self.options.size
        dx, dy = (int(v) for v in rng.integers(0, _NOISE_SLACK_PX, 2))
        plus = self._plus[dy : dy + height, dx : dx + width]
        minus = self._minus[dy : dy + height, dx : dx + width]
        noisy = cv2.subtract(cv2.add(table, plus), minus)
        gain, bias = float(rng.uniform(0.97, 1.03)), float(rng.uniform(-3.0, 3.0))
        return np.asarray(cv2.convertScaleAbs(noisy, alpha=gain, beta=bias))

    def table_image(self, layout: TableLayout, hand: int) -> np.ndarray:
        """The noiseless table (uint8 BGR, shared: do not draw on it), composed once per layout."""
        key = (layout, hand)
        if key != self._composed_key:
            self._composed = self._compose(layout, hand)
            self._composed_key = key
        return self._composed

    def placed(self, layout: TableLayout, hand: int) -> tuple[PlacedTile, ...]:
        """Where each tile lies: seeded per group, so a tile keeps its place while the hand lasts."""
        seed = self.options.seed

        def group_random(seat: int, group: str) -> np.random.Generator:
            return np.random.default_rng([seed, hand, seat, zlib.crc32(group.encode())])

        return place_tiles(layout, np.random.default_rng(0), group_random)

    def _compose(self, layout: TableLayout, hand: int) -> np.ndarray:
        sprites = [self._sprite(tile) for tile in self.placed(layout, hand)]
        image = self.background.copy()
        for sprite in sprites:
            h, w = sprite.shadow.shape[:2]
            region = image[sprite.shadow_y0 : sprite.shadow_y0 + h, sprite.shadow_x0 : sprite.shadow_x0 + w]
            region[:] = region * sprite.shadow[: region.shape[0], : region.shape[1]]
        if self.options.riichi_sticks:
            # One stream a hand: each seat's stick stays where it was put while the hand lasts.
            sticks_random = np.random.default_rng([self.options.seed, hand, STICKS_STREAM])
            draw_riichi_sticks(image, self.camera, layout, sticks_random)
        for sprite in sorted(sprites, key=lambda s: s.order):
            h, w = sprite.keep.shape[:2]
            region = image[sprite.y0 : sprite.y0 + h, sprite.x0 : sprite.x0 + w]
            rh, rw = region.shape[:2]
            region[:] = sprite.colour[:rh, :rw] + region * sprite.keep[:rh, :rw]
        if len(self._sprites) > _SPRITE_CACHE_LIMIT:
            self._sprites.clear()
        return image

    def _sprite(self, tile: PlacedTile) -> _Sprite:
        key = (tile.label, round(tile.x, 3), round(tile.y, 3), round(tile.angle, 3), tile.sideways)
        sprite = self._sprites.get(key)
        if sprite is None:
            sprite = self._draw_sprite(tile)
            self._sprites[key] = sprite
        return sprite

    def _draw_sprite(self, tile: PlacedTile) -> _Sprite:
        width, height = self.options.size
        base, _, top = project_prism(tile, self.camera)
        outline = np.vstack([base, top])
        x0, y0 = np.maximum(np.floor(outline.min(axis=0)).astype(int) - 2, 0)
        x1, y1 = np.minimum(np.ceil(outline.max(axis=0)).astype(int) + 2, [width, height])
        local = _shifted(self.camera, x0, y0, (x1 - x0, y1 - y0))
        # Drawn over black and over white: the difference is how much of the felt shows through.
        on_black = np.zeros((y1 - y0, x1 - x0, 3), np.float32)
        on_white = np.full_like(on_black, 255.0)
        back_hue = self.options.back_hue
        draw_tile(on_black, tile, local, self._art, back_hue)
        draw_tile(on_white, tile, local, self._art, back_hue)
        keep = np.clip((on_white - on_black).mean(axis=2, keepdims=True) / 255.0, 0.0, 1.0)
        # A lamp above and a little to one side: the shadow falls below-right of the prism.
        sx0, sy0 = max(x0 - _SHADOW_MARGIN_PX, 0), max(y0 - _SHADOW_MARGIN_PX, 0)
        sx1, sy1 = min(x1 + _SHADOW_MARGIN_PX, width), min(y1 + _SHADOW_MARGIN_PX, height)
        mask = np.zeros((sy1 - sy0, sx1 - sx0), np.float32)
        hull = cv2.convexHull((np.vstack([base, top + np.array([3.0, 4.0])]) - (sx0, sy0)).astype(np.int32))
        cv2.fillConvexPoly(mask, hull, 1.0)
        mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), sigmaX=3.0))
        nadir = np.array(self.camera.nadir)
        return _Sprite(
            int(x0),
            int(y0),
            on_black,
            keep,
            int(sx0),
            int(sy0),
            (1.0 - 0.45 * mask)[..., None],
            -float(np.hypot(tile.x - nadir[0], tile.y - nadir[1])) + (0.001 if tile.label == BACK_LABEL else 0.0),
        )

    def _draw_background(self, table: TableGeometry, rng: np.random.Generator) -> np.ndarray:
        options = self.options
        width, height = options.size
        image = _felt(options.size, options.felt_hue, rng)
        # The lamp's fall-off, fixed: brighter in the middle of the table.
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        falloff = 1.0 - 0.25 * (((xs - width / 2) / width) ** 2 + ((ys - height / 2) / height) ** 2)
        image *= falloff[..., None]
        half = options.marker_mm / 2
        for corner, (cx, cy) in zip(TableCorner, table.corners_mm(), strict=True):
            marker = cv2.cvtColor(draw_marker(corner.value, 240), cv2.COLOR_GRAY2BGR).astype(np.float32)
            square = np.array([[cx + dx * half, cy + dy * half, 0.0] for dx, dy in _MARKER_CORNERS])
            target = self.camera.project(square).astype(np.float32)
            source = np.array([[0, 0], [240, 0], [240, 240], [0, 240]], np.float32)
            homography = cv2.getPerspectiveTransform(source, target)
            warped = cv2.warpPerspective(marker, homography, options.size, flags=cv2.INTER_AREA)
            inside = cv2.warpPerspective(
                np.ones((240, 240), np.float32), homography, options.size, flags=cv2.INTER_AREA
            )[..., None]
            image = warped * 0.92 * inside + image * (1.0 - inside)  # paper under the lamp, not pure white
        return np.asarray(np.clip(image, 0, 255).astype(np.uint8))

    def _noise_pair(self, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        width, height = self.options.size
        shape = (height + _NOISE_SLACK_PX, width + _NOISE_SLACK_PX, 3)
        grain = rng.normal(0.0, self.options.noise_sigma, shape).astype(np.float32)
        return np.clip(grain, 0, 255).astype(np.uint8), np.clip(-grain, 0, 255).astype(np.uint8)


def _felt(size: tuple[int, int], hue: float, rng: np.random.Generator) -> np.ndarray:
    """Baize as a camera sees it: one colour, its light varying a little and smoothly (the cloth's
    lie) and a fine fibre grain. Light changes scale all three channels together, as real light
    does: an added grey blotch would change the felt's chromaticity, which no cloth under a lamp does."""
    width, height = size
    hsv = np.array([[[hue, rng.uniform(90, 220), rng.uniform(70, 150)]]], np.uint8)
    colour = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
    lie = cv2.resize(rng.normal(0.0, 0.02, (height // 160 + 2, width // 160 + 2)).astype(np.float32), (width, height))
    grain = rng.normal(0.0, 0.015, (height, width)).astype(np.float32)
    return np.asarray(colour[None, None, :] * (1.0 + lie + grain)[..., None])


def _shifted(camera: Camera, x0: int, y0: int, size: tuple[int, int]) -> Camera:
    """The same camera with its image cut at (x0, y0): draws a sprite in its own small patch."""
    shift = np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0], [0.0, 0.0, 1.0]])
    return Camera(shift @ camera.projection, camera.nadir, (int(size[0]), int(size[1])))
