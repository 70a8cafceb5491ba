"""Real hard negatives: the parts of labelled photographs where no tile lies.

A tile-free picture is where every find is a false one. Rendered tile-free scenes
(:func:`vision.render.seat_view.render_seat_view` with ``tiles=False``) are one kind; the
backgrounds of real photographs are another, of real material: the felt, the desk's wood, a
shelf of books behind the table, an automatic table's centre panel, a player's lap. Each
labelled photograph gives at most one: the largest upright rectangle that keeps
:data:`MARGIN` tile widths clear of every labelled and ignored box, taken when it is at least
:data:`MIN_TILE_WIDTHS` tile widths on its shorter side and :data:`MIN_SHARE` of the picture.

A source's labels may miss a tile (a heap at the edge nobody boxed): such a rectangle is no
negative. They are looked at by eye on a numbered sheet (:func:`contact_sheet`) and named in
``models/labels/backgrounds.json`` (:func:`load_tiles_seen`), and left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from vision.eval.label_eval import tile_width
from vision.eval.label_file import LabelFileError, LabelledTile
from vision.json_file import read_json_object

MARGIN: Final = 0.5  # tile widths kept clear around every box
MIN_TILE_WIDTHS: Final = 3.0  # the rectangle's shorter side, in tile widths
MIN_SHARE: Final = 0.08  # of the picture's area
_CELL_PX: Final = 4  # the grid the rectangle is searched on
MARKS_FILE: Final = Path(__file__).resolve().parents[2] / "models" / "labels" / "backgrounds.json"
MARKS_FORMAT: Final = "jantaku-background-marks"

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class BackgroundCrop:
    """One photograph's tile-free rectangle: ``box`` is (left, top, right, bottom) pixels."""

    image: str  # the label file's name for the photograph
    box: tuple[int, int, int, int]
    tile_width: float  # the photograph's median labelled short edge, pixels

    def cut(self, picture: np.ndarray) -> np.ndarray:
        left, top, right, bottom = self.box
        return np.ascontiguousarray(picture[top:bottom, left:right])


def largest_free_rectangle(blocked: np.ndarray) -> tuple[int, int, int, int] | None:
    """The largest axis-aligned rectangle of False cells in a 2-D boolean grid, as (left, top,
    right, bottom) cells (right and bottom exclusive); None when every cell is blocked.
    Row by row, each column's run of free cells above is a histogram whose largest rectangle
    a stack finds in one pass."""
    rows, columns = blocked.shape
    heights = np.zeros(columns, np.int64)
    best_area, best = 0, None
    for row in range(rows):
        heights = np.where(blocked[row], 0, heights + 1)
        stack: list[tuple[int, int]] = []  # (first column, height), heights rising
        for column in range(columns + 1):
            height = int(heights[column]) if column < columns else 0
            start = column
            while stack and stack[-1][1] >= height:
                first, top_height = stack.pop()
                area = top_height * (column - first)
                if area > best_area:
                    best_area, best = area, (first, row - top_height + 1, column, row + 1)
                start = first
            stack.append((start, height))
    return best


