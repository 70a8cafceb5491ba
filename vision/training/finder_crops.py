"""Classifier training crops cut where the shipped pipeline finds the tiles of labelled pictures.

The classifier's photo crops (:mod:`vision.training.photo_crops`) are cut at the labelled boxes
with a little jitter, but at run time it reads the quads the detector finds, and on real
photographs those sit otherwise: seen from a seat a quad takes in some of the tile's top or
side, or covers half a face. Here every picture of a label set's split is read end to end as
``vision detect`` reads it (:func:`vision.detect.photo_reading.photo_reader`: the pixel aspect
chosen, the finds read and settled), each find matched to a label (centre within 0.4 tile
widths, box overlap at least 0.3, as the real-photo bench matches) is cut at its own quad, and
the crop is labelled with the label's tile. Which way up the face is, is not known (the
reading may be wrong): the recipe trains it either way up, as the box crops.

    .venv/bin/python -m vision.training.finder_crops --labels real/alanchoi/labels.json \\
        --labels seat-view/labels.json --split train --out finder-crops.npz

No torch here: the crops are made once and the recipe (``train.py --finder-crops``) reads them.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from table_app.progress import progress
from vision.classify.crops import CROP_SIZE, crop_tile, turned_half
from vision.detect.photo_reading import photo_reader
from vision.detect.still_photo import Detection, ImageReadError, read_image, shipped_learnt_finder
from vision.eval.label_eval import outside_ignored, tile_width
from vision.eval.label_file import LabelledTile, load_ignored, load_labels
from vision.eval.matching import DetectionLike, match_quads
from vision.onnx_models.model_file import ModelFileError
from vision.training.photo_crops import PhotoCrops
from vision.training.real_photos import RealPhotoError, images_in_split, load_source_labels

log = logging.getLogger(__name__)

#: A find counts for a label as on the real-photo bench: box overlap at least this.
MATCH_IOU = 0.3

Read = Callable[[np.ndarray], Sequence[Detection]]


def finder_crops(labels_path: Path, split: str, read: Read, seed: int) -> PhotoCrops:
    """One crop at each find of ``read`` that matches a label, in the originals of ``split``
    (``train`` or ``held-out``) of a built label set, each turned half at random; labelled
    with the matched label. A label file that cannot be read raises a ``RealPhotoError``, an
    image that cannot be read an ``ImageReadError``, each naming the file."""
    document = load_source_labels(labels_path)
    augmented = set(document.get("augmented", ()))
    names = [name for name in images_in_split(document, split) if name not in augmented]
    labels, ignored = load_labels(labels_path), load_ignored(labels_path)
    rng = np.random.default_rng(seed)
    images: list[np.ndarray] = []
    tiles: list[int] = []
    for name in progress(names, f"finder crops of {labels_path.parent.name}"):
        truths = labels.get(name, ())
        if not truths:
            continue
        image = read_image(labels_path.parent / name)
        found = outside_ignored(read(image), ignored.get(name, ()))
        for truth, quad in matched(truths, found):
            corners = np.asarray(quad, np.float64)
            images.append(crop_tile(image, turned_half(corners) if rng.random() < 0.5 else corners))
            tiles.append(truth.label)
    log.info("%s: %d finder crops of %d %s images", labels_path, len(images), len(names), split)
    if not images:
        return PhotoCrops(np.empty((0, CROP_SIZE[1], CROP_SIZE[0], 3), np.uint8), np.empty(0, np.int64))
    return PhotoCrops(np.stack(images), np.array(tiles, np.int64))


def matched(truths: Sequence[LabelledTile], found: Sequence[DetectionLike]) -> list[tuple[LabelledTile, np.ndarray]]:
    """Each label with the quad of the find matched to it, as the real-photo bench matches."""
    matches = match_quads([t.corners for t in truths], [d.corners for d in found], tile_width(truths), MATCH_IOU)
    return [(truths[m.truth], np.asarray(found[m.found].corners)) for m in matches]


def shipped_read(classifier_model: Path | None = None) -> Read:
    """``vision detect``'s reading with the shipped models (pixel aspect chosen, no hint);
    ``classifier_model``: another classifier (the finds' quads depend on it too: each find's
    lie, a doubtful find's re-cuts and the pixel aspect are settled by how its cuts read)."""
    from vision.classify.classifier import DEFAULT_MODEL, OnnxTileClassifier  # noqa: PLC0415 (loaded when run)
    from vision.detect.aspect_judge import OnnxAspectJudge  # noqa: PLC0415

    classifier = OnnxTileClassifier(classifier_model or DEFAULT_MODEL)
    reader = photo_reader(classifier, shipped_learnt_finder(half_octaves=False), judge=OnnxAspectJudge())
    return lambda image: reader(image).detections


def save_crops(crops: PhotoCrops, path: Path, sources: Sequence[Path], split: str) -> None:
    np.savez_compressed(
        path, images=crops.images, labels=crops.labels, sources=np.array([str(s) for s in sources]), split=split
    )


def load_crops(path: Path) -> PhotoCrops:
    """Crops saved by this module's command; a missing or damaged file is a ``ValueError`` naming it."""
    try:
        with np.load(path, allow_pickle=False) as saved:
            images, labels = np.asarray(saved["images"]), np.asarray(saved["labels"])
    except (OSError, KeyError, ValueError) as error:
        raise ValueError(f"finder crops {path}: not a file this module saved ({error})") from error
    if images.ndim != 4 or images.shape[1:] != (CROP_SIZE[1], CROP_SIZE[0], 3) or images.dtype != np.uint8:
        raise ValueError(f"finder crops {path}: images are {images.shape} {images.dtype}, not N×42×32×3 uint8")
    if labels.shape != (len(images),):
        raise ValueError(f"finder crops {path}: {len(labels)} labels for {len(images)} crops")
    return PhotoCrops(images, labels.astype(np.int64))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--labels", type=Path, action="append", required=True, help="a built label set (repeatable)")
    parser.add_argument("--split", default="train", choices=("train", "held-out"))
    parser.add_argument("--out", type=Path, required=True, help="the .npz the crops are saved to")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--classifier", type=Path, help="the classifier that reads the finds (default: shipped)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    try:
        read = shipped_read(args.classifier)
        sets = [finder_crops(path, args.split, read, args.seed + index) for index, path in enumerate(args.labels)]
    except (RealPhotoError, ImageReadError, ModelFileError) as error:
        print(f"finder crops: {error}", file=sys.stderr)
        return 1
    crops = PhotoCrops(np.concatenate([s.images for s in sets]), np.concatenate([s.labels for s in sets]))
    save_crops(crops, args.out, args.labels, args.split)
    print(f"{len(crops.labels)} crops to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
