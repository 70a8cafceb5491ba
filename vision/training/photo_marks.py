"""Marks made by eye on the real photographs of a built source, kept in the repository.

Public sources label boxes and faces, not everything jantaku measures: which fives are red
(:mod:`vision.training.red_five_marks`), which tiles lie sideways
(:mod:`vision.training.sideways_marks`). A person looks at a numbered sheet and writes marks
into a file under ``models/labels/``; :func:`vision.training.real_photos.build` applies them,
so a rebuilt source carries them. This module holds what the kinds of mark share: reading a
marks file, reading the label file a sheet is drawn from, and pointing a mark at a tile of an
image.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from vision.json_file import read_json_object

#: Where the marks files live (``models/labels/``).
LABELS_FOLDER: Final = Path(__file__).resolve().parents[2] / "models" / "labels"


class MarksError(ValueError):
    """A marks file that cannot be read or does not fit the source it is applied to."""


def load_marks(path: Path, file_format: str) -> dict[str, Any]:
    """The ``sources`` of a marks file of ``file_format`` (version 1): source → image → marks."""
    document = read_json_object(path, "marks file", MarksError)
    if document.get("format") != file_format or document.get("version") != 1:
        raise MarksError(f"marks file {path}: not a {file_format} file (version 1)")
    sources = document.get("sources")
    if not isinstance(sources, dict) or not all(isinstance(images, dict) for images in sources.values()):
        raise MarksError(f"marks file {path}: sources must be an object {{source: {{image: marks}}}}")
    return dict(sources)


def load_sheet_labels(labels_path: Path) -> dict[str, Any]:
    """The document of the label file a sheet is drawn from (a source built by
    :mod:`vision.training.real_photos`): a JSON object whose ``images`` is an object
    ``{image: [tiles]}``. Anything else raises a :class:`MarksError` naming the file."""
    document = read_json_object(labels_path, "labels file", MarksError)
    images = document.get("images")
    if not isinstance(images, dict) or not all(isinstance(tiles, list) for tiles in images.values()):
        raise MarksError(f'labels file {labels_path}: "images" must be an object {{image: [tiles]}}')
    return document


def marked_indices(images: dict[str, list[dict[str, Any]]], name: str, where: str, indices: object) -> list[int]:
    """``indices`` checked to be a list of indices into the tiles of image ``name``; a missing
    image, a list that is not of indices, or an index past the tiles raises a
    :class:`MarksError` that starts with ``where`` and names the image."""
    if name not in images:
        raise MarksError(f"{where}: {name} is not an image of the source")
    if not isinstance(indices, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in indices):
        raise MarksError(f"{where}: {name}: marks must be a list of tile indices, got {indices!r}")
    count = len(images[name])
    for index in indices:
        if not 0 <= index < count:
            raise MarksError(f"{where}: {name} tile {index} is not a box of the image (it has {count})")
    return indices
