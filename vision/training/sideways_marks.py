"""Sideways tiles on real photographs: marked by eye on numbered sheets, kept in the repository.

No public source says which tiles lie sideways (``models/DATA.md``). On a photograph:

- a tile **in a row** (a pond's row of discards, an open meld, a hand, a wall) is **upright**
  (``"sideways": false``) unless it lies turned a quarter to its row;
- it is **sideways** (``"sideways": true``) when it lies so: a riichi discard in a pond, a
  called tile in an open meld;
- a tile **in no row** (loose on a desk, one of a scattered heap, a lone tile) has no sideways
  label: the label file leaves ``sideways`` out (unknown), and so for a tile whose row cannot
  be seen well enough to say.

This tool draws each photograph of a built source at its true aspect (the export's squeeze
undone, so a tile's shape can be judged) with every labelled box outlined and numbered by its
index in the image's tiles; whoever looks writes down which are sideways and which are loose
in ``models/labels/sideways.json``; :func:`vision.training.real_photos.build` applies those
marks, so a rebuilt source carries them and its label file says ``"sideways_marked": true``.

    .venv/bin/python -m vision.training.sideways_marks sheet --labels real/leo-miura/labels.json \\
        --out sheets/ --pixel-aspect 16:9

writes ``sheets/NNN.png`` (one per photograph) and ``sheets/index.json`` (which image each
is). The outlines show the marks as they stand: red sideways, green upright, grey loose,
yellow not looked at; so a sheet drawn again after marking is the check.

The marks file::

    {"format": "jantaku-sideways-marks", "version": 1,
     "sources": {"leo-miura": {"images/NAME.jpg": {"sideways": [3], "loose": [0, 1]}}}}

An image listed has been looked at: the tiles whose indices ``sideways`` lists lie sideways,
those ``loose`` lists (or every tile: ``"loose": "all"``) are in no row, and every other tile
is upright. An image not listed keeps ``sideways`` unknown on every tile.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Final

import cv2
import numpy as np

from vision.eval.label_file import source_name
from vision.training import photo_marks
from vision.training.photo_marks import LABELS_FOLDER, MarksError, load_sheet_labels, marked_indices

MARKS_FILE: Final = LABELS_FOLDER / "sideways.json"
FORMAT: Final = "jantaku-sideways-marks"
_ALL: Final = "all"
# BGR outline colours: sideways, upright, loose, not looked at.
_SIDEWAYS, _UPRIGHT, _LOOSE, _UNMARKED = (0, 0, 230), (0, 170, 0), (150, 150, 150), (0, 200, 230)


def load_marks(path: Path = MARKS_FILE) -> dict[str, Any]:
    return photo_marks.load_marks(path, FORMAT)


def apply_marks(
    source: str, images: dict[str, list[dict[str, Any]]], marks: dict[str, Any], path: Path = MARKS_FILE
) -> tuple[int, int]:
    """Give every tile of ``source``'s marked images its ``sideways`` flag in place (a loose
    tile none); returns how many tiles are (sideways, upright). A mark that points at no tile
    raises a :class:`MarksError` naming ``path``, the source and the image."""
    where = f"sideways marks {path} for {source}"
    sideways = upright = 0
    for name, marked in marks.get(source, {}).items():
        if not isinstance(marked, dict) or not set(marked) <= {"sideways", "loose"}:
            raise MarksError(f'{where}: {name}: expected {{"sideways": [indices], "loose": [indices] or "all"}}')
        turned = set(marked_indices(images, name, where, marked.get("sideways", [])))
        loose_mark = marked.get("loose", [])
        every = list(range(len(images.get(name, []))))
        loose = set(marked_indices(images, name, where, every if loose_mark == _ALL else loose_mark))
        both = sorted(turned & loose)
        if both:
            raise MarksError(f"{where}: {name} tile {both[0]} is marked both sideways and loose")
        for index, tile in enumerate(images[name]):
            if index in loose:
                tile.pop("sideways", None)
            else:
                tile["sideways"] = index in turned
                sideways += index in turned
                upright += index not in turned
    return sideways, upright


def image_sheet(
    image: np.ndarray, tiles: list[dict[str, Any]], marked: dict[str, Any] | None, pixel_aspect: float, width: int
) -> np.ndarray:
    """``image`` at its true aspect, ``width`` pixels wide, each tile's box outlined in the
    colour of its mark (``marked``: the image's entry in the marks file; None: not looked at)
    and numbered by its index."""
    height = round(width * image.shape[0] / (image.shape[1] * pixel_aspect))
    scale = np.array([width / image.shape[1], height / image.shape[0]] * 2)
    picture = cv2.resize(image, (width, height), interpolation=cv2.INTER_CUBIC)
    turned = set(marked.get("sideways", [])) if marked is not None else set()
    loose_mark = marked.get("loose", []) if marked is not None else []
    loose = set(range(len(tiles))) if loose_mark == _ALL else set(loose_mark)
    for index, tile in enumerate(tiles):
        x0, y0, x1, y1 = (round(v) for v in np.asarray(tile["box"], float) * scale)
        colour = (
            _UNMARKED if marked is None else _SIDEWAYS if index in turned else _LOOSE if index in loose else _UPRIGHT
        )
        cv2.rectangle(picture, (x0, y0), (x1, y1), colour, 1, cv2.LINE_AA)
        tag = str(index)
        (text_w, text_h), _ = cv2.getTextSize(tag, cv2.FONT_HERSHEY_SIMPLEX, 0.45, 1)
        left, bottom = (x0 + x1 - text_w) // 2, max(y0 - 2, text_h + 2)  # centred above the box
        cv2.rectangle(picture, (left - 1, bottom - text_h - 2), (left + text_w + 1, bottom + 2), (255, 255, 255), -1)
        cv2.putText(picture, tag, (left, bottom), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1, cv2.LINE_AA)
    return picture


def write_sheets(
    labels_path: Path, out: Path, pixel_aspect: float, width: int = 1400, marks_path: Path = MARKS_FILE
) -> list[dict[str, object]]:
    """One sheet per image of the label file into ``out`` (``NNN.png``); returns the index
    (sheet, image, tiles) that ``out/index.json`` holds. A label file, marks file or image that
    cannot be read raises a :class:`MarksError` naming it."""
    document = load_sheet_labels(labels_path)
    source = source_name(document)
    marks = load_marks(marks_path).get(source, {}) if marks_path.is_file() else {}
    out.mkdir(parents=True, exist_ok=True)
    index: list[dict[str, object]] = []
    for number, name in enumerate(sorted(document["images"])):
        image = cv2.imread(str(labels_path.parent / name))
        if image is None:
            raise MarksError(f"{labels_path.parent / name}: not a readable image")
        tiles = document["images"][name]
        picture = image_sheet(image, tiles, marks.get(name), pixel_aspect, width)
        title = f"{number:03d}  {name[:70]}  ({len(tiles)} tiles)"
        band = np.full((24, picture.shape[1], 3), 255, np.uint8)
        cv2.putText(band, title, (4, 17), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1, cv2.LINE_AA)
        sheet = f"{number:03d}.png"
        if not cv2.imwrite(str(out / sheet), np.vstack([band, picture])):
            raise MarksError(f"{out / sheet}: could not be written")
        index.append({"sheet": sheet, "image": name, "tiles": len(tiles)})
    (out / "index.json").write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    return index


def main() -> None:
    from vision.detect.pixel_aspect import parse_pixel_aspect  # noqa: PLC0415 - the CLI's argument only

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = parser.add_subparsers(dest="action", required=True)
    sheet = actions.add_parser("sheet", help="write a numbered sheet of each photograph of a built source")
    sheet.add_argument("--labels", required=True, type=Path, help="a label file of a source built by real_photos")
    sheet.add_argument("--out", required=True, type=Path, help="folder for NNN.png and index.json")
    sheet.add_argument(
        "--pixel-aspect", default="1", help="the export's squeeze to undo: 1, 16:9, 3:4, ... (as vision detect's)"
    )
    sheet.add_argument("--width", type=int, default=1400, help="a sheet's width in pixels")
    args = parser.parse_args()
    pixel_aspect = parse_pixel_aspect(args.pixel_aspect)
    if pixel_aspect is None:
        raise SystemExit("--pixel-aspect: give the squeeze (1, 16:9, 3:4, ...): the sheet does not guess it")
    try:
        index = write_sheets(args.labels, args.out, pixel_aspect, args.width)
    except MarksError as error:
        raise SystemExit(str(error)) from None  # one line naming the file, not a traceback
    print(f"{args.out}: {len(index)} sheets, {sum(int(str(e['tiles'])) for e in index)} tiles numbered")


if __name__ == "__main__":
    main()
