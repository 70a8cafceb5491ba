"""Red fives on real photographs: marked by eye with a contact sheet, kept in the repository.

No public source labels red fives by suit (``models/DATA.md``): a five is "5p" whether red or
not, and one source has a class for a red five of no named suit. This tool puts every five of a
built source (and every box the source left unnamed) on a numbered contact sheet; whoever
looks writes down which are red (and the suit of an unnamed one) in
``models/labels/red-fives.json``; :func:`vision.training.real_photos.build` applies those marks,
so a rebuilt source carries them.

    .venv/bin/python -m vision.training.red_five_marks sheet --labels real/leo-miura/labels.json --out fives.png

The marks file::

    {"format": "jantaku-red-five-marks", "version": 1,
     "sources": {"leo-miura": {"images/NAME.jpg": {"red": [3], "unnamed": {"0": "5p"}}}}}

``red`` lists indices into the image's tiles (each a five, made red); ``unnamed`` gives the
suit of a box of its ``ignore`` list (by index), which then joins the tiles as a red five.
A source in the file has had every five looked at: its red-five figures are measured.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Final

import cv2
import numpy as np

from vision.training import photo_marks
from vision.training.photo_marks import LABELS_FOLDER, MarksError, load_sheet_labels, marked_indices

MARKS_FILE: Final = LABELS_FOLDER / "red-fives.json"
_FIVES: Final = ("5m", "5p", "5s")
_CELL: Final = (72, 96)  # a crop's width and height on the sheet


def load_marks(path: Path = MARKS_FILE) -> dict[str, Any]:
    return photo_marks.load_marks(path, "jantaku-red-five-marks")


def marked_sources(path: Path = MARKS_FILE) -> frozenset[str]:
    """The sources whose every five has been looked at: their red-five figures are measured."""
    return frozenset(load_marks(path))


def apply_marks(
    source: str, images: dict[str, list[dict[str, Any]]], ignore: dict[str, list[list[float]]], marks: dict[str, Any]
) -> int:
    """Mark ``source``'s red fives in place (``images`` and ``ignore`` as a label file holds
    them); returns how many tiles are red. Raises if a mark points at no five."""
    red = 0
    where = f"red-five marks for {source}"
    for name, marked in marks.get(source, {}).items():
        tiles = images.get(name, [])
        for index in marked_indices(images, name, where, marked.get("red", [])):
            if tiles[index]["tile"] not in _FIVES:
                raise MarksError(f"{where}: {name} tile {index} is not a five")
            tiles[index]["red"] = True
            red += 1
        unnamed = marked.get("unnamed", {})
        boxes = ignore.get(name, [])
        for key, tile in sorted(unnamed.items(), key=lambda item: -int(item[0])):  # pop from the end first
            index = int(key)
            if not 0 <= index < len(boxes) or tile not in _FIVES:
                raise MarksError(f"{where}: {name} unnamed box {key} / {tile!r} is not a red five")
            tiles.append({"box": boxes.pop(index), "tile": tile, "red": True})
            red += 1
        if name in ignore and not boxes:
            del ignore[name]
    return red


def candidates(document: dict[str, Any]) -> list[tuple[str, str, int, list[float]]]:
    """Every five and every unnamed box of a label file: (image, "tile" or "unnamed", index, box)."""
    out = []
    for name in sorted(document["images"]):
        for index, tile in enumerate(document["images"][name]):
            if tile["tile"] in _FIVES:
                out.append((name, "tile", index, tile["box"]))
        for index, box in enumerate(document.get("ignore", {}).get(name, ())):
            out.append((name, "unnamed", index, box))
    return out


def contact_sheet(labels_path: Path, columns: int = 12) -> tuple[np.ndarray, list[tuple[str, str, int, list[float]]]]:
    """A numbered sheet of every candidate's crop (read upright or not: a box does not say). A
    label file or image that cannot be read raises a :class:`MarksError` naming it."""
    document = load_sheet_labels(labels_path)
    found = candidates(document)
    rows = max(1, -(-len(found) // columns))
    sheet = np.full((rows * (_CELL[1] + 16), columns * _CELL[0], 3), 255, np.uint8)
    for number, (name, kind, _index, box) in enumerate(found):
        image = cv2.imread(str(labels_path.parent / name))
        if image is None:
            raise MarksError(f"{labels_path.parent / name}: not a readable image")
        x0, y0, x1, y1 = (round(v) for v in box)
        crop = image[max(y0, 0) : y1, max(x0, 0) : x1]
        if crop.size == 0:
            continue
        if crop.shape[1] > crop.shape[0]:  # a wide box: a tile lying across, turned upright to compare
            crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
        row, column = divmod(number, columns)
        top, left = row * (_CELL[1] + 16), column * _CELL[0]
        sheet[top + 16 : top + 16 + _CELL[1], left : left + _CELL[0]] = cv2.resize(crop, _CELL)
        tag = f"{number}" + ("?" if kind == "unnamed" else "")
        cv2.putText(sheet, tag, (left + 2, top + 13), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 1, cv2.LINE_AA)
    return sheet, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = parser.add_subparsers(dest="action", required=True)
    sheet = actions.add_parser("sheet", help="write the numbered contact sheet of a built source's fives")
    sheet.add_argument("--labels", required=True, type=Path, help="labels.json of a source built by real_photos")
    sheet.add_argument(
        "--out", required=True, type=Path, help="the sheet (.png); NAME.json beside it lists the numbers"
    )
    args = parser.parse_args()
    try:
        picture, found = contact_sheet(args.labels)
    except MarksError as error:
        raise SystemExit(str(error)) from None  # one line naming the file, not a traceback
    if not cv2.imwrite(str(args.out), picture):
        raise SystemExit(f"{args.out}: could not be written")
    index = [{"number": n, "image": name, "kind": kind, "index": i} for n, (name, kind, i, _) in enumerate(found)]
    args.out.with_suffix(".json").write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    print(f"{args.out}: {len(found)} fives and unnamed boxes, numbered; {args.out.with_suffix('.json')} lists them")


if __name__ == "__main__":
    main()
