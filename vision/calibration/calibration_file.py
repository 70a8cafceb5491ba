"""The calibration file (JSON): written by ``jantaku vision calibrate``, named in the table's config.

```
{"format": "jantaku-calibration", "version": 1,
 "image_size": [1920, 1080],            frames' width, height in pixels
 "corners": [[x, y], x4],               image pixels: top-left, top-right, bottom-right, bottom-left
 "corners_from": "aruco" | "picked",
 "table_mm": [680, 680],                width, depth between the corner points
 "tile_mm": [20, 27],                   a tile face's width, height
 "view_px_per_mm": 1.5}                 the top-down view's scale
```
Every error names the file and the field.
"""

from __future__ import annotations

import json
import logging
import math
from pathlib import Path
from typing import Any

from vision.calibration.calibration import Calibration, CornersFrom
from vision.calibration.table import PhysicalTileSize, TableGeometry
from vision.json_file import read_json_object

log = logging.getLogger(__name__)

FORMAT = "jantaku-calibration"
VERSION = 1


class CalibrationFileError(ValueError):
    """A calibration file that cannot be used; ``field`` is the one at fault ("" for the whole file)."""

    def __init__(self, message: str, path: Path, field: str = "") -> None:
        super().__init__(message)
        self.path = path
        self.field = field


def _field_error(path: Path, field: str, problem: str) -> CalibrationFileError:
    return CalibrationFileError(f"calibration file {path}: {field}: {problem}", path, field)


def save_calibration(calibration: Calibration, path: Path) -> None:
    document = {
        "format": FORMAT,
        "version": VERSION,
        "image_size": list(calibration.image_size),
        "corners": [[round(x, 2), round(y, 2)] for x, y in calibration.corners],
        "corners_from": calibration.corners_from.value,
        "table_mm": [calibration.table.width_mm, calibration.table.depth_mm],
        "tile_mm": [calibration.tile.width_mm, calibration.tile.height_mm],
        "view_px_per_mm": calibration.table.px_per_mm,
    }
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    log.info("calibration saved to %s", path)


def load_calibration(path: Path) -> Calibration:
    document = read_json_object(path, "calibration file", lambda message: CalibrationFileError(message, path))
    if document.get("format") != FORMAT:
        raise _field_error(path, "format", f"must be {FORMAT!r}")
    if document.get("version") != VERSION:
        raise _field_error(path, "version", f"must be {VERSION} (got {document.get('version')!r})")
    unknown = sorted(
        set(document)
        - {"format", "version", "image_size", "corners", "corners_from", "table_mm", "tile_mm", "view_px_per_mm"}
    )
    if unknown:
        raise _field_error(path, unknown[0], "unknown field")
    image_size = _numbers(path, document.get("image_size"), "image_size", 2)
    corner_list = _list(path, document.get("corners"), "corners", 4)
    corners = [_numbers(path, corner, f"corners[{i}]", 2) for i, corner in enumerate(corner_list)]
    table_mm = _numbers(path, document.get("table_mm"), "table_mm", 2)
    tile_mm = _numbers(path, document.get("tile_mm"), "tile_mm", 2)
    scale = _numbers(path, [document.get("view_px_per_mm")], "view_px_per_mm", 1)[0]
    try:
        corners_from = CornersFrom(str(document.get("corners_from")))
    except ValueError as error:
        choices = ", ".join(c.value for c in CornersFrom)
        raise _field_error(path, "corners_from", f"must be one of {choices}") from error
    if any(side != int(side) or side < 1 for side in image_size):
        raise _field_error(path, "image_size", "must be two whole numbers of pixels")
    field = "table_mm"
    try:
        table = TableGeometry(table_mm[0], table_mm[1], scale)
        field = "tile_mm"
        tile = PhysicalTileSize(tile_mm[0], tile_mm[1])
        field = "corners"
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = corners
        return Calibration(
            ((x0, y0), (x1, y1), (x2, y2), (x3, y3)),
            (int(image_size[0]), int(image_size[1])),
            table,
            tile,
            corners_from,
        )
    except ValueError as error:
        raise _field_error(path, field, str(error)) from error


def _list(path: Path, value: Any, field: str, length: int) -> list[Any]:
    if not isinstance(value, list) or len(value) != length:
        raise _field_error(path, field, f"must be a list of {length}, got {value!r}")
    return value


def _numbers(path: Path, value: Any, field: str, length: int) -> list[float]:
    values = _list(path, value, field, length)
    if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in values):
        raise _field_error(path, field, f"must be {length} finite numbers, got {values!r}")
    return [float(v) for v in values]
