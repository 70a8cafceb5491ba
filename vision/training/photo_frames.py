"""Training frames for the tile-centre detector from real photographs with box labels.

A photograph's boxes (:mod:`vision.training.real_photos`) become the same target maps the
rendered frames have (:func:`vision.training.detector_data.target_maps`), with two
differences, because a box says less than a renderer's exact corners:

- no sideways target (NaN: the loss skips it): a photo's loose tiles have no row to lie
  across, and a box does not say which way a tile in a row lies; except in a label set that
  says ``"upright": true`` (every tile stands or lies along its row or in no row, none across
  one: the rendered seat views), whose tiles are taught not sideways. Without it the
  detector called one standing tile in ten of a held-out seat-view source sideways;
- no size or axis target (NaN) where the box is loose: Roboflow's augmented copies (a
  rotated tile's box is the box of the rotated face) and near-square boxes (a tile turned
  about 45°). Their centres still teach the heat map.

Each photograph is scaled so that its median tile comes out as long as the rendered tiles
the detector learns from (:data:`POSITIVE_LONG_PX`), and cut to a fixed-size frame around a
random point. One in three is also cut **zoomed in** (tiles 2.5-6 times that long) with an
empty heat map: at run time the frame is looked at on a pyramid of scales
(:mod:`vision.find.learnt`), and at the scales finer than a tile's own the detector must
not fire on its glyphs, edges or half faces. A label set may also list ``negatives``: photos
with no tile at all (a room, sticks, dice, a hand), cut at any scale with an empty heat map.

What lies beyond a scaled photograph's edges (``context``): ``"black"`` (the shipped
detector's training); ``"mirror"``, the photograph's mirror images (its tiles mirrored taught
as tiles, a tile its edge cuts taught neither way); or ``"scene"``, one of the tile-free
pictures its label sets list (:func:`context_scenes`). Scaled so that its tiles are 8-22 px,
a phone photograph is often smaller than a frame, and black all round teaches real tiles only
as a small picture on black: in a large frame with more of the scene around them
(``bench_photo_changes --change wider-view``, or the held-out photographs side by side in one
frame) the shipped detector finds far fewer of the same tiles at the same scale.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from vision.geometry import mapped_box, reflected_copy
from vision.training.detector_data import TARGET_CHANNELS, target_maps
from vision.training.real_photos import images_in_split, load_source_labels, tile_free_pictures

log = logging.getLogger(__name__)

FRAME_PX: Final = 192  # photo frames are cut to this square (windows of 128 are drawn from it)
POSITIVE_LONG_PX: Final = (8.0, 22.0)  # a tile's long edge after scaling, as the renders show them
ZOOMED_LONG_PX: Final = (40.0, 90.0)  # tiles this long are parts of the view the detector must ignore
ZOOMED_SHARE: Final = 1 / 3
LOOSE_ASPECT: Final = 1.25  # a box squarer than this is a turned tile: its size and axis are not known
_DATA_VERSION: Final = "p2"
#: What a frame shows beyond a scaled photograph's edges (module doc).
CONTEXTS: Final = ("black", "mirror", "scene")


@dataclass(frozen=True)
class BoxTruth:
    """What :func:`target_maps` reads of a truth: the face's corners (portrait) and its lie."""

    corners: np.ndarray
    sideways: bool = False


@dataclass(frozen=True, eq=False)
class PhotoFrames:
    inputs: np.ndarray  # N×FRAME_PX×FRAME_PX×3 uint8 BGR
    targets: np.ndarray  # N×9×(FRAME_PX/2)×(FRAME_PX/2) float16; NaN where a target is unknown


def box_corners(box: tuple[float, float, float, float]) -> np.ndarray:
    """A box's corners in portrait order: the long edges upright (turned a quarter when wide)."""
    x0, y0, x1, y1 = box
    if y1 - y0 >= x1 - x0:
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    # Wide: the face's up points along +x (top-left is the box's bottom-left corner).
    return np.array([[x0, y1], [x0, y0], [x1, y0], [x1, y1]], np.float32)


def is_loose(box: tuple[float, float, float, float]) -> bool:
    """A box too near square to say a tile's size and axis (a tile turned about 45°)."""
    width, height = box[2] - box[0], box[3] - box[1]
    return max(width, height) / max(min(width, height), 1e-6) < LOOSE_ASPECT


