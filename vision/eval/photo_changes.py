"""Labelled photographs changed as another camera, light or file would change them, with their
labels carried along: how far a reading holds up on a source it has never seen.

A held-out source is one camera, one light and one export. A table's camera (or another data
set) differs in how it is turned, how far off, how sharp, how lit and how compressed. Each
:class:`PhotoChange` does one such thing to a picture and moves its labelled corners (and its
ignored boxes) to where the change puts them, so the figures of ``vision eval`` can be taken
on the changed picture (``bench/bench_photo_changes.py``).

Every change keeps the picture's shape square when it was square: a squeezed export is read at
the pixel aspect chosen for square pictures (:mod:`vision.detect.pixel_aspect`), and a change
that made it oblong would switch that choice off and measure the squeeze instead of the change.
Geometric changes are homographies of the stored picture; a squeezed picture's homography is a
homography of the scene too (squeeze, map, unsqueeze), so what they show a camera could see.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

import cv2
import numpy as np

from vision.eval.label_eval import tile_width
from vision.eval.label_file import LabelledTile
from vision.geometry import mapped_box, mapped_points, points_box, reflected_copy

Box = tuple[float, float, float, float]


class PhotoChangeError(ValueError):
    """A change asked for by a name no change has."""


@dataclass(frozen=True, slots=True)
class ChangedPhoto:
    image: np.ndarray
    tiles: tuple[LabelledTile, ...]
    ignored: tuple[Box, ...]


@dataclass(frozen=True, slots=True)
class PhotoChange:
    """One change: ``geometry`` gives the 3×3 map of picture points and the new size for a
    picture of a given size (None: the pixels stay where they are); ``surround`` (an odd count,
    1: none) sets the (moved) picture in the middle of a frame that many times as wide and tall,
    the rest of it the picture's mirror images (:func:`surrounded`); ``pixels`` changes the
    pixel values of the picture, given its median tile width in pixels; ``crops`` says the new
    frame leaves part of the picture out, so a tile it cuts becomes an ignored box (the reader
    drops a tile the frame's edge cuts) and one wholly outside it is no label."""

    name: str
    what: str
    geometry: Callable[[int, int], tuple[np.ndarray, tuple[int, int]]] | None = None
    pixels: Callable[[np.ndarray, float], np.ndarray] | None = None
    surround: int = 1
    crops: bool = False

    def apply(self, image: np.ndarray, tiles: Sequence[LabelledTile], ignored: Sequence[Box] = ()) -> ChangedPhoto:
        kept_tiles, kept_ignored = tuple(tiles), tuple(ignored)
        if self.geometry is not None:
            height, width = image.shape[:2]
            matrix, (new_width, new_height) = self.geometry(width, height)
            if _is_scaling(matrix):  # resize's own filter: a warp would alias a picture it shrinks
                image = cv2.resize(image, (new_width, new_height), interpolation=cv2.INTER_AREA)
            else:
                image = cv2.warpPerspective(image, matrix, (new_width, new_height), flags=cv2.INTER_LINEAR)
            kept_tiles = tuple(replace(t, corners=mapped_points(matrix, t.corners)) for t in kept_tiles)
            kept_ignored = tuple(mapped_box(matrix, box) for box in kept_ignored)
            if self.crops:
                kept_tiles, kept_ignored = _in_frame(kept_tiles, kept_ignored, new_width, new_height)
        if self.surround > 1:
            image, kept_tiles, kept_ignored = surrounded(image, kept_tiles, kept_ignored, self.surround)
        if self.pixels is not None:
            # A picture with no labelled tile is changed as one of 24 px wide tiles.
            image = self.pixels(image, tile_width(kept_tiles) if kept_tiles else 24.0)
        return ChangedPhoto(image, kept_tiles, kept_ignored)


def _is_scaling(matrix: np.ndarray) -> bool:
    """Whether ``matrix`` only scales, its pixel edges kept at pixel edges (as :func:`_scaled`
    makes it, resize's own pixel mapping; a crop scaled is no such map)."""
    sx, sy = matrix[0, 0], matrix[1, 1]
    return bool(
        matrix[0, 1] == 0
        and matrix[1, 0] == 0
        and sx > 0
        and sy > 0
        and matrix[2, 0] == 0
        and matrix[2, 1] == 0
        and np.isclose(matrix[0, 2], 0.5 * sx - 0.5)
        and np.isclose(matrix[1, 2], 0.5 * sy - 0.5)
    )


def _in_frame(
    tiles: Sequence[LabelledTile], ignored: Sequence[Box], width: int, height: int
) -> tuple[tuple[LabelledTile, ...], tuple[Box, ...]]:
    """The tiles wholly inside a ``width`` × ``height`` frame, and the ignored boxes with those it
    cuts added (those wholly outside it, tiles and boxes, left out)."""
    whole: list[LabelledTile] = []
    cut: list[Box] = []
    for tile in tiles:
        x0, y0, x1, y1 = points_box(tile.corners)
        if x0 >= 0 and y0 >= 0 and x1 <= width and y1 <= height:
            whole.append(tile)
        elif x1 > 0 and y1 > 0 and x0 < width and y0 < height:
            cut.append((x0, y0, x1, y1))
    seen = [box for box in ignored if box[2] > 0 and box[3] > 0 and box[0] < width and box[1] < height]
    return tuple(whole), tuple(seen + cut)


def surrounded(
    image: np.ndarray, tiles: Sequence[LabelledTile], ignored: Sequence[Box], count: int
) -> tuple[np.ndarray, tuple[LabelledTile, ...], tuple[Box, ...]]:
    """The picture in the middle of a ``count`` × ``count`` frame of its copies, each copy beside
    it mirrored across the edge they share (as ``cv2.BORDER_REFLECT`` continues a picture: no
    seam, what lies at an edge goes on across it), so its tiles keep their pixels and take up a
    ``count``-th of the frame's width. Its own tiles stay the labels; the copies' tiles, which a
    reader may well find, and the copies of its ignored boxes become ignored boxes (a find there
    is neither found nor false)."""
    if count < 1 or count % 2 == 0:
        raise ValueError(f"a picture is surrounded by an odd count of copies a side, not {count}")
    height, width = image.shape[:2]
    side = count // 2
    frame = cv2.copyMakeBorder(image, side * height, side * height, side * width, side * width, cv2.BORDER_REFLECT)
    to_frame = np.array([[1.0, 0.0, side * width], [0.0, 1.0, side * height], [0.0, 0.0, 1.0]])
    moved_tiles = tuple(replace(t, corners=mapped_points(to_frame, t.corners)) for t in tiles)
    copies: list[Box] = []
    for down in range(-side, side + 1):
        for across in range(-side, side + 1):
            matrix = to_frame @ reflected_copy(across, down, width, height)
            copies += [mapped_box(matrix, box) for box in ignored]
            if (across, down) != (0, 0):
                copies += [points_box(mapped_points(matrix, t.corners)) for t in tiles]
    return frame, moved_tiles, tuple(copies)


# --- geometry -------------------------------------------------------------------------------


def _turned_quarter(width: int, height: int) -> tuple[np.ndarray, tuple[int, int]]:
    # Clockwise: the pixel at (x, y) goes to (height - 1 - y, x), as cv2.rotate's ROTATE_90_CLOCKWISE.
    return np.array([[0.0, -1.0, height - 1.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]), (height, width)


def _turned_half(width: int, height: int) -> tuple[np.ndarray, tuple[int, int]]:
    return np.array([[-1.0, 0.0, width - 1.0], [0.0, -1.0, height - 1.0], [0.0, 0.0, 1.0]]), (width, height)


def _turned_by(degrees: float) -> Callable[[int, int], tuple[np.ndarray, tuple[int, int]]]:
    """Turned about the centre and shrunk so that the whole picture stays in its frame."""

    def geometry(width: int, height: int) -> tuple[np.ndarray, tuple[int, int]]:
        angle = math.radians(degrees)
        cos, sin = abs(math.cos(angle)), abs(math.sin(angle))
        scale = min(width / (width * cos + height * sin), height / (width * sin + height * cos))
        affine = cv2.getRotationMatrix2D(((width - 1) / 2, (height - 1) / 2), degrees, scale)
        return np.vstack([affine, [0.0, 0.0, 1.0]]), (width, height)

    return geometry


def _scaled(across: float, down: float | None = None) -> Callable[[int, int], tuple[np.ndarray, tuple[int, int]]]:
    """The width scaled by ``across`` and the height by ``down`` (by ``across`` too when None)."""

    def geometry(width: int, height: int) -> tuple[np.ndarray, tuple[int, int]]:
        factor_down = across if down is None else down
        new_width, new_height = max(round(width * across), 1), max(round(height * factor_down), 1)
        # Pixel edges map to pixel edges: x_edge' = x_edge * sx, so centres go (x + 0.5) * sx - 0.5.
        sx, sy = new_width / width, new_height / height
        matrix = np.array([[sx, 0.0, 0.5 * sx - 0.5], [0.0, sy, 0.5 * sy - 0.5], [0.0, 0.0, 1.0]])
        return matrix, (new_width, new_height)

    return geometry


def _closer(share: float, scale: float) -> Callable[[int, int], tuple[np.ndarray, tuple[int, int]]]:
    """The middle ``share`` of the picture each way, ``scale`` times as many pixels across: a
    camera closer to the table (each tile 1/``share`` times the share of the frame it was, and
    ``scale`` times as many pixels tall), the rest of the picture out of the frame."""

    def geometry(width: int, height: int) -> tuple[np.ndarray, tuple[int, int]]:
        left, top = width * (1.0 - share) / 2.0, height * (1.0 - share) / 2.0
        new_width, new_height = max(round(width * share * scale), 1), max(round(height * share * scale), 1)
        # Pixel edges: x_edge' = (x_edge - left) * scale, so centres go (x + 0.5 - left) * scale - 0.5.
        matrix = np.array(
            [[scale, 0.0, (0.5 - left) * scale - 0.5], [0.0, scale, (0.5 - top) * scale - 0.5], [0.0, 0.0, 1.0]]
        )
        return matrix, (new_width, new_height)

    return geometry


def _leaning_back(share: float) -> Callable[[int, int], tuple[np.ndarray, tuple[int, int]]]:
    """The far (top) edge drawn ``share`` of the width narrower at each end, and the picture's
    top pushed down by as much: a camera tilted further from looking straight down."""

    def geometry(width: int, height: int) -> tuple[np.ndarray, tuple[int, int]]:
        w, h = width - 1.0, height - 1.0
        source = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        target = np.array([[share * w, share * h], [(1 - share) * w, share * h], [w, h], [0, h]], np.float32)
        return np.asarray(cv2.getPerspectiveTransform(source, target), np.float64), (width, height)

    return geometry


# --- pixels ---------------------------------------------------------------------------------


def _defocused(image: np.ndarray, tile_width: float) -> np.ndarray:
    # A lens focused a little off the table: a blur of a 25th of a tile (its strokes soft, each
    # face still read by eye; a tenth leaves no face a person could read).
    return cv2.GaussianBlur(image, (0, 0), sigmaX=max(tile_width / 25, 0.5))


def _shaken(image: np.ndarray, tile_width: float) -> np.ndarray:
    # The camera moved a fifth of a tile across while the shutter was open.
    length = max(round(tile_width / 5), 2)
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    return cv2.filter2D(image, -1, kernel)


def smeared_along(image: np.ndarray, direction: float, length: float) -> np.ndarray:
    """``image`` smeared along a line of ``length`` pixels at ``direction`` degrees clockwise from
    across, as a camera moving that way while its shutter is open smears it: the line sampled
    finely, each sample rounded to its pixel."""
    size = 2 * int(np.ceil(length / 2)) + 3
    kernel = np.zeros((size, size), np.float32)
    middle = (size - 1) / 2
    down, across = math.sin(math.radians(direction)), math.cos(math.radians(direction))
    for along in np.linspace(-length / 2, length / 2, 8 * size):
        kernel[round(middle + along * down), round(middle + along * across)] += 1
    return cv2.filter2D(image, -1, kernel / kernel.sum())


def _shaken_aslant(image: np.ndarray, tile_width: float) -> np.ndarray:
    # The same shake along a line 60° clockwise from across (a shake need not follow the
    # picture's rows).
    return smeared_along(image, 60.0, max(tile_width / 5, 2.0))


def _noisy(image: np.ndarray, _tile_width: float) -> np.ndarray:
    # A small sensor in dim light; the seed is the picture's own, so a run repeats.
    random = np.random.default_rng(int(image[::17, ::13].sum()) % (2**32))
    noise = random.normal(0.0, 12.0, image.shape)
    return np.clip(image.astype(np.float32) + noise, 0, 255).astype(np.uint8)


def _compressed(image: np.ndarray, _tile_width: float) -> np.ndarray:
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 15])
    if not ok:  # pragma: no cover - OpenCV always encodes a uint8 picture
        raise RuntimeError("JPEG encoding failed")
    return np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR))


