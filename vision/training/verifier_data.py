"""The tile verifier's training crops: the detector's own finds, each called a tile or not.

The verifier (:mod:`vision.classify.verifier`) sees what the detector gives it at run time,
so its examples are the detector's finds (with the verifier off) on labelled images:

- a find matched to a labelled tile (``vision eval``'s matching: centre within 0.4 tile
  widths, box IoU at least 0.3) is a **tile**;
- a find whose centre is farther than 0.4 tile widths from every labelled tile is **not a
  tile**: a book spine, a stick, a box across two tiles of a row (its centre on their seam);
- a find near a labelled tile but much shorter or longer than it is **not a tile**: a
  glyph of the face (one circle of a 6p reads like a 1p), or a box over several tiles;
- anything else is left out: a second find on a tile already matched is neither clearly right
  nor clearly wrong; nor is a find inside a source's ``ignore`` box (flowers, seasons, a face
  the source does not name).

Beside the finds, each labelled tile gives ``parts`` crops of a piece of its own face (a
third to two thirds of its size, anywhere on it) as **not a tile**: the detector's finer looks
fire on such pieces, and the verifier must tell a glyph from a face.

Images listed as ``negatives`` in a label set have no tile: every find there is not a tile.
Rendered tables (:func:`mine_rendered`) add the product's own view with exact corners.
No torch here: the data and their tests run without the ``train`` extra.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

import cv2
import numpy as np

from vision.classify.crops import CROP_SIZE
from vision.classify.verifier import verifier_crop
from vision.eval.matching import match_quads
from vision.find.finder import FindResult
from vision.geometry import long_edge
from vision.training.dataset import jittered_corners
from vision.training.photo_frames import box_corners
from vision.training.processes import starmap_jobs
from vision.training.real_photos import images_in_split, load_source_labels

log = logging.getLogger(__name__)

MATCH_IOU: Final = 0.3
NEAR: Final = 0.4  # tile widths: a find nearer a labelled tile than this is a negative only by its size
PART_AT_MOST: Final = 0.65  # a find near a tile but at most this share of its length is a part of it
WHOLE_AT_LEAST: Final = 1.6  # ... and one at least this many times its length covers more than one tile
PART_SCALE: Final = (0.33, 0.67)
VALIDATION_SHARE: Final = 0.15  # of photograph groups (by a hash of the group's name)


class Finder(Protocol):
    def find(self, image: np.ndarray) -> FindResult: ...


@dataclass(frozen=True, eq=False)
class VerifierCrops:
    images: np.ndarray  # N×H×W×3 uint8 BGR, the verifier's crops
    tiles: np.ndarray  # N bool: a tile's face
    validation: np.ndarray  # N bool: from a group kept for choosing the threshold

    @staticmethod
    def empty() -> VerifierCrops:
        return VerifierCrops(
            np.empty((0, CROP_SIZE[1], CROP_SIZE[0], 3), np.uint8), np.empty(0, bool), np.empty(0, bool)
        )

    @staticmethod
    def joined(parts: Iterable[VerifierCrops]) -> VerifierCrops:
        parts = [p for p in parts if len(p.tiles)]
        if not parts:
            return VerifierCrops.empty()
        return VerifierCrops(
            np.concatenate([p.images for p in parts]),
            np.concatenate([p.tiles for p in parts]),
            np.concatenate([p.validation for p in parts]),
        )


def is_validation_group(group: str) -> bool:
    """A photograph group kept out of the verifier's training, to choose its threshold."""
    return int(hashlib.sha256(group.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF < VALIDATION_SHARE


def calls(
    truths: Sequence[np.ndarray],
    found: Sequence[np.ndarray],
    ignore: Sequence[tuple[float, float, float, float]] = (),
) -> list[bool | None]:
    """Per find: True (a tile), False (not a tile) or None (left out), as the module says."""
    if not found:
        return []
    result: list[bool | None] = [None] * len(found)
    if not truths:
        width = 1.0
        nearest = np.full(len(found), np.inf)
        nearest_long = np.ones(len(found))
    else:
        width = float(np.median([min(np.linalg.norm(t[1] - t[0]), np.linalg.norm(t[3] - t[0])) for t in truths]))
        truth_centres = np.array([t.mean(axis=0) for t in truths])
        found_centres = np.array([f.mean(axis=0) for f in found])
        distances = np.linalg.norm(found_centres[:, None] - truth_centres[None], axis=2)
        nearest = distances.min(axis=1)
        nearest_long = np.array([long_edge(truths[int(i)]) for i in distances.argmin(axis=1)])
        for match in match_quads(list(truths), list(found), width, MATCH_IOU):
            result[match.found] = True
    for index, quad in enumerate(found):
        if result[index] is not None:
            continue
        x, y = quad.mean(axis=0)
        if any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in ignore):
            continue
        far = nearest[index] > NEAR * width
        host = nearest_long[index]
        if far or not PART_AT_MOST * host < long_edge(quad) < WHOLE_AT_LEAST * host:
            result[index] = False
    return result


def part_quads(truths: Sequence[np.ndarray], rng: np.random.Generator, parts: int) -> list[np.ndarray]:
    """``parts`` pieces of each labelled face: a random share of its size, anywhere inside it."""
    pieces = []
    for truth in truths:
        centre = truth.mean(axis=0)
        for _ in range(parts):
            scale = rng.uniform(*PART_SCALE)
            room = (1.0 - scale) / 2
            shift = (truth[1] - truth[0]) * rng.uniform(-room, room) + (truth[3] - truth[0]) * rng.uniform(-room, room)
            pieces.append((truth - centre) * scale + centre + shift)
    return pieces


def crops_of_image(
    image: np.ndarray,
    quads: Sequence[np.ndarray],
    called: Sequence[bool | None],
    rng: np.random.Generator,
    *,
    copies: int,
    jitter: float = 0.04,
) -> tuple[list[np.ndarray], list[bool]]:
    """The first crop of each called find as found, the rest jittered (the detector's quads wobble)."""
    images, tiles = [], []
    for quad, call in zip(quads, called, strict=True):
        if call is None:
            continue
        for copy in range(copies):
            corners = quad if copy == 0 else jittered_corners(quad, rng, jitter)
            images.append(verifier_crop(image, corners))
            tiles.append(call)
    return images, tiles


def mine_label_set(labels_path: Path, finder: Finder, seed: int, copies: int = 2, parts: int = 1) -> VerifierCrops:
    """The called finds of every training-split image of a label set (``vision.training.real_photos``
    or ``seat_view_set``), ``copies`` crops of each, and ``parts`` pieces of each labelled face.
    A label file that cannot be read raises a ``RealPhotoError`` naming it."""
    document = load_source_labels(labels_path)
    negatives = set(document.get("negatives", ()))
    rng = np.random.default_rng(seed)
    names = images_in_split(document, "train")
    images: list[np.ndarray] = []
    tiles: list[bool] = []
    validation: list[bool] = []
    for index, name in enumerate(names):
        image = cv2.imread(str(labels_path.parent / name))
        if image is None:
            raise ValueError(f"{labels_path.parent / name}: not a readable image")
        truths = [box_corners(_box(t["box"])) for t in document["images"].get(name, ())]
        if name in negatives and truths:
            raise ValueError(f"{labels_path}: {name} is listed as a negative but has tiles")
        ignore = [_box(b) for b in document.get("ignore", {}).get(name, ())]
        quads = [tile.corners for tile in finder.find(image).tiles]
        crops, called = crops_of_image(image, quads, calls(truths, quads, ignore), rng, copies=copies)
        pieces = part_quads(truths, rng, parts)
        crops += [verifier_crop(image, piece) for piece in pieces]
        called += [False] * len(pieces)
        images += crops
        tiles += called
        validation += [is_validation_group(str(document["groups"][name]))] * len(crops)
        if index % 100 == 99:
            log.info("%s: %d/%d images, %d crops", labels_path.parent.name, index + 1, len(names), len(images))
    if not images:
        return VerifierCrops.empty()
    return VerifierCrops(np.stack(images), np.array(tiles, bool), np.array(validation, bool))


RENDERED_PX_PER_MM: Final = (0.9, 2.9)  # the detector's training scales, a little smaller tiles too


def mine_rendered(
    seeds: range, finder: Finder, seed: int, copies: int = 2, parts: int = 1, *, jobs: int = 1
) -> VerifierCrops:
    """The called finds on rendered tables (the detector's training mix of art), and ``parts``
    pieces of each face; ``jobs`` processes (the crops are the same whatever the count)."""
    global _forked_finder  # noqa: PLW0603 - an onnxruntime session cannot be pickled: forked workers inherit it
    work = [(table_seed, seed + table_seed, copies, parts) for table_seed in seeds]
    _forked_finder = finder
    try:
        tables = starmap_jobs(_mine_table, work, jobs)
    finally:
        _forked_finder = None
    return VerifierCrops.joined(tables)


_forked_finder: Finder | None = None


def _mine_table(table_seed: int, seed: int, copies: int, parts: int) -> VerifierCrops:
    from vision.render.renderer import RenderOptions, render_table, with_art  # noqa: PLC0415 - renders only here
    from vision.training.detector_data import FRAME_SIZE, detector_training_art  # noqa: PLC0415

    finder = _forked_finder
    assert finder is not None
    rng = np.random.default_rng(seed)
    options = with_art(RenderOptions(FRAME_SIZE, px_per_mm=RENDERED_PX_PER_MM), detector_training_art(table_seed))
    table = render_table(table_seed, options)
    truths = [t.corners for t in table.truths]
    quads = [tile.corners for tile in finder.find(table.image).tiles]
    crops, called = crops_of_image(table.image, quads, calls(truths, quads), rng, copies=copies)
    pieces = part_quads(truths, rng, parts)
    crops += [verifier_crop(table.image, piece) for piece in pieces]
    called += [False] * len(pieces)
    if not crops:
        return VerifierCrops.empty()
    validation = is_validation_group(f"table-{table_seed}")
    return VerifierCrops(np.stack(crops), np.array(called, bool), np.full(len(crops), validation))


def _box(values: Sequence[float]) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (float(v) for v in values)
    return x0, y0, x1, y1