def photo_targets(
    shape: tuple[int, int],
    boxes: list[tuple[float, float, float, float]],
    scale: float,
    loose: bool,
    *,
    upright: bool = False,
) -> np.ndarray:
    """Target maps of one scaled photo; sideways unknown everywhere (not sideways where
    ``upright``), size and axis unknown on loose boxes."""
    maps = target_maps(shape, tuple(BoxTruth(box_corners(b)) for b in boxes), scale).astype(np.float32)
    tile_cells = maps[8] > 0
    if not upright:
        maps[7][tile_cells] = np.nan
    for box in boxes:
        if loose or is_loose(box):
            x0, y0, x1, y1 = (int(v * scale / 2) for v in box)  # cells (stride 2)
            region = (slice(max(0, y0), y1 + 1), slice(max(0, x0), x1 + 1))
            for channel in (3, 4, 5, 6):
                maps[channel][region][tile_cells[region]] = np.nan
    return maps.astype(np.float16)


def frames_of_photo(
    image: np.ndarray,
    boxes: list[tuple[float, float, float, float]],
    loose: bool,
    rng: np.random.Generator,
    crops: int,
    *,
    upright: bool = False,
    context: str = "black",
    scenes: Sequence[np.ndarray] = (),
) -> list[tuple[np.ndarray, np.ndarray]]:
    """``crops`` positive frames (and perhaps one zoomed-in negative) of one photo; ``upright``:
    its tiles are known to lie along their rows (:func:`photo_targets`); ``context``: what lies
    beyond its edges (:data:`CONTEXTS`; ``"scene"`` takes one of ``scenes``)."""
    longs = [max(b[2] - b[0], b[3] - b[1]) for b in boxes]
    if not longs:
        return []
    median = float(np.median(longs))
    cut = functools.partial(_cut, image, boxes, loose=loose, rng=rng, upright=upright, context=context, scenes=scenes)
    out = [cut(rng.uniform(*POSITIVE_LONG_PX) / median, negative=False) for _ in range(crops)]
    if rng.random() < ZOOMED_SHARE:
        out.append(cut(rng.uniform(*ZOOMED_LONG_PX) / median, negative=True))
    return out


def _negative_scale(rng: np.random.Generator) -> float:
    """How much a photo with no tile is scaled for a frame: anywhere from a fifth to whole size
    (log-uniform), as the run time's pyramid looks at it."""
    return float(np.exp(rng.uniform(np.log(0.2), 0.0)))