def _exposed(gain: float) -> Callable[[np.ndarray, float], np.ndarray]:
    def pixels(image: np.ndarray, _tile_width: float) -> np.ndarray:
        # In linear light (gamma 2.2), as a sensor's exposure scales it, then back.
        linear = (image.astype(np.float32) / 255.0) ** 2.2 * gain
        return np.asarray(np.clip(linear ** (1 / 2.2) * 255.0 + 0.5, 0, 255), np.uint8)

    return pixels


def _lit(blue: float, green: float, red: float) -> Callable[[np.ndarray, float], np.ndarray]:
    gains = np.array([blue, green, red], np.float32)

    def pixels(image: np.ndarray, _tile_width: float) -> np.ndarray:
        return np.asarray(np.clip(image.astype(np.float32) * gains + 0.5, 0, 255), np.uint8)

    return pixels


def _hazy(image: np.ndarray, _tile_width: float) -> np.ndarray:
    # Glare over the lens: half the contrast, towards a light grey.
    return np.asarray(np.clip(image.astype(np.float32) * 0.5 + 100.0, 0, 255), np.uint8)


#: The changes, by name, in the order the bench reports them.
PHOTO_CHANGES: Final[Mapping[str, PhotoChange]] = {
    change.name: change
    for change in (
        PhotoChange("stored", "the picture as the source stores it"),
        PhotoChange("turned-90", "turned a quarter clockwise", geometry=_turned_quarter),
        PhotoChange("turned-180", "turned upside down", geometry=_turned_half),
        PhotoChange("turned-20", "turned 20° and shrunk to stay in the frame", geometry=_turned_by(20.0)),
        PhotoChange(
            "leaning-back", "far edge 15% narrower each end: a more oblique camera", geometry=_leaning_back(0.15)
        ),
        PhotoChange("half-size", "half as many pixels across", geometry=_scaled(0.5)),
        PhotoChange("double-size", "twice as many pixels across", geometry=_scaled(2.0)),
        PhotoChange(
            "quarter-size", "a quarter as many pixels across: `farther` with no scene around", geometry=_scaled(0.25)
        ),
        PhotoChange(
            "closer",
            "the middle half each way at 3 times the pixels: a camera closer, its tiles 3 times as tall",
            geometry=_closer(0.5, 3.0),
            crops=True,
        ),
        PhotoChange(
            "wider-view",
            "in the middle of a frame 3 times as wide and tall, the rest its mirror images: more around its tiles",
            surround=3,
        ),
        PhotoChange(
            "farther",
            "a quarter of the pixels across, in the middle of a frame 5 times as wide and tall of its mirror images: "
            "a camera four times as far with a lens that keeps the frame's pixels",
            geometry=_scaled(0.25),
            surround=5,
        ),
        PhotoChange("defocus", "blurred a 25th of a tile", pixels=_defocused),
        PhotoChange("shake", "moved a fifth of a tile across during the exposure", pixels=_shaken),
        PhotoChange("shake-aslant", "moved a fifth of a tile at 60° to across", pixels=_shaken_aslant),
        PhotoChange("noise", "sensor noise, 12 levels", pixels=_noisy),
        PhotoChange("jpeg-15", "saved as JPEG at quality 15", pixels=_compressed),
        PhotoChange("dark", "a third of the light", pixels=_exposed(1 / 3)),
        PhotoChange("bright", "twice the light, clipped", pixels=_exposed(2.0)),
        PhotoChange("warm", "warm lamp light (blue ×0.7, red ×1.1)", pixels=_lit(0.7, 0.95, 1.1)),
        PhotoChange("cool", "cool daylight (red ×0.75, blue ×1.1)", pixels=_lit(1.1, 1.0, 0.75)),
        PhotoChange("hazy", "glare over the lens: half the contrast", pixels=_hazy),
    )
}


