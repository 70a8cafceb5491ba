"""Label files: the true tiles of still photos, for ``jantaku vision eval``.

A label file is JSON::

    {"format": "jantaku-labels", "version": 1,
     "images": {"table-1.jpg": [{"corners": [[x, y], [x, y], [x, y], [x, y]], "tile": "5m", "red": true,
                                 "sideways": false},
                                {"box": [x0, y0, x1, y1], "tile": "back"}]}}

Each tile has ``corners`` (face order: top-left, top-right, bottom-right, bottom-left as the
face reads) or, failing that, a ``box``; ``tile`` is "1m".."9s", "1z".."7z" or "back"; ``red``
(default false) marks a red five; ``sideways`` may be left out (then unknown). Other fields are
ignored, so the list ``jantaku vision detect --json`` prints, once corrected, is a valid entry.

An optional top-level ``"ignore": {"table-1.jpg": [[x0, y0, x1, y1], ...]}`` lists boxes of
things that are tiles but not riichi tiles (a Chinese set's flowers and seasons) or whose
face the labeller could not name: evaluation neither misses them nor counts a detection on
them as false.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np

from vision.classify.labels import LABEL_COUNT, is_red_label, label_name
from vision.geometry import angle_of_corners
from vision.json_file import read_json_object

FORMAT: Final = "jantaku-labels"
VERSION: Final = 1
_LABEL_OF_NAME: Final = {(label_name(i), is_red_label(i)): i for i in range(LABEL_COUNT)}


class LabelFileError(ValueError):
    """A label file that cannot be read; the message names the file and the entry."""


@dataclass(frozen=True, eq=False)
class LabelledTile:
    label: int
    corners: np.ndarray  # 4×2 image pixels; a box's corners when the label gave only a box
    sideways: bool | None  # None: not labelled
    from_box: bool = False  # the orientation is unknown

    @property
    def angle(self) -> float | None:
        return None if self.from_box else angle_of_corners(self.corners)

    def as_json(self) -> dict[str, object]:
        entry: dict[str, object] = {}
        if self.from_box:
            x0, y0 = self.corners.min(axis=0)
            x1, y1 = self.corners.max(axis=0)
            entry["box"] = [round(float(v), 1) for v in (x0, y0, x1, y1)]
        else:
            entry["corners"] = [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]
        entry["tile"] = label_name(self.label)
        entry["red"] = is_red_label(self.label)
        if self.sideways is not None:
            entry["sideways"] = self.sideways
        return entry


def load_labels(path: Path) -> dict[str, tuple[LabelledTile, ...]]:
    """Image file name (relative to the images folder) → its labelled tiles, in file order."""
    document = read_json_object(path, "labels file", LabelFileError)
    if not isinstance(document.get("images"), dict):
        raise LabelFileError(f'labels file {path}: expected an object with "images": {{file name: [tiles]}}')
    if document.get("format", FORMAT) != FORMAT or document.get("version", VERSION) != VERSION:
        raise LabelFileError(f"labels file {path}: format must be {FORMAT!r} version {VERSION}")
    labelled: dict[str, tuple[LabelledTile, ...]] = {}
    for name, tiles in document["images"].items():
        where = f"labels file {path}: images[{name!r}]"
        if not isinstance(tiles, list):
            raise LabelFileError(f"{where}: must be a list of tiles")
        labelled[name] = tuple(_tile(entry, f"{where}[{index}]") for index, entry in enumerate(tiles))
    return labelled


def load_ignored(path: Path) -> dict[str, tuple[tuple[float, float, float, float], ...]]:
    """Image file name → the boxes its ``ignore`` entry lists (none when the file has no ``ignore``)."""
    ignore = read_json_object(path, "labels file", LabelFileError).get("ignore", {})
    if not isinstance(ignore, dict):
        raise LabelFileError(f'labels file {path}: "ignore" must be an object {{file name: [boxes]}}')
    boxes: dict[str, tuple[tuple[float, float, float, float], ...]] = {}
    for name, entries in ignore.items():
        where = f"labels file {path}: ignore[{name!r}]"
        if not isinstance(entries, list):
            raise LabelFileError(f"{where}: must be a list of boxes [x0, y0, x1, y1]")
        found = []
        for index, entry in enumerate(entries):
            x0, y0, x1, y1 = (float(v) for v in _numbers(entry, (4,), f"{where}[{index}]", "[x0, y0, x1, y1]"))
            if not (x1 > x0 and y1 > y0):
                raise LabelFileError(f"{where}[{index}]: box {entry} must have x1 > x0 and y1 > y0")
            found.append((x0, y0, x1, y1))
        boxes[name] = tuple(found)
    return boxes


def source_name(document: Mapping[str, Any], default: str = "") -> str:
    """The name of the source a label file's ``document`` was built from: ``real_photos``
    writes ``"source": {"name": ...}``, ``seat_view_set`` the name alone; ``default`` when the
    document names none."""
    named = document.get("source")
    if isinstance(named, dict):
        return str(named.get("name") or default)
    return str(named) if named else default


def save_labels(path: Path, images: Mapping[str, Sequence[LabelledTile]]) -> None:
    document = {
        "format": FORMAT,
        "version": VERSION,
        "images": {name: [tile.as_json() for tile in tiles] for name, tiles in images.items()},
    }
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def label_of_name(name: object, red: object, where: str) -> int:
    """The label of a tile name as ``detect --json`` writes it ("5m" with ``red``); errors name ``where``."""
    if not isinstance(red, bool):
        raise LabelFileError(f"{where}: red must be true or false, got {red!r}")
    label = _LABEL_OF_NAME.get((name, red)) if isinstance(name, str) else None
    if label is None:
        kinds = '"1m".."9m", "1p".."9p", "1s".."9s", "1z".."7z" or "back"'
        detail = " (only 5m, 5p and 5s can be red)" if red and (name, False) in _LABEL_OF_NAME else ""
        raise LabelFileError(f"{where}: tile {name!r} is not one of {kinds}{detail}")
    return label


def _tile(entry: Any, where: str) -> LabelledTile:
    if not isinstance(entry, dict):
        raise LabelFileError(f"{where}: a tile must be an object with tile and corners (or box)")
    label = label_of_name(entry.get("tile"), entry.get("red", False), where)
    sideways = entry.get("sideways")
    if sideways is not None and not isinstance(sideways, bool):
        raise LabelFileError(f"{where}: sideways must be true or false, got {sideways!r}")
    if "corners" in entry:
        corners = _numbers(entry["corners"], (4, 2), f"{where}: corners", "4 points [x, y]")
        if abs(_signed_area(corners)) < 1.0:
            raise LabelFileError(f"{where}: corners enclose no area")
        return LabelledTile(label, corners, sideways)
    if "box" in entry:
        x0, y0, x1, y1 = _numbers(entry["box"], (4,), f"{where}: box", "[x0, y0, x1, y1]")
        if not (x1 > x0 and y1 > y0):
            raise LabelFileError(f"{where}: box {entry['box']} must have x1 > x0 and y1 > y0")
        corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
        return LabelledTile(label, corners, sideways, from_box=True)
    raise LabelFileError(f"{where}: needs corners or box")


def _numbers(value: Any, shape: tuple[int, ...], where: str, expected: str) -> np.ndarray:
    try:
        array = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise LabelFileError(f"{where}: must be {expected} of numbers, got {value!r}") from None
    if array.shape != shape or not all(math.isfinite(v) for v in array.ravel()):
        raise LabelFileError(f"{where}: must be {expected} of finite numbers, got {value!r}")
    return array


def _signed_area(corners: np.ndarray) -> float:
    x, y = corners[:, 0], corners[:, 1]
    return float(0.5 * (np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))
