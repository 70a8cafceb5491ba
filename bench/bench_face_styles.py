"""Face styles (docs/vision.md, "Face styles"): the shipped classifier on tables drawn with
thicker and thinner strokes and in a tile set's enrolled faces.

    .venv/bin/python bench/bench_face_styles.py [--tables 8] [--out DIR]

For each art (the held-out ``black`` style, the ``regular`` style, and faces cut from a
rendered enrollment photo of a set in a palette never trained on, as ``vision enroll --layout
rows`` keeps them) and each stroke change (-2 .. +2 art pixels on each side), prints the ink's
share of the faces (how much the change grew or shrank it) and the classifier's 34-kind
accuracy (the back a 35th class) on crops at the true corners of every tile of ``--tables``
held-out tables, half of them read upside down, with the time to restroke one art. ``--out``
also writes a table and a seat view per art and change, to look at.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from vision.classify.classifier import OnnxTileClassifier
from vision.classify.crops import crop_tile, turned_half
from vision.classify.labels import BACK_LABEL, LABEL_COUNT, kind_of_label
from vision.enrollment.face_images import save_face_images
from vision.enrollment.sheet import CutTile
from vision.render.enrolled_faces import EnrolledFaces
from vision.render.enrollment_rows import render_row_layout
from vision.render.face_strokes import ink_share, stroke_varied
from vision.render.face_style import Art, tile_art_of
from vision.render.renderer import RenderOptions, render_table, with_art
from vision.render.seat_view import render_seat_view
from vision.render.tile_art import ArtStyle
from vision.render.tile_palette import palette_of_table

FIRST_SEED = 3_200_000  # apart from training (0..), the training checks (1_000_000..) and the other benches
ENROLLED_PALETTE_SEED = 4_000_000  # a palette the classifier never trained on (its tables are seeds 0..999)
CHANGES_PX = (-2.0, -1.0, 0.0, 1.0, 2.0)
OPTIONS = RenderOptions(size=(1280, 720), px_per_mm=(1.0, 2.0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--out", type=Path, help="folder for a sample table and seat view per art and change")
    args = parser.parse_args()
    classifier = OnnxTileClassifier()
    with tempfile.TemporaryDirectory() as scratch:
        faces = enrolled_from_rendered_photo(Path(scratch) / "set.faces")
        arts: list[tuple[str, Art]] = [("black", ArtStyle.BLACK), ("regular", ArtStyle.REGULAR), ("enrolled", faces)]
        print(f"{args.tables} tables of 1280×720 per row, seeds {FIRST_SEED}.., crops at the true corners")
        print(f"{'art':<10}{'strokes':>8}{'ink share':>11}{'crops':>7}{'kind acc':>10}{'restroke s':>12}")
        for name, art in arts:
            for change in CHANGES_PX:
                started = time.perf_counter()
                images = tile_art_of(art, change)
                restroke = time.perf_counter() - started
                ink = statistics.mean(ink_share(images.images[label]) for label in range(BACK_LABEL))
                crops, labels = held_out_crops(art, change, args.tables)
                accuracy = kind_accuracy(classifier, crops, labels)
                print(f"{name:<10}{change:>+8.1f}{ink:>11.3f}{len(labels):>7}{accuracy:>10.3f}{restroke:>12.2f}")
                if args.out is not None:
                    write_samples(args.out, name, art, change)
    stroke_varied.cache_clear()


def enrolled_from_rendered_photo(folder: Path) -> EnrolledFaces:
    """The faces of a rendered enrollment-rows photo, cut at its true corners and kept as
    ``vision enroll`` keeps them."""
    photo = render_row_layout(palette_of_table(ENROLLED_PALETTE_SEED), ENROLLED_PALETTE_SEED)
    save_face_images(folder, photo.image, [CutTile(t.label, t.corners) for t in photo.truths])
    return EnrolledFaces(folder)


def held_out_crops(art: Art, change: float, tables: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    crops, labels = [], []
    for seed in range(FIRST_SEED, FIRST_SEED + tables):
        table = render_table(seed, with_art(OPTIONS, art, change))
        for truth in table.truths:
            turned = bool(rng.random() < 0.5)
            crops.append(crop_tile(table.image, turned_half(truth.corners) if turned else truth.corners))
            labels.append(truth.label)
    return np.stack(crops), np.array(labels)


def kind_accuracy(classifier: OnnxTileClassifier, crops: np.ndarray, labels: np.ndarray) -> float:
    read = np.array([kind_of_label(r.label % LABEL_COUNT) for r in classifier.classify(crops)])
    return float((read == np.array([kind_of_label(int(label)) for label in labels])).mean())


def write_samples(out: Path, name: str, art: Art, change: float) -> None:
    out.mkdir(parents=True, exist_ok=True)
    table = render_table(FIRST_SEED, with_art(RenderOptions(size=(1280, 720), px_per_mm=(2.2, 2.4)), art, change))
    seat = render_seat_view(FIRST_SEED, style=art, strokes=change)
    for kind, image in (("table", table.image), ("seat", seat.image)):
        path = out / f"{kind}-{name}-strokes{change:+.0f}.jpg"
        if not cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 92]):
            raise OSError(f"{path}: could not be written")


if __name__ == "__main__":
    main()