def restoring(pixel_aspect: float) -> PhotoChange:
    """A picture whose pixels show ``pixel_aspect`` times as much width as height (16/9 for a
    16:9 frame squeezed to a square) given back its true shape: its width scaled by the aspect."""

    return PhotoChange("restored", f"width scaled by {pixel_aspect:.3f}", geometry=_scaled(pixel_aspect, 1.0))


def photo_changes(names: Sequence[str] | None) -> tuple[PhotoChange, ...]:
    """The changes named (all when None), refusing a name no change has."""
    if names is None:
        return tuple(PHOTO_CHANGES.values())
    unknown = [name for name in names if name not in PHOTO_CHANGES]
    if unknown:
        known = ", ".join(PHOTO_CHANGES)
        raise PhotoChangeError(f"no photo change named {', '.join(unknown)}; the changes are {known}")
    return tuple(PHOTO_CHANGES[name] for name in names)


def pixel_change(name: str) -> Callable[[np.ndarray, float], np.ndarray]:
    """The change named, as a change of pixels alone (a picture's light or focus, given its tile
    width in pixels); one that moves the picture is refused, since a calibrated camera's frames
    must stay where the calibration has them."""
    (change,) = photo_changes([name])
    if change.pixels is None or change.geometry is not None:
        moving = ", ".join(c.name for c in PHOTO_CHANGES.values() if c.geometry is not None)
        raise PhotoChangeError(
            f"{name} changes no pixel or moves the picture (as {moving} do), not a change of light or focus"
        )
    return change.pixels
