"""Photographs of whole tile sets laid out in a grid, labelled cell by cell: where each cell is,
which tile lies in it, which copy of each kind is the enrolled one, and which find of the
detector fell in which cell. ``bench/bench_enrollment_photos.py`` measures tile-set enrollment
on them (enroll one copy of each kind, read the other copies before and after).

A grid file is JSON::

    {"format": "jantaku-set-grids", "version": 1,
     "images": {"5.jpg": {"outline": [x0, y0, x1, y1],
                          "rows": ["1p 2p 3p ... 1z", "1s 2s ... -", ...]}},
     "sets": [{"name": "5", "enroll": "5.jpg", "check": ["5.jpg"]}]}

``outline`` is the grid's outer edge: a box ``[x0, y0, x1, y1]``, or four corners ``[[x, y],
...]`` (top-left, top-right, bottom-right, bottom-left) where the photo looks at the grid at an
angle; the cells divide it evenly. ``rows`` lists the cells row by row from the top, each row's
cells left to right separated by spaces: a tile name ("1m".."9m", "1p".."9p", "1s".."9s",
"1z".."7z" for east, south, west, north, white, green, red), the name followed by ``↓`` for a
tile lying upside down, or ``-`` for a cell that holds no riichi tile (a flower, a season, a
joker) or a face not named. Every row has as many cells.

A set is enrolled from ``enroll``: the first upright cell of each kind in reading order (the
first upside-down one where a kind lies only upside down) is its enrolled copy, cut at the
detector's find in its cell as ``jantaku vision enroll --layout rows`` cuts its tiles. It is checked
on every ``check`` image's other labelled cells, never on the enrolled copies themselves.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import cv2
import numpy as np

from vision.classify.crops import turned_half
from vision.eval.label_file import LabelFileError, label_of_name
from vision.json_file import read_json_object

FORMAT: Final = "jantaku-set-grids"
VERSION: Final = 1
UPSIDE_DOWN: Final = "↓"
NO_TILE: Final = "-"

Cell = tuple[int, int]  # (row, column), from the top-left, from 0


class SetGridError(ValueError):
    """A grid file that is missing, damaged, or names a tile, image or cell wrongly."""


@dataclass(frozen=True, eq=False)
class GridPhoto:
    name: str  # the image's file name
    outline: np.ndarray  # 4×2: the grid's outer corners, top-left, top-right, bottom-right, bottom-left
    labels: tuple[tuple[int | None, ...], ...]  # each cell's tile label (0..33), None for no riichi tile
    upside_down: frozenset[Cell]

    @property
    def rows(self) -> int:
        return len(self.labels)

    @property
    def columns(self) -> int:
        return len(self.labels[0])

    def labelled_cells(self) -> list[Cell]:
        """The cells that hold a named tile, in reading order."""
        return [(r, c) for r, row in enumerate(self.labels) for c, label in enumerate(row) if label is not None]

    def label(self, cell: Cell) -> int:
        label = self.labels[cell[0]][cell[1]]
        if label is None:
            raise ValueError(f"{self.name}: cell {cell} holds no named tile")
        return label

    def cell_quad(self, cell: Cell) -> np.ndarray:
        """A cell's four corners in face order as its tile reads (turned where it lies upside down)."""
        row, column = cell
        unit = np.array([[column, row], [column + 1, row], [column + 1, row + 1], [column, row + 1]], np.float64)
        quad = _to_image(self._grid_to_image(), unit)
        return turned_half(quad) if cell in self.upside_down else quad

    def cells_of(self, points: np.ndarray) -> list[Cell | None]:
        """The cell each point (N×2 image pixels) lies in; None outside the grid."""
        if len(points) == 0:
            return []
        grid = _to_image(np.linalg.inv(self._grid_to_image()), np.asarray(points, np.float64))
        cells: list[Cell | None] = []
        for x, y in grid:
            row, column = math.floor(y), math.floor(x)
            cells.append((row, column) if 0 <= row < self.rows and 0 <= column < self.columns else None)
        return cells

    def _grid_to_image(self) -> np.ndarray:
        corners = np.array([[0, 0], [self.columns, 0], [self.columns, self.rows], [0, self.rows]], np.float32)
        return np.asarray(cv2.getPerspectiveTransform(corners, self.outline.astype(np.float32)), np.float64)


@dataclass(frozen=True, slots=True)
class SetCheck:
    name: str
    enroll: str  # the image the set is enrolled from
    check: tuple[str, ...]  # the images it is measured on


@dataclass(frozen=True, eq=False)
class SetGrids:
    images: Mapping[str, GridPhoto]
    sets: tuple[SetCheck, ...]


def assign_finds(grid: GridPhoto, quads: Sequence[np.ndarray]) -> dict[Cell, int]:
    """Each cell's find (an index into ``quads``): of the finds whose centre lies in the cell,
    the one nearest its centre. Finds outside the grid, and a cell's other finds (a half tile,
    a glyph), are left out."""
    centres = np.array([np.asarray(q, np.float64).mean(axis=0) for q in quads]).reshape(-1, 2)
    best: dict[Cell, tuple[float, int]] = {}
    for index, (cell, centre) in enumerate(zip(grid.cells_of(centres), centres, strict=True)):
        if cell is None:
            continue
        distance = float(np.linalg.norm(centre - grid.cell_quad(cell).mean(axis=0)))
        if cell not in best or distance < best[cell][0]:
            best[cell] = (distance, index)
    return {cell: index for cell, (_, index) in best.items()}


