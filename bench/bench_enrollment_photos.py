"""Tile-set enrollment on real photographs of whole sets laid out in grids, before and after.

    .venv/bin/python bench/bench_enrollment_photos.py --images DIR [--grids GRIDS.json] [--draw OUT]

DIR holds the photographs the grid file names (``raw-images/`` of Camerash/mahjong-dataset:
``models/DATA.md`` says where to get them; they are not in this repository). For each set of
the grid file: one copy of each kind in the enroll photo is enrolled as
``jantaku vision enroll --layout rows`` does (cut at the detector's find in its cell, or at the
cell where nothing was found; :func:`vision.enrollment.enroll.enroll_tiles`, saved and loaded
back as an enrollment file); then every other labelled tile of the check photos, of a kind
enrolled, never an enrolled copy, is read with the shipped classifier and with the enrollment:

- **at the cells**: the crop at the tile's cell (the tile's own place);
- **through the detector**: the photo read as ``jantaku vision detect`` reads it (learnt
  finder, sideways judge, classifier; pixel aspect 1), each find given to the cell holding
  its centre: recall (labelled cells with a find) and the 34-kind accuracy of those finds.

``--draw OUT`` writes each photo with its cells, their names and the finds (red) to OUT/ as
PNG, to check the labels by eye. ``--grids``: default ``models/labels/enrollment-photos.json``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.classify.classifier import OnnxTileClassifier, TileReading
from vision.classify.crops import crop_tile
from vision.classify.labels import kind_of_label, label_name
from vision.detect.photo_reading import read_photo
from vision.detect.still_photo import Detection, detect_tiles, read_image
from vision.enrollment.enroll import enroll_tiles
from vision.enrollment.enrollment_file import save_enrollment
from vision.enrollment.head import EnrolledHead
from vision.enrollment.sheet import CutTile
from vision.eval.set_grids import Cell, GridPhoto, aligned, assign_finds, enrolled_cells, load_set_grids

GRIDS = Path(__file__).resolve().parent.parent / "models" / "labels" / "enrollment-photos.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--images", type=Path, required=True, help="the folder of the grid file's photographs")
    parser.add_argument("--grids", type=Path, default=GRIDS)
    parser.add_argument("--draw", type=Path, help="write each photo with its labelled cells and finds here")
    args = parser.parse_args()
    grids = load_set_grids(args.grids)
    classifier = OnnxTileClassifier()
    same, other = "the photo enrolled from", "another photo of the set"
    totals: dict[str, Counter[str]] = {same: Counter(), other: Counter()}
    confusions: Counter[tuple[str, str]] = Counter()
    with tempfile.TemporaryDirectory() as folder:
        for number, check_set in enumerate(grids.sets):
            grid = grids.images[check_set.enroll]
            image = read_image(args.images / check_set.enroll)
            enrolled = enrolled_cells(grid)
            # Each enrolled copy cut at the detector's find in its cell, as the rows layout cuts
            # them (read the way the cell's tile lies), or at the cell where nothing was found.
            finds = [d.corners for d in _detect(image, classifier)]
            found = assign_finds(grid, finds)
            tiles = [
                CutTile(
                    label, aligned(finds[found[cell]], grid.cell_quad(cell)) if cell in found else grid.cell_quad(cell)
                )
                for label, cell in sorted(enrolled.items())
            ]
            started = time.perf_counter()
            enrollment = enroll_tiles(image, tiles, classifier)
            enroll_s = time.perf_counter() - started
            path = Path(folder) / f"set-{number}.json"
            save_enrollment(path, enrollment.head, classifier.sha256, {"source": check_set.enroll})
            enrolled_reader = OnnxTileClassifier(enrollment=path)  # as `vision detect --enrollment` loads it
            print(
                f"set {check_set.name}: {len(tiles)} kinds enrolled from {check_set.enroll} ("
                f"{sum(cell in found for cell in enrolled.values())} cut at a find) in {enroll_s:.1f} s "
                f"(fresh varied crops {enrollment.fresh.before:.3f} -> {enrollment.fresh.after:.3f})"
            )
            for name in check_set.check:
                check = grids.images[name]
                check_image = image if name == check_set.enroll else read_image(args.images / name)
                skip = set(enrolled.values()) if name == check_set.enroll else set()
                cells = [c for c in check.labelled_cells() if c not in skip and check.label(c) in enrolled]
                unenrolled = sum(check.label(c) not in enrolled for c in check.labelled_cells())
                score = _score(
                    check_image,
                    grid=check,
                    cells=cells,
                    classifier=classifier,
                    head=enrollment.head,
                    enrolled_reader=enrolled_reader,
                    confusions=confusions,
                )
                totals[same if name == check_set.enroll else other].update(score)
                if args.draw is not None:
                    _draw(check_image, check, enrolled if name == check_set.enroll else {}, classifier, args.draw)
                print(
                    f"  {name}: {len(cells)} tiles"
                    + (f" ({unenrolled} of kinds not enrolled left out)" if unenrolled else "")
                    + f"; at the cells {_share(score, 'before')} -> {_share(score, 'after')}; detector recall "
                    f"{score['found'] / len(cells):.3f}, kind accuracy of found "
                    f"{_share(score, 'found before', 'found')} -> {_share(score, 'found after', 'found')}"
                )
    for where, score in totals.items():
        if score["tiles"]:
            print(
                f"checked on {where}: {score['tiles']} tiles; at the cells {_share(score, 'before')} -> "
                f"{_share(score, 'after')}; detector recall {score['found'] / score['tiles']:.3f}, kind accuracy "
                f"of found {_share(score, 'found before', 'found')} -> {_share(score, 'found after', 'found')}"
            )
    worst = ", ".join(f"{truth}->{read} {n}" for (truth, read), n in confusions.most_common(10))
    print(f"commonest misreadings after enrollment, at the cells: {worst or 'none'}")


def _score(
    image: np.ndarray,
    *,
    grid: GridPhoto,
    cells: list[Cell],
    classifier: OnnxTileClassifier,
    head: EnrolledHead,
    enrolled_reader: OnnxTileClassifier,
    confusions: Counter[tuple[str, str]],
) -> Counter[str]:
    truth = np.array([grid.label(c) for c in cells])
    crops = np.stack([crop_tile(image, grid.cell_quad(c)) for c in cells])
    base, features = classifier.outputs(crops, features=True)
    assert features is not None
    # As classify reads them: the network (and the head), then the red 5m's colour.
    before = _kinds(classifier.crop_readings(crops, base))
    after = _kinds(classifier.crop_readings(crops, head.blended(base, features)))
    for t, a in zip(truth, after, strict=True):
        if t != a:
            confusions[(label_name(int(t)), label_name(int(a)))] += 1
    score: Counter[str] = Counter(
        tiles=len(cells), before=int((before == truth).sum()), after=int((after == truth).sum())
    )
    wanted = set(cells)
    for key, reader in (("found before", classifier), ("found after", enrolled_reader)):
        finds = _detect(image, reader)
        assigned = {c: i for c, i in assign_finds(grid, [d.corners for d in finds]).items() if c in wanted}
        if key == "found before":
            score["found"] = len(assigned)
        score[key] = sum(kind_of_label(finds[i].label) == grid.label(c) for c, i in assigned.items())
    return score


def _detect(image: np.ndarray, reader: OnnxTileClassifier) -> tuple[Detection, ...]:
    return read_photo(image, lambda frame: detect_tiles(frame, reader), pixel_aspect=1.0).detections


def _kinds(readings: Sequence[TileReading]) -> np.ndarray:
    return np.array([kind_of_label(r.label) for r in readings])


def _share(score: Counter[str], key: str, total: str = "tiles") -> str:
    return f"{score[key] / score[total]:.3f}" if score[total] else "-"


def _draw(
    image: np.ndarray, grid: GridPhoto, enrolled: dict[int, Cell], reader: OnnxTileClassifier, folder: Path
) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    picture = image.copy()
    height = float(np.linalg.norm(grid.cell_quad((0, 0))[0] - grid.cell_quad((0, 0))[3]))
    scale = max(0.4, height / 150)
    for row in range(grid.rows):
        for column in range(grid.columns):
            quad = grid.cell_quad((row, column))
            label = grid.labels[row][column]
            colour = (255, 0, 255) if (row, column) in enrolled.values() else (0, 160, 0)
            cv2.polylines(picture, [np.round(quad).astype(np.int32)], True, colour, max(1, round(scale * 2)))
            name = "-" if label is None else label_name(label) + ("v" if (row, column) in grid.upside_down else "")
            x, y = quad.min(axis=0)
            cv2.putText(picture, name, (int(x + 4), int(y + 30 * scale)), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 2)
    for find in _detect(image, reader):
        cv2.polylines(picture, [np.round(find.corners).astype(np.int32)], True, (0, 0, 255), 1)
    cv2.imwrite(str(folder / f"{Path(grid.name).stem}.png"), picture)


if __name__ == "__main__":
    main()
