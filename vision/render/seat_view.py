"""A seat's view: tiles standing in a row as a player sees their hand, loose tiles on the felt
in front, and the clutter of a room behind the table — the photographs the overhead renders
do not look like.

Real photographs of tiles are mostly taken from a chair: a camera 15-45 cm above the felt,
looking down at 20-60° onto a hand standing on its long edge, so that each tile shows its face,
the top of its body (ivory in front, the back's colour behind) and one side. Behind the table
there are shelves, books and boxes, whose spines carry glyphs as a tile does. The overhead
renderer (:mod:`vision.render.renderer`) never shows any of this; these scenes are drawn for
the tile detector to learn from beside real photographs (``vision.training.seat_view_set``).

Ground truth is every face wholly in the frame: a standing tile's front face, a loose tile's
top face, corners in face order. Tiles seen from their back and the clutter have none.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Final

import cv2
import numpy as np

from vision.classify.labels import BACK_LABEL
from vision.geometry import rectangle_corners
from vision.render.camera import Camera
from vision.render.drawing import body_colour, draw_tile, fill_polygon, warp_onto
from vision.render.effects import camera_effects
from vision.render.face_style import Art, tile_art_of
from vision.render.placement import TILE_HEIGHT_MM, TILE_THICKNESS_MM, TILE_WIDTH_MM, PlacedTile
from vision.render.renderer import TileTruth, wholly_inside
from vision.render.table_things import draw_table_things
from vision.render.tile_art import BACK_HUES, VENDORED_ART, ArtStyle, TileArt

_FACE_LABELS: Final = 37  # labels 0..36 are faces (34 kinds and three red fives); 37 is the back
_BODY_SHARE: Final = 0.55  # the ivory part of a tile's thickness; the rest is the back's colour
_HIDDEN: Final = 0.2  # a face hidden this much (by a hand, a nearer tile) is no truth
_THINGS_STREAM: Final = 0x7AB1E  # the table things' own random stream, beside the scene's seed
_GLYPHS_STREAM: Final = 0x61F5  # the spines' characters' own stream
_CHARACTER_SPINES: Final = 0.6  # with spine_glyphs, the share of spines titled in the art's characters


@dataclass(frozen=True, eq=False)
class SeatScene:
    image: np.ndarray  # uint8 BGR
    truths: tuple[TileTruth, ...]

    @property
    def tile_height_px(self) -> float:
        heights = [float(np.linalg.norm(t.corners[0] - t.corners[3])) for t in self.truths]
        return float(np.median(heights)) if heights else 0.0


def look_at_camera(
    size: tuple[int, int], eye_mm: np.ndarray, target_mm: np.ndarray, focal_px: float, roll_deg: float = 0.0
) -> Camera:
    """A pinhole camera at ``eye_mm`` (table millimetres, z up) looking at ``target_mm``."""
    forward = target_mm - eye_mm
    forward = forward / np.linalg.norm(forward)
    right = np.cross(forward, np.array([0.0, 0.0, 1.0]))
    right = right / np.linalg.norm(right)
    down = np.cross(forward, right)
    roll = np.deg2rad(roll_deg)
    right, down = np.cos(roll) * right + np.sin(roll) * down, -np.sin(roll) * right + np.cos(roll) * down
    rotation = np.vstack([right, down, forward])
    width, height = size
    intrinsics = np.array([[focal_px, 0.0, width / 2], [0.0, focal_px, height / 2], [0.0, 0.0, 1.0]])
    extrinsics = np.hstack([rotation, (-rotation @ eye_mm)[:, None]])
    return Camera(intrinsics @ extrinsics, (float(eye_mm[0]), float(eye_mm[1])), size)


def render_seat_view(
    seed: int,
    size: tuple[int, int] = (960, 720),
    style: Art = ArtStyle.REGULAR,
    *,
    tiles: bool = True,
    strokes: float = 0.0,
    scattered: bool = False,
    table_things: bool = False,
    spine_glyphs: bool = False,
) -> SeatScene:
    """One scene, deterministic from ``seed``, its faces drawn from ``style`` with their strokes
    ``strokes`` art pixels thicker (negative: thinner). ``tiles=False`` draws the same scene
    without a tile in it (the felt, sticks, dice, hand and room alone): a hard negative, where
    a detector should find nothing. ``scattered``: the standing tiles stand apart, each at its
    own place on the felt, nearer and farther (tiles set out one by one, as photographs of a few
    tiles show them), not in a row; a face that a nearer tile hides is no truth.
    ``table_things``: also a keyboard, a score display or a stick tray lying on the felt
    (:mod:`vision.render.table_things`), drawn from a generator of their own so that the rest
    of the seed's scene is the same; a face they hide is no truth. ``spine_glyphs``: most book
    spines carry a column of the tile art's own characters (一-九, 萬, 東南西北, 中, 發) instead
    of letters, drawn from a generator of their own: text that is the tiles' ink, on no tile."""
    rng = np.random.default_rng(seed)
    art = tile_art_of(style, strokes)
    back_hue = int(rng.choice(BACK_HUES))
    count = int(rng.integers(5, 15))
    gap = float(rng.uniform(0.0, 1.5))
    row_width = count * TILE_WIDTH_MM + (count - 1) * gap
    row_left = -row_width / 2 + float(rng.normal(0, 30))
    row_y = 0.0
    distance = float(rng.uniform(220, 650))
    elevation = np.deg2rad(rng.uniform(18, 62))
    azimuth = np.deg2rad(rng.normal(0, 14))
    target = np.array([float(rng.normal(0, 25)), row_y + TILE_THICKNESS_MM / 2, TILE_HEIGHT_MM / 2])
    eye = target + distance * np.array(
        [np.sin(azimuth) * np.cos(elevation), -np.cos(azimuth) * np.cos(elevation), np.sin(elevation)]
    )
    # The row fills from a third of the frame's width to more than all of it.
    focal = float(rng.uniform(0.35, 1.2)) * size[0] * distance / row_width
    camera = look_at_camera(size, eye, target, focal, float(rng.normal(0, 6)))

    glyphs_rng = np.random.default_rng([seed, _GLYPHS_STREAM]) if spine_glyphs else None
    image = _surface(size, camera, rng, glyphs_rng)
    truths: list[TileTruth] = []
    near = min(max(-220.0, float(eye[1]) + 90.0), -70.0)  # the nearest the felt's things come to the camera (mm)
    loose = [replace(tile, label=art.drawn_label(tile.label)) for tile in _loose_tiles(rng, row_left, row_width, near)]
    standing = [
        (
            art.drawn_label(int(rng.integers(0, _FACE_LABELS))),
            row_left + i * (TILE_WIDTH_MM + gap) + float(rng.normal(0, 0.4)),
            row_y,
        )
        for i in range(count)
    ]
    if scattered:
        standing = _scattered(standing, row_left, row_width, rng)
    # Farthest first, the painter's order: the tiles standing, then what lies on the felt in front.
    if not tiles:
        standing, loose = [], []
    drawn: list[tuple[TileTruth | None, float, float]] = []  # each standing tile's truth and place
    for label, x, y in sorted(
        standing, key=lambda s: -float(np.hypot(s[1] + TILE_WIDTH_MM / 2 - eye[0], s[2] - eye[1]))
    ):
        face = _draw_standing(image, camera, art, label=label, back_hue=back_hue, x=x, y=y, eye=eye, rng=rng)
        drawn.append((TileTruth(label, face, sideways=False) if wholly_inside(face, size) else None, x, y))
    # A row's tiles stand side by side and hide none of each other's faces.
    if scattered:
        truths.extend(_unhidden([(truth, _outline(camera, x, y)) for truth, x, y in drawn], size))
    else:
        truths.extend(truth for truth, _, _ in drawn if truth is not None)
    _draw_sticks_and_dice(image, camera, rng, row_left, row_width, near=near)
    if table_things:
        things_rng = np.random.default_rng([seed, _THINGS_STREAM])
        # In front of the row (behind it they would be drawn over its tiles); where the row
        # would stand too when there are no tiles.
        area = (row_left - 60.0, near - 20.0, row_left + row_width + 60.0, -40.0 if tiles else 80.0)
        covered = draw_table_things(image, camera, things_rng, area, int(things_rng.integers(1, 4)))
        truths = [t for t in truths if _covered(covered, t.corners) < _HIDDEN]
    for tile in sorted(loose, key=lambda t: -float(np.hypot(t.x - eye[0], t.y - eye[1]))):
        corners = draw_tile(image, tile, camera, art, back_hue)
        if tile.label != BACK_LABEL and wholly_inside(corners, size):
            truths.append(TileTruth(tile.label, corners, sideways=False))
    if rng.random() < 0.3:
        hidden = _draw_hand(image, rng)
        truths = [t for t in truths if _covered(hidden, t.corners) < _HIDDEN]
    gloss = np.full(image.shape[:2], 0.5, np.float32)
    frame = camera_effects(image, rng, gloss)
    return SeatScene(frame, tuple(truths))