def aligned(quad: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """``quad``'s corners rolled into the order of ``reference``'s (the roll that lies nearest
    it): a find's quad read the way the labelled cell's tile lies, whatever its reading was."""
    quad = np.asarray(quad, np.float64)
    rolls = [np.roll(quad, k, axis=0) for k in range(4)]
    return min(rolls, key=lambda rolled: float(np.linalg.norm(rolled - reference, axis=1).sum()))


def enrolled_cells(grid: GridPhoto) -> dict[int, Cell]:
    """The enrolled copy of each kind the grid shows: its first upright cell in reading order,
    else its first cell."""
    chosen: dict[int, Cell] = {}
    for cell in grid.labelled_cells():
        label = grid.label(cell)
        if label not in chosen or (chosen[label] in grid.upside_down and cell not in grid.upside_down):
            chosen[label] = cell
    return chosen


def load_set_grids(path: Path) -> SetGrids:
    """A grid file; anything wrong in it is refused in one line naming the file and the entry."""
    document = read_json_object(path, "grid file", SetGridError)
    if document.get("format") != FORMAT or document.get("version") != VERSION:
        raise SetGridError(f'grid file {path}: not a "{FORMAT}" file of version {VERSION}')
    images = document.get("images")
    if not isinstance(images, dict) or not images:
        raise SetGridError(f"grid file {path}: images must be an object naming at least one image")
    grids = {name: _grid(name, entry, f"{path}: images[{name!r}]") for name, entry in images.items()}
    sets = document.get("sets")
    if not isinstance(sets, list) or not sets:
        raise SetGridError(f"grid file {path}: sets must be a list of at least one set")
    return SetGrids(grids, tuple(_set(entry, grids, f"{path}: sets[{index}]") for index, entry in enumerate(sets)))


def _grid(name: str, entry: Any, where: str) -> GridPhoto:
    if not isinstance(entry, dict):
        raise SetGridError(f"{where}: must be an object with outline and rows")
    rows = entry.get("rows")
    if not isinstance(rows, list) or not rows or not all(isinstance(row, str) for row in rows):
        raise SetGridError(f"{where}: rows must be a list of strings, one per row of the grid")
    cells = [row.split() for row in rows]
    if len(cells[0]) == 0 or any(len(row) != len(cells[0]) for row in cells):
        counts = ", ".join(str(len(row)) for row in cells)
        raise SetGridError(f"{where}: every row must have as many cells; they have {counts}")
    labels: list[tuple[int | None, ...]] = []
    upside_down: set[Cell] = set()
    for r, row in enumerate(cells):
        row_labels: list[int | None] = []
        for c, token in enumerate(row):
            if token == NO_TILE:
                row_labels.append(None)
                continue
            if token.endswith(UPSIDE_DOWN):
                upside_down.add((r, c))
            tile = token.removesuffix(UPSIDE_DOWN)
            try:
                label = label_of_name(tile, False, f"{where}: row {r + 1} cell {c + 1}")
            except LabelFileError as error:
                raise SetGridError(str(error)) from None
            if label >= 34:
                raise SetGridError(f"{where}: row {r + 1} cell {c + 1}: {tile!r} is not a face ({NO_TILE} for none)")
            row_labels.append(label)
        labels.append(tuple(row_labels))
    return GridPhoto(name, _outline(entry.get("outline"), f"{where}: outline"), tuple(labels), frozenset(upside_down))


def _outline(value: Any, where: str) -> np.ndarray:
    try:
        array = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        array = np.zeros(0)
    if array.shape == (4,) and np.isfinite(array).all():
        x0, y0, x1, y1 = array
        if x1 > x0 and y1 > y0:
            return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    elif array.shape == (4, 2) and np.isfinite(array).all():
        x, y = array[:, 0], array[:, 1]
        if 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) > 0:  # clockwise on screen
            return array
    raise SetGridError(
        f"{where}: must be a box [x0, y0, x1, y1] with x1 > x0 and y1 > y0, or four corners [[x, y], ...] "
        f"clockwise from the top-left; got {value!r}"
    )


def _set(entry: Any, grids: Mapping[str, GridPhoto], where: str) -> SetCheck:
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
        raise SetGridError(f"{where}: must be an object with name, enroll and check")
    check = entry.get("check")
    if not isinstance(check, list) or not check:
        raise SetGridError(f"{where}: check must be a list of at least one image")
    for image in [entry.get("enroll"), *check]:
        if not isinstance(image, str) or image not in grids:
            raise SetGridError(f"{where}: image {image!r} is not one of the file's images")
    return SetCheck(entry["name"], entry["enroll"], tuple(check))


def _to_image(transform: np.ndarray, points: np.ndarray) -> np.ndarray:
    homogeneous = np.c_[points, np.ones(len(points))] @ transform.T
    return np.asarray(homogeneous[:, :2] / homogeneous[:, 2:3])