def background_crop(
    name: str, size: tuple[int, int], truths: Sequence[LabelledTile], ignored: Sequence[Box] = ()
) -> BackgroundCrop | None:
    """The tile-free rectangle of a ``size`` (height, width) photograph with these labelled
    tiles and ignored boxes, or None when it has none big enough (above)."""
    if not truths:
        return None  # no tile to judge the margin and the size by
    height, width = size
    width_px = tile_width(truths)
    grid = np.zeros((-(-height // _CELL_PX), -(-width // _CELL_PX)), bool)
    boxes: list[Box] = [(*t.corners.min(axis=0), *t.corners.max(axis=0)) for t in truths]
    margin = MARGIN * width_px
    for x0, y0, x1, y1 in [*boxes, *ignored]:
        left, top = max(0, int((x0 - margin) // _CELL_PX)), max(0, int((y0 - margin) // _CELL_PX))
        grid[top : int((y1 + margin) // _CELL_PX) + 1, left : int((x1 + margin) // _CELL_PX) + 1] = True
    found = largest_free_rectangle(grid)
    if found is None:
        return None
    left, top, right, bottom = (v * _CELL_PX for v in found)
    right, bottom = min(right, width), min(bottom, height)
    if (
        min(right - left, bottom - top) < MIN_TILE_WIDTHS * width_px
        or (right - left) * (bottom - top) < MIN_SHARE * width * height
    ):
        return None
    return BackgroundCrop(name, (left, top, right, bottom), width_px)


def background_crops(
    labels: Mapping[str, Sequence[LabelledTile]],
    sizes: Mapping[str, tuple[int, int]],
    ignored: Mapping[str, Sequence[Box]] | None = None,
    tiles_seen: frozenset[str] = frozenset(),
) -> list[BackgroundCrop]:
    """Each labelled photograph's tile-free rectangle (``sizes``: its height and width), in the
    label file's order, less the photographs in ``tiles_seen``."""
    crops = []
    for name, truths in labels.items():
        if name in tiles_seen:
            continue
        crop = background_crop(name, sizes[name], truths, (ignored or {}).get(name, ()))
        if crop is not None:
            crops.append(crop)
    return crops


def load_tiles_seen(source: str, path: Path = MARKS_FILE) -> frozenset[str]:
    """The photographs of ``source`` whose tile-free rectangle shows a tile nobody labelled
    (marked by eye). A source not looked at raises a :class:`LabelFileError`: its crops
    have not been checked."""
    document = read_json_object(path, "background marks file", LabelFileError)
    if document.get("format") != MARKS_FORMAT or document.get("version") != 1:
        raise LabelFileError(f"background marks file {path}: not a {MARKS_FORMAT} file (version 1)")
    sources = document.get("sources")
    if not isinstance(sources, dict):
        raise LabelFileError(f"background marks file {path}: sources must be an object {{source: [images]}}")
    if source not in sources:
        raise LabelFileError(
            f"background marks file {path}: source {source!r} has not been looked at"
            f" (known: {', '.join(sorted(sources))})"
        )
    images = sources[source]
    if not isinstance(images, list) or not all(isinstance(name, str) for name in images):
        raise LabelFileError(f"background marks file {path}: {source}: expected a list of image names")
    return frozenset(images)


def contact_sheet(crops: Sequence[BackgroundCrop], pictures: Sequence[np.ndarray], columns: int = 8) -> np.ndarray:
    """The crops side by side, numbered in order, 240×180 each: for looking at by eye."""
    cells = []
    for index, (crop, picture) in enumerate(zip(crops, pictures, strict=True)):
        cell = cv2.resize(crop.cut(picture), (240, 180), interpolation=cv2.INTER_AREA)
        cv2.putText(cell, str(index), (6, 30), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 0, 255), 2)
        cells.append(cell)
    if not cells:
        return np.zeros((180, 240, 3), np.uint8)
    cells += [np.zeros_like(cells[0])] * (-len(cells) % columns)
    return np.vstack([np.hstack(cells[i : i + columns]) for i in range(0, len(cells), columns)])


def main() -> None:
    """``python -m vision.eval.background_crops --labels L --out SHEET.png``: the numbered sheet
    of a label file's tile-free rectangles, to look at before naming any in the marks file."""
    import argparse  # noqa: PLC0415

    from vision.detect.still_photo import read_image  # noqa: PLC0415
    from vision.eval.label_file import load_ignored, load_labels  # noqa: PLC0415

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--labels", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    labels, ignored = load_labels(args.labels), load_ignored(args.labels)
    pictures = {name: read_image(args.labels.parent / name) for name in labels}
    crops = background_crops(labels, {name: p.shape[:2] for name, p in pictures.items()}, ignored)
    cv2.imwrite(str(args.out), contact_sheet(crops, [pictures[c.image] for c in crops]))
    for index, crop in enumerate(crops):
        print(f"{index:3d} {crop.image} {crop.box}")


if __name__ == "__main__":
    main()