def _surface(
    size: tuple[int, int], camera: Camera, rng: np.random.Generator, glyphs_rng: np.random.Generator | None = None
) -> np.ndarray:
    """The felt (or wood) up to the table's far edge, and the room behind it above."""
    width, height = size
    image = np.empty((height, width, 3), np.float32)
    if rng.random() < 0.25:
        image[:] = _wood(size, rng)
    else:
        hue = float(rng.choice([rng.uniform(35, 50), rng.uniform(50, 75), rng.uniform(85, 115)]))
        hsv = np.array([[[hue, rng.uniform(60, 220), rng.uniform(70, 190)]]], np.uint8)
        colour = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
        grain = cv2.resize(rng.normal(0, 5, (height // 32 + 2, width // 32 + 2)).astype(np.float32), (width, height))
        image[:] = colour[None, None, :] + (grain + rng.normal(0, 3, (height, width)).astype(np.float32))[..., None]
    far = float(rng.uniform(180, 450))
    edge = camera.project(np.array([[-600.0, far, 0.0], [600.0, far, 0.0]]))
    horizon = float(edge[:, 1].max())
    if horizon >= 8:  # a sliver of room is not worth drawing (nor can OpenCV draw on an empty one)
        _draw_room(image, int(min(horizon, height)), rng, glyphs_rng)
    return image


def _wood(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    width, height = size
    base = np.array([rng.uniform(40, 110), rng.uniform(80, 150), rng.uniform(120, 200)], np.float32)
    rows = np.cumsum(rng.normal(0, 1, height)).astype(np.float32)
    streaks = np.sin(np.linspace(0, rng.uniform(20, 80), height) + rows * 0.2)[:, None] * rng.uniform(8, 25)
    noise = cv2.resize(rng.normal(0, 8, (height // 4 + 1, width // 40 + 1)).astype(np.float32), (width, height))
    shade = (streaks + noise)[..., None]
    return np.asarray(base[None, None, :] + shade * np.array([0.6, 0.8, 1.0], np.float32))


def _draw_room(
    image: np.ndarray, horizon: int, rng: np.random.Generator, glyphs_rng: np.random.Generator | None = None
) -> None:
    """Shelves of book spines with glyphs, boxes and a wall above the table's far edge; with
    ``glyphs_rng``, most spines' glyphs are the tile art's characters (:func:`_write_characters`)."""
    width = image.shape[1]
    room = np.empty((horizon, width, 3), np.uint8)  # drawn in 8 bits: OpenCV writes text on no other depth
    room[:] = rng.uniform(60, 230, 3).astype(np.uint8)
    x = int(rng.integers(-40, 0))
    while x < width:
        spine = int(rng.integers(12, 70))
        top = int(rng.integers(0, max(horizon // 2, 1)))
        colour = rng.uniform(20, 240, 3).tolist()
        cv2.rectangle(room, (x, top), (x + spine - 2, horizon), colour, -1)
        ink = (245, 245, 245) if sum(colour) < 360 else (20, 20, 20)
        characters = glyphs_rng is not None and glyphs_rng.random() < _CHARACTER_SPINES
        for y in range(top + 8, horizon - 10, int(rng.integers(14, 40))):
            # Drawn from the scene's generator either way, so that the rest of its scene is the same.
            text = "".join(chr(int(c)) for c in rng.integers(65, 91, int(rng.integers(1, 3))))
            font, thickness = int(rng.integers(0, 8)), int(rng.integers(1, 3))
            if not characters:
                cv2.putText(room, text, (x + 2, y), font, spine / 70, ink, thickness)
        if characters and glyphs_rng is not None:
            _write_characters(room, (x, top, x + spine - 2, horizon), glyphs_rng)
        if rng.random() < 0.15:  # a box between the books
            box = int(rng.integers(60, 160))
            cv2.rectangle(room, (x, max(horizon - box, 0)), (x + box, horizon), rng.uniform(20, 240, 3).tolist(), -1)
            x += box
        x += spine
    cv2.rectangle(room, (0, horizon - int(rng.integers(4, 20))), (width, horizon), rng.uniform(20, 90, 3).tolist(), -1)
    image[:horizon] = room


def _write_characters(room: np.ndarray, spine: tuple[int, int, int, int], rng: np.random.Generator) -> None:
    """A column of the tile art's characters down a spine (``spine``: x0, y0, x1, y1), each
    most of its width, in one ink: as a Japanese book's title runs down its spine."""
    x0, y0, x1, y1 = spine
    width = x1 - x0
    if width < 8:
        return
    ink = np.array(rng.choice([(20, 20, 20), (245, 245, 245), (40, 40, 170), (150, 60, 20), (40, 110, 40)]), np.float32)
    size = int(width * rng.uniform(0.55, 0.9))
    y = y0 + int(rng.integers(4, 4 + size))
    while True:
        mask = tile_characters()[int(rng.integers(len(tile_characters())))]
        height = max(1, round(size * mask.shape[0] / mask.shape[1]))
        if y + height >= min(y1, room.shape[0]) - 4:
            return
        left = x0 + (width - size) // 2
        if left >= 0 and left + size <= room.shape[1]:
            alpha = cv2.resize(mask, (size, height), interpolation=cv2.INTER_AREA)[..., None]
            region = room[y : y + height, left : left + size].astype(np.float32)
            room[y : y + height, left : left + size] = np.round(region * (1 - alpha) + ink * alpha).astype(np.uint8)
        y += height + int(rng.integers(1, max(2, size // 3)))


@functools.lru_cache(maxsize=1)
def tile_characters() -> tuple[np.ndarray, ...]:
    """Ink masks (float 0-1, cropped to their ink) of the characters the vendored art writes on
    tiles: each character tile's numeral and its 萬 (cut at the middle of the blank band between
    them), the winds, 中 and 發."""
    folder = VENDORED_ART / "Regular"
    masks = []
    for name in [f"Man{n}" for n in range(1, 10)] + ["Ton", "Nan", "Shaa", "Pei", "Chun", "Hatsu"]:
        art = cv2.imread(str(folder / f"{name}.png"), cv2.IMREAD_UNCHANGED)
        if art is None or art.ndim != 3 or art.shape[2] != 4:
            raise ValueError(f"tile art {folder / name}.png is missing or not a BGRA PNG")
        alpha = art[..., 3].astype(np.float32) / 255
        if name.startswith("Man"):
            inked = alpha.max(axis=1) > 0.5
            rows = len(inked)
            # the blank band between numeral and 萬: its middle row, looked for in the upper middle
            blank = [r for r in range(rows // 6, rows * 2 // 3) if not inked[r]]
            cut = blank[len(blank) // 2] if blank else rows * 2 // 5
            masks += [_inked(alpha[:cut]), _inked(alpha[cut:])]
        else:
            masks.append(_inked(alpha))
    return tuple(m for m in masks if m.size)


def _inked(alpha: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(alpha > 0.5)
    if not len(ys):
        return np.zeros((0, 0), np.float32)
    return np.ascontiguousarray(alpha[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


def _scattered(
    row: list[tuple[int, float, float]], row_left: float, row_width: float, rng: np.random.Generator
) -> list[tuple[int, float, float]]:
    """The row's tiles (label, x, y) moved apart: spread over up to twice the row's width, each
    its own way nearer or farther, a little turned out of line by their own spacing."""
    spread = row_width * float(rng.uniform(1.2, 2.0))
    left = row_left - (spread - row_width) / 2
    slot = spread / len(row)
    return [
        (label, left + i * slot + float(rng.uniform(0, max(slot - TILE_WIDTH_MM, 0.0))), float(rng.uniform(-70, 90)))
        for i, (label, _, _) in enumerate(row)
    ]


def _outline(camera: Camera, x: float, y: float) -> np.ndarray:
    """A standing tile's outline in the image: the hull of its block's eight corners."""
    xs, ys, zs = (x, x + TILE_WIDTH_MM), (y, y + TILE_THICKNESS_MM), (0.0, TILE_HEIGHT_MM)
    corners = np.array([[cx, cy, cz] for cx in xs for cy in ys for cz in zs])
    return np.asarray(cv2.convexHull(camera.project(corners).astype(np.float32)).reshape(-1, 2))


def _unhidden(drawn: list[tuple[TileTruth | None, np.ndarray]], size: tuple[int, int]) -> list[TileTruth]:
    """The truths of tiles drawn farthest first (each with its outline) whose face no nearer
    tile hides more than a little of: looked at nearest first, each against the outlines of
    those nearer it, then its own added to them."""
    kept = []
    nearer = np.zeros((size[1], size[0]), np.float32)
    for at, (truth, outline) in enumerate(reversed(drawn)):
        if truth is not None and (at == 0 or _covered(nearer, truth.corners) < _HIDDEN):
            kept.append(truth)
        cv2.fillConvexPoly(nearer, np.round(outline).astype(np.int32), 1.0)
    return kept[::-1]


def _loose_tiles(rng: np.random.Generator, row_left: float, row_width: float, near: float) -> list[PlacedTile]:
    """A few tiles lying on the felt in front of the row (faces up, some backs), any way round."""
    tiles = []
    for _ in range(int(rng.integers(0, 7))):
        label = BACK_LABEL if rng.random() < 0.15 else int(rng.integers(0, _FACE_LABELS))
        x = float(rng.uniform(row_left - 40, row_left + row_width + 40))
        y = float(rng.uniform(max(-160.0, near), -40))
        tiles.append(PlacedTile(label, x, y, float(rng.uniform(0, 360)), sideways=False))
    return tiles


def _draw_standing(
    image: np.ndarray,
    camera: Camera,
    art: TileArt,
    *,
    label: int,
    back_hue: int,
    x: float,
    y: float,
    eye: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """A tile standing on its long edge, face towards -y; returns the face's image corners."""
    x0, x1, y0, y1, top = x, x + TILE_WIDTH_MM, y, y + TILE_THICKNESS_MM, TILE_HEIGHT_MM
    split = y0 + TILE_THICKNESS_MM * _BODY_SHARE
    body = body_colour(art.image(27 + 4))  # the white dragon is the bare body
    back = body_colour(art.image(BACK_LABEL, back_hue))
    # The side towards the camera, each layer of it; then the top; then the face.
    side_x = x0 if eye[0] < x0 else x1
    if not x0 <= eye[0] <= x1:
        for near, far, colour in ((y0, split, body), (split, y1, back)):
            quad = np.array([[side_x, near, top], [side_x, far, top], [side_x, far, 0.0], [side_x, near, 0.0]])
            fill_polygon(image, camera.project(quad), colour * 0.72)
    for near, far, colour in ((y0, split, body), (split, y1, back)):
        quad = np.array([[x0, near, top], [x1, near, top], [x1, far, top], [x0, far, top]])
        fill_polygon(image, camera.project(quad), colour * float(rng.uniform(0.95, 1.15)))
    face = camera.project(np.array([[x0, y0, top], [x1, y0, top], [x1, y0, 0.0], [x0, y0, 0.0]]))
    _warp_face(image, art.image(label, back_hue), face, float(rng.uniform(0.75, 1.0)))
    return face


def _warp_face(image: np.ndarray, face: np.ndarray, corners: np.ndarray, light: float) -> None:
    """The art onto a standing face, shaded from the top (lit) to the foot (in its own shadow)."""
    shade = np.linspace(1.0, 0.8, face.shape[0], dtype=np.float32)[:, None, None] * light
    shaded = face.astype(np.float32)
    shaded[..., :3] *= shade
    warp_onto(image, shaded, corners)


def _draw_sticks_and_dice(
    image: np.ndarray, camera: Camera, rng: np.random.Generator, row_left: float, row_width: float, *, near: float
) -> None:
    """Point sticks (white bars with dots) and dice on the felt: things that are not tiles."""
    for _ in range(int(rng.integers(0, 4))):
        cx, cy = rng.uniform(row_left - 80, row_left + row_width + 80), rng.uniform(near, -30)
        turn = rng.uniform(0, np.pi)
        ends = rectangle_corners(np.array([cx, cy]), np.array([np.cos(turn), np.sin(turn)]), 45.0, 4.0)
        quad = camera.project(np.array([[p[0], p[1], 2.0] for p in ends]))
        fill_polygon(image, quad, np.array([235.0, 238.0, 240.0]))
        dot = camera.project(np.array([[cx, cy, 2.0]]))[0]
        cv2.circle(
            image, (int(dot[0]), int(dot[1])), 2, rng.choice([(40.0, 40.0, 200.0), (30.0, 30.0, 30.0)]).tolist(), -1
        )
    for _ in range(int(rng.integers(0, 3))):
        cx, cy = rng.uniform(row_left, row_left + row_width), rng.uniform(max(-200.0, near), -60)
        cube = np.array(
            [[cx - 6, cy - 6, 12.0], [cx + 6, cy - 6, 12.0], [cx + 6, cy + 6, 12.0], [cx - 6, cy + 6, 12.0]]
        )
        top = camera.project(cube)
        base = camera.project(cube * np.array([1.0, 1.0, 0.0]))
        fill_polygon(image, np.vstack([top, base]), np.array([200.0, 205.0, 210.0]))
        fill_polygon(image, top, np.array([240.0, 242.0, 245.0]))
        centre = top.mean(axis=0)
        cv2.circle(image, (int(centre[0]), int(centre[1])), 2, (40.0, 40.0, 190.0), -1)


def _draw_hand(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A player's hand reaching in from the near edge, soft-edged; returns where it lies (0-1)."""
    height, width = image.shape[:2]
    start = np.array([rng.uniform(0, width), height + 10.0])
    reach = np.array([rng.uniform(0, width), rng.uniform(height * 0.4, height * 0.9)])
    direction = (reach - start) / max(float(np.linalg.norm(reach - start)), 1.0)
    normal = np.array([-direction[1], direction[0]])
    half = rng.uniform(0.05, 0.1) * width
    arm = np.array(
        [start + half * normal, reach + half * 0.8 * normal, reach - half * 0.8 * normal, start - half * normal]
    )
    mask = np.zeros((height, width), np.float32)
    cv2.fillConvexPoly(mask, np.round(arm).astype(np.int32), 1.0)
    cv2.circle(mask, (int(reach[0]), int(reach[1])), int(half * 1.1), 1.0, -1)
    mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), sigmaX=3.0), np.float32)
    skin = np.array([rng.uniform(90, 150), rng.uniform(130, 180), rng.uniform(180, 235)], np.float32)
    image[:] = skin[None, None, :] * mask[..., None] + image * (1.0 - mask[..., None])
    return np.asarray(mask)


def _covered(mask: np.ndarray, corners: np.ndarray) -> float:
    """The share of a face that ``mask`` (a hand, nearer tiles) hides."""
    face = np.zeros(mask.shape, np.uint8)
    cv2.fillConvexPoly(face, np.round(corners).astype(np.int32), 1)
    area = int(face.sum())
    return float((mask[face > 0] > 0.5).sum()) / area if area else 1.0
