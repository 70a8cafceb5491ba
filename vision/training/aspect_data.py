"""Training crops for the aspect judge (:mod:`vision.detect.aspect_judge`), no torch.

Each crop is one tile's :func:`~vision.detect.aspect_judge.aspect_crop` from a rendered picture
(square pixels: its true shape known) shown stretched by a known factor, drawn log-uniformly
from :data:`STRETCHES`; the target is the factor's logarithm. The crop's centre and size are
jittered as a detector's finds are. Pictures: seat views (standing hands, tiles standing
apart: label sets written by :mod:`vision.training.seat_view_set`) and overhead tables drawn
here in the detector's art mix.

``known_squeezes`` draws the recipe's check, where the truth is known and nothing is chosen by
it: seat views and tables drawn at a common frame shape and squeezed to 640×640 as a data
set's export does, each with the pixel aspect it was squeezed by.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from vision.detect.aspect_judge import INPUT_SIZE, aspect_crop
from vision.detect.still_photo import read_image
from vision.render.renderer import RenderOptions, render_table, with_art
from vision.render.seat_view import render_seat_view
from vision.training.detector_data import detector_training_art
from vision.training.real_photos import load_source_labels

#: The stretches trained on (least, most): the squeezes tried undo 9:16 to 16:9, so a picture
#: may be shown at up to 16/9 ÷ 9/16 ≈ 3.2 times its true width, or as little as its inverse.
STRETCHES: Final = (0.3, 3.3)
#: A find's centre is off the true one by up to this share of a tile length (normal σ) ...
CENTRE_JITTER: Final = 0.08
#: ... and its length off by a factor up to this (uniform, either way).
LENGTH_JITTER: Final = 1.2
#: Tiles used from one picture at most (a table holds ~100; the seat views 5-14).
TILES_PER_PICTURE: Final = 24
#: The frame shapes (width, height) of the known-squeeze check, each squeezed to a square.
FRAME_SHAPES: Final = ((1280, 720), (960, 720), (720, 960), (800, 800), (720, 1280))
#: The side of a squeezed picture (Roboflow's exports).
SQUEEZED_SIDE: Final = 640


@dataclass(frozen=True, slots=True)
class AspectSet:
    """Crops (N×size×size×3 uint8 BGR) and each one's log stretch."""

    crops: np.ndarray
    log_stretches: np.ndarray

    def __len__(self) -> int:
        return len(self.crops)

    @staticmethod
    def joined(sets: Sequence[AspectSet]) -> AspectSet:
        if not sets:
            return AspectSet(np.zeros((0, INPUT_SIZE, INPUT_SIZE, 3), np.uint8), np.zeros(0, np.float32))
        return AspectSet(
            np.concatenate([s.crops for s in sets]), np.concatenate([s.log_stretches for s in sets]).astype(np.float32)
        )


def stretched_crops(
    image: np.ndarray, boxes: Sequence[Sequence[float]], rng: np.random.Generator, copies: int
) -> AspectSet:
    """Up to :data:`TILES_PER_PICTURE` of the tiles boxed ``[x0, y0, x1, y1]`` in ``image``
    (square pixels), each cut ``copies`` times at a stretch drawn from :data:`STRETCHES`."""
    crops, targets = [], []
    for index in rng.permutation(len(boxes))[:TILES_PER_PICTURE]:
        x0, y0, x1, y1 = (float(v) for v in boxes[index])
        width, height = x1 - x0, y1 - y0
        for _ in range(copies):
            log_stretch = rng.uniform(np.log(STRETCHES[0]), np.log(STRETCHES[1]))
            stretch = float(np.exp(log_stretch))
            tile_long = max(stretch * width, height) * rng.uniform(1 / LENGTH_JITTER, LENGTH_JITTER)
            centre = np.array([(x0 + x1) / 2 * stretch, (y0 + y1) / 2]) + rng.normal(0, CENTRE_JITTER * tile_long, 2)
            crops.append(aspect_crop(image, centre, tile_long, stretch))
            targets.append(log_stretch)
    if not crops:
        return AspectSet.joined([])
    return AspectSet(np.stack(crops), np.array(targets, np.float32))


def label_set_crops(labels_path: Path, seed: int, copies: int) -> AspectSet:
    """:func:`stretched_crops` of every picture of a label set (e.g. seat views) with boxes."""
    document = load_source_labels(labels_path)
    rng = np.random.default_rng(seed)
    sets = []
    for name, entries in document["images"].items():
        boxes = [entry["box"] for entry in entries if "box" in entry]
        if boxes:
            sets.append(stretched_crops(read_image(labels_path.parent / name), boxes, rng, copies))
    return AspectSet.joined(sets)


def table_crops(seeds: range, size: tuple[int, int] = (1280, 720)) -> AspectSet:
    """:func:`stretched_crops` (one each) of rendered tables at 1.0-2.9 px/mm in the detector's art mix."""
    sets = []
    for seed in seeds:
        options = with_art(RenderOptions(size=size, px_per_mm=(1.0, 2.9)), detector_training_art(seed))
        table = render_table(seed, options)
        boxes = [(*t.corners.min(axis=0), *t.corners.max(axis=0)) for t in table.truths]
        sets.append(stretched_crops(table.image, boxes, np.random.default_rng(seed), 1))
    return AspectSet.joined(sets)


@dataclass(frozen=True, slots=True)
class SqueezedPicture:
    """A rendered picture squeezed to a square, and the pixel aspect that undoes it."""

    image: np.ndarray
    pixel_aspect: float
    seed: int


def known_squeezes(seeds: range) -> list[SqueezedPicture]:
    """Seat views (every other one with the tiles standing apart) and, one in three, overhead
    tables, drawn at :data:`FRAME_SHAPES` in turn and squeezed to a square."""
    pictures = []
    for index, seed in enumerate(seeds):
        width, height = FRAME_SHAPES[index % len(FRAME_SHAPES)]
        if index % 3 == 2:
            options = with_art(RenderOptions(size=(width, height), px_per_mm=(1.2, 3.5)), detector_training_art(seed))
            image = render_table(seed, options).image
        else:
            image = render_seat_view(seed, (width, height), scattered=index % 2 == 0).image
        squeezed = cv2.resize(image, (SQUEEZED_SIDE, SQUEEZED_SIDE), interpolation=cv2.INTER_AREA)
        pictures.append(SqueezedPicture(squeezed, width / height, seed))
    return pictures
