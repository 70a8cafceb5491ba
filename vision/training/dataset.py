"""Training crops: tiles cut from rendered tables with the jitter a finder's corners have.

Each crop is labelled with its face label and whether it was cut upside down, so the model
learns to read a tile and to tell which short edge is its top.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from vision.classify.crops import CROP_SIZE, crop_tile, turned_half
from vision.classify.labels import BACK_LABEL, is_red_label
from vision.detect.still_photo import shipped_learnt_finder
from vision.eval.matching import match_quads
from vision.geometry import angle_difference, angle_of_corners
from vision.render.renderer import RenderOptions, TileTruth, render_table, with_art
from vision.render.tile_art import ArtStyle
from vision.render.tile_palette import Palette, palette_of_table
from vision.training.face_mix import NO_FACE_STYLES, FaceMix
from vision.training.outliers import noise_crops, outlier_crops

log = logging.getLogger(__name__)

TRAIN_RENDER = RenderOptions(size=(1280, 720), px_per_mm=(1.0, 2.4))


def _no_crops() -> np.ndarray:
    return np.empty((0, CROP_SIZE[1], CROP_SIZE[0], 3), np.uint8)


@dataclass(frozen=True, eq=False)
class CropSet:
    images: np.ndarray  # N×H×W×3 uint8 BGR
    labels: np.ndarray  # N int64 face labels 0..37
    flipped: np.ndarray  # N bool: cut upside down
    outliers: np.ndarray = field(default_factory=_no_crops)
    """M×H×W×3 uint8 BGR crops that hold no single whole tile (:mod:`vision.training.outliers`)."""


def training_art(seed: int) -> ArtStyle | Palette:
    """The art of training table ``seed``: of every eight tables, three regular, one
    regular-dark, four in a palette of their own (drawn from the seed)."""
    turn = seed % 8
    if turn < 3:
        return ArtStyle.REGULAR
    if turn == 3:
        return ArtStyle.REGULAR_DARK
    return palette_of_table(seed)


def jittered_corners(corners: np.ndarray, rng: np.random.Generator, amount: float) -> np.ndarray:
    """Corners moved the way a finder misses them: a shift, a scale, and each corner a little."""
    height = float(np.linalg.norm(corners[0] - corners[3]))
    centre = corners.mean(axis=0)
    scale = rng.uniform(1.0 - amount, 1.0 + 1.5 * amount)  # finders tend to include the tile's side
    shift = rng.normal(0, amount * height * 0.5, size=2)
    wobble = rng.normal(0, amount * height * 0.3, size=(4, 2))
    return np.asarray((corners - centre) * scale + centre + shift + wobble)


def render_crops(
    seeds: range,
    art_of_seed: Callable[[int], ArtStyle | Palette] | None = None,
    *,
    jitter: float = 0.06,
    back_keep: float = 0.3,
    red_copies: int = 4,
    finder_crops: bool = False,
    outliers: bool = False,
    options: RenderOptions = TRAIN_RENDER,
    mix: FaceMix = NO_FACE_STYLES,
) -> CropSet:
    """Crops from one table per seed; backs thinned out (walls are full of them), red fives
    cut several times with different jitter (a set has only three). ``art_of_seed``: each
    table's art style or palette (default: the regular style). With ``finder_crops``, also
    the crops the learnt tile finder (the one ``vision detect`` uses) cuts, labelled by the
    true tile they match: the classifier then learns the finder's own misplacements. With
    ``outliers``, also crops of each table that hold no single whole tile, and as many noise
    crops as tables."""
    images, labels, flips, strays = [], [], [], []
    for seed in seeds:
        rng = np.random.default_rng(seed + 1_000_003)
        art = art_of_seed(seed) if art_of_seed is not None else ArtStyle.REGULAR
        table = render_table(seed, with_art(options, mix.art(seed, art), mix.strokes(seed)))
        for truth in table.truths:
            if truth.label == BACK_LABEL and rng.random() > back_keep:
                continue
            for _ in range(red_copies if is_red_label(truth.label) else 1):
                corners = jittered_corners(truth.corners, rng, jitter)
                flip = bool(rng.random() < 0.5)
                images.append(crop_tile(table.image, turned_half(corners) if flip else corners))
                labels.append(truth.label)
                flips.append(flip)
        if finder_crops:
            for label, quad, flip in _finder_crops(table.image, table.truths):
                if label == BACK_LABEL and rng.random() > back_keep:
                    continue
                images.append(crop_tile(table.image, quad))
                labels.append(label)
                flips.append(flip)
        if outliers:
            strays += outlier_crops(table.image, table.truths, rng)
    if outliers:
        strays += list(noise_crops(len(seeds), np.random.default_rng(seeds.start + 7_000_001)))
    log.info("rendered %d crops and %d outliers from %d tables", len(images), len(strays), len(seeds))
    outlier_images = np.stack(strays) if strays else _no_crops()
    return CropSet(np.stack(images), np.array(labels, np.int64), np.array(flips, bool), outlier_images)


def _finder_crops(image: np.ndarray, truths: tuple[TileTruth, ...]) -> list[tuple[int, np.ndarray, bool]]:
    """(label, the finder's quad, whether that quad reads the face upside down) for each found
    tile that matches a true one; quads turned a quarter from the truth are left out."""
    if not truths:
        return []
    found = shipped_learnt_finder(half_octaves=False).find(image).tiles
    width = float(np.median([np.linalg.norm(t.corners[1] - t.corners[0]) for t in truths]))
    crops = []
    for match in match_quads([t.corners for t in truths], [f.corners for f in found], width):
        truth, quad = truths[match.truth], found[match.found].corners
        turn = angle_difference(angle_of_corners(quad), truth.angle)
        if 45 < turn < 135:
            continue
        crops.append((truth.label, quad, turn >= 135))
    return crops