def _cut(
    image: np.ndarray,
    boxes: list[tuple[float, float, float, float]],
    scale: float,
    loose: bool,
    rng: np.random.Generator,
    *,
    negative: bool,
    upright: bool = False,
    context: str = "black",
    scenes: Sequence[np.ndarray] = (),
) -> tuple[np.ndarray, np.ndarray]:
    if context not in CONTEXTS:
        raise ValueError(f"no photo context {context!r}: one of {', '.join(CONTEXTS)}")
    if context == "scene" and not scenes:
        raise ValueError("the scene context needs tile-free scenes to set photographs in")
    height, width = image.shape[:2]
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    scaled = cv2.resize(image, size, interpolation=interpolation)
    unknown: list[tuple[float, float, float, float]] = []
    if context == "black":
        # A random FRAME_PX square of the scaled photo (on the stride grid), black beyond its edges.
        x = int(rng.integers(0, max(1, size[0] - FRAME_PX) // 2 + 1)) * 2
        y = int(rng.integers(0, max(1, size[1] - FRAME_PX) // 2 + 1)) * 2
        pixels = np.zeros((FRAME_PX, FRAME_PX, 3), np.uint8)
        _paste(pixels, scaled, x, y)
    elif context == "mirror":
        x, y = _corner_over(size, rng)
        pixels, boxes, unknown = _among_mirrors(scaled, boxes, scale, x, y)
    else:
        pixels = _scene_part(scenes, rng)
        x, y = _corner_over(size, rng)
        _paste(pixels, scaled, x, y)
    if negative:
        return pixels, np.zeros((TARGET_CHANNELS, FRAME_PX // 2, FRAME_PX // 2), np.float16)
    shifted = [(b[0] - x / scale, b[1] - y / scale, b[2] - x / scale, b[3] - y / scale) for b in boxes]
    maps = photo_targets((FRAME_PX, FRAME_PX), shifted, scale, loose, upright=upright)
    # A tile the photo's edge cuts meets its own mirror image there: a shape that is neither a
    # tile nor no tile, taught as neither (its heat unknown).
    for box in unknown:
        x0, y0, x1, y1 = (int((v - at / scale) * scale / 2) for v, at in zip(box, (x, y, x, y), strict=True))
        maps[0][max(0, y0) : max(0, y1 + 1), max(0, x0) : max(0, x1 + 1)] = np.nan
    return pixels, maps


def _corner_over(size: tuple[int, int], rng: np.random.Generator) -> tuple[int, int]:
    """A frame's corner on the stride grid, the frame taking in at least a little of a scaled
    photo of ``size`` (width, height) and reaching beyond its edges."""
    x = int(rng.integers(-FRAME_PX // 2, max(1, size[0] - FRAME_PX // 2)) // 2) * 2
    y = int(rng.integers(-FRAME_PX // 2, max(1, size[1] - FRAME_PX // 2)) // 2) * 2
    return x, y


def _paste(pixels: np.ndarray, scaled: np.ndarray, x: int, y: int) -> None:
    """The part of ``scaled`` a frame with its corner at (``x``, ``y``) shows, drawn on it."""
    part = scaled[max(0, y) : y + FRAME_PX, max(0, x) : x + FRAME_PX]
    pixels[max(0, -y) : max(0, -y) + part.shape[0], max(0, -x) : max(0, -x) + part.shape[1]] = part


def _among_mirrors(
    scaled: np.ndarray, boxes: list[tuple[float, float, float, float]], scale: float, x: int, y: int
) -> tuple[np.ndarray, list[tuple[float, float, float, float]], list[tuple[float, float, float, float]]]:
    """The frame at (``x``, ``y``) over the scaled photo (``scaled``; its boxes in the photo's
    own pixels, ``boxes``) continued by its mirror images (as ``cv2.BORDER_REFLECT``), and the
    boxes it shows, mirrored with them: those to teach, and those of tiles the photo's edge
    cuts (:func:`cut_by_edge`), to teach neither way."""
    height, width = scaled.shape[:2]
    # Enough copies a side that a frame anywhere over the photo lies inside them.
    copies_x, copies_y = -(-FRAME_PX // width) + 1, -(-FRAME_PX // height) + 1
    tiled = np.pad(scaled, ((copies_y * height,) * 2, (copies_x * width,) * 2, (0, 0)), mode="symmetric")
    left, top = x + copies_x * width, y + copies_y * height
    pixels = np.ascontiguousarray(tiled[top : top + FRAME_PX, left : left + FRAME_PX])
    photo_w, photo_h = width / scale, height / scale  # the photo's own size, where its boxes are
    view = (x / scale, y / scale, (x + FRAME_PX) / scale, (y + FRAME_PX) / scale)  # in the photo's pixels
    taught: list[tuple[float, float, float, float]] = []
    unknown: list[tuple[float, float, float, float]] = []
    for down in range(-copies_y, copies_y + 1):
        for across in range(-copies_x, copies_x + 1):
            for box in boxes:
                b = mapped_box(reflected_copy(across, down, photo_w, photo_h), box)
                if b[2] > view[0] and b[3] > view[1] and b[0] < view[2] and b[1] < view[3]:
                    (unknown if cut_by_edge(box, photo_w, photo_h) else taught).append(b)
    return pixels, taught, unknown


def _scene_part(scenes: Sequence[np.ndarray], rng: np.random.Generator) -> np.ndarray:
    """A FRAME_PX square of one of ``scenes`` scaled at random (down to where its shorter side
    is a frame's)."""
    scene = scenes[int(rng.integers(len(scenes)))]
    least = FRAME_PX / min(scene.shape[:2])
    factor = float(np.exp(rng.uniform(np.log(least), np.log(max(least, 1.0)))))
    around = cv2.resize(scene, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    sy = int(rng.integers(0, max(1, around.shape[0] - FRAME_PX + 1)))
    sx = int(rng.integers(0, max(1, around.shape[1] - FRAME_PX + 1)))
    pixels = np.zeros((FRAME_PX, FRAME_PX, 3), np.uint8)
    _paste(pixels, around, sx, sy)
    return pixels


def cut_by_edge(box: tuple[float, float, float, float], width: float, height: float) -> bool:
    """Whether a box touches (within a pixel) the edge of its ``width`` × ``height`` photo:
    the labeller boxed the part of a tile the frame shows."""
    return box[0] <= 1 or box[1] <= 1 or box[2] >= width - 1 or box[3] >= height - 1


def build_photo_frames(
    labels_path: Path,
    seed: int,
    crops: int = 2,
    augmented_crops: int = 1,
    *,
    context: str = "black",
    scenes: Sequence[Path] = (),
) -> PhotoFrames:
    """Frames of every training-split image of a built source (``labels.json`` of
    :mod:`vision.training.real_photos`): ``crops`` per original, ``augmented_crops`` per copy;
    ``scenes``: the tile-free pictures the ``"scene"`` context sets photographs in (a source's
    own tile-free pictures are cut alone, as on black). A label file that cannot be read raises
    a ``RealPhotoError`` naming it."""
    around = [_read(path) for path in scenes]
    document = load_source_labels(labels_path)
    augmented = set(document.get("augmented", ()))
    rng = np.random.default_rng(seed)
    inputs, targets = [], []
    names = images_in_split(document, "train")
    negatives = set(document.get("negatives", ()))  # images with no tile in them at all
    upright = document.get("upright", False)  # no tile lies across a row (the seat views)
    if not isinstance(upright, bool):
        raise ValueError(f'{labels_path}: "upright" must be true or false, not {upright!r}')
    alone = "black" if context == "scene" else context  # a tile-free picture is no photograph to set in a scene
    for index, name in enumerate(names):
        image = _read(labels_path.parent / name)
        boxes = [_box(t["box"]) for t in document["images"][name]]
        boxes += [_box(b) for b in document.get("ignore", {}).get(name, ())]  # not riichi tiles, but tiles
        loose = name in augmented
        if name in negatives:
            if boxes:
                raise ValueError(f"{labels_path}: {name} is listed as a negative but has tiles")
            for _ in range(crops):
                inputs.append(_cut(image, [], _negative_scale(rng), False, rng, negative=True, context=alone)[0])
                targets.append(np.zeros((TARGET_CHANNELS, FRAME_PX // 2, FRAME_PX // 2), np.float16))
            continue
        crops_here = augmented_crops if loose else crops
        for pixels, maps in frames_of_photo(
            image, boxes, loose, rng, crops_here, upright=upright, context=context, scenes=around
        ):
            inputs.append(pixels)
            targets.append(maps)
        if index % 500 == 499:
            log.info("photo frames: %d/%d images", index + 1, len(names))
    return PhotoFrames(np.stack(inputs), np.stack(targets))


def _read(path: Path) -> np.ndarray:
    image = cv2.imread(str(path))
    if image is None:
        raise ValueError(f"{path}: not a readable image")
    return image


def _box(values: list[float]) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (float(v) for v in values)
    return x0, y0, x1, y1


def context_scenes(context: str, label_sets: Sequence[Path]) -> list[Path]:
    """The tile-free pictures ``context`` sets photographs among: for ``"scene"`` those the
    label sets list as negatives (none stops the run with one line, before any frame is drawn);
    for the other contexts none."""
    if context != "scene":
        return []
    scenes = tile_free_pictures(label_sets)
    if not scenes:
        raise SystemExit(
            "--photo-context scene sets photographs among tile-free pictures, and none of the --photos "
            "sets lists any (a set written by seat_view_set --negatives does)"
        )
    return scenes


def cached_photo_frames(
    labels_path: Path,
    seed: int,
    cache: str | None,
    crops: int = 2,
    augmented_crops: int = 1,
    *,
    context: str = "black",
    scenes: Sequence[Path] = (),
) -> PhotoFrames:
    """:func:`build_photo_frames`, kept in ``cache`` (named by the source, seed, crops and
    context) when given."""
    if cache is None:
        return build_photo_frames(labels_path, seed, crops, augmented_crops, context=context, scenes=scenes)
    counts = "" if (crops, augmented_crops) == (2, 1) else f"-{crops}x{augmented_crops}"
    around = "" if context == "black" else f"-{context}"
    if scenes:  # which scenes a photograph was set in is part of what the frames are
        around += "-" + hashlib.sha256("\n".join(str(p.resolve()) for p in scenes).encode()).hexdigest()[:8]
    path = Path(cache) / f"photos-{_DATA_VERSION}-{labels_path.parent.name}-{seed}{counts}{around}.npz"
    if path.is_file():
        stored = np.load(path)
        return PhotoFrames(stored["inputs"], stored["targets"])
    frames = build_photo_frames(labels_path, seed, crops, augmented_crops, context=context, scenes=scenes)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path.with_suffix(".tmp.npz"), inputs=frames.inputs, targets=frames.targets)
    path.with_suffix(".tmp.npz").rename(path)
    return frames
