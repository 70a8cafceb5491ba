"""Real photographs of tiles with box labels, from public data sets, as jantaku label files.

    .venv/bin/python -m vision.training.real_photos --source alanchoi --repo PATH --out DIR

``PATH`` is a checkout of the source's repository at the commit :data:`SOURCES` names (how
to get one: ``models/DATA.md``). The source's YOLO labels (Roboflow exports: one ``.txt``
per image, ``class cx cy w h`` normalised) become a jantaku label file (``labels.json``,
:mod:`vision.eval.label_file`) beside a copy of the images, so ``jantaku vision eval`` scores
them and the detector's recipe trains on them. Beside the label file's ``images`` it writes:

- ``ignore``: per image, boxes of tiles that are not riichi tiles (flowers and seasons of a
  Chinese set) or whose face the source does not name (a red five of unknown suit):
  evaluation neither counts them as missed nor a detection on them as false;
- ``groups``: per image, the photograph it was made from. Roboflow writes several
  augmented copies of one photograph (flips, rotations, shear); copies of one photograph
  must never sit on both sides of a split;
- ``augmented``: images that are such copies (their boxes are loose: a rotated tile's box
  is the box of the rotated face) — training uses their centres, not their sizes;
- ``split``: per photograph group, ``train`` or ``held-out``.

No torch here: the data card's recipe and tests run without the ``train`` extra.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import re
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from vision.eval import label_import
from vision.json_file import read_json_object
from vision.training import red_five_marks, sideways_marks
from vision.training.photo_marks import MarksError

log = logging.getLogger(__name__)

OTHER: Final = "other"  # a tile that is not one of the 34 kinds (or whose face the source does not name)
_IMAGE_SUFFIXES: Final = (".jpg", ".jpeg", ".png")
_ROBOFLOW_COPY: Final = re.compile(r"^(?P<group>.+?)_(?:jpg|jpeg|png)\.rf\.[0-9a-f]+$", re.IGNORECASE)


class RealPhotoError(ValueError):
    """A source folder or label line that cannot be read, or a built source's label file; the
    message names the file (and the line)."""


@dataclass(frozen=True)
class PhotoSource:
    """A public data set of labelled photographs (provenance in ``models/DATA.md``)."""

    name: str
    repo: str
    commit: str
    licence: str
    folder: str  # the Roboflow export inside the repository
    tile_of_class: Callable[[str], str | None]  # a class name → "1m".."7z", OTHER, or None (unknown name)
    held_out: bool  # the whole source is kept out of training
    #: Export folders whose images are augmented copies (loose boxes, mirrored faces).
    augmented_splits: tuple[str, ...] = ()
    #: Photographs (groups) whose labels name other tiles than their faces show, checked by
    #: eye: left out of the built set, from both sides of the split (the source's entry says why).
    mislabelled: tuple[str, ...] = ()
    notes: str = ""
    splits: tuple[str, ...] = field(default=("train", "valid", "test"))


def chinese_set_tile(name: str) -> str | None:
    """alanchoi00/mahjong_detection's names: sc/sd/sb + number (characters, dots, bamboo),
    hw + e/s/w/n (winds), hd + w/g/r (dragons), bs/bf + number (seasons, flowers)."""
    suits = {"sc": "m", "sd": "p", "sb": "s"}
    if len(name) == 3 and name[:2] in suits and name[2] in "123456789":
        return f"{name[2]}{suits[name[:2]]}"
    honours = {"hwe": "1z", "hws": "2z", "hww": "3z", "hwn": "4z", "hdw": "5z", "hdg": "6z", "hdr": "7z"}
    if name in honours:
        return honours[name]
    if len(name) == 3 and name[:2] in ("bs", "bf") and name[2] in "1234":
        return OTHER
    return None


def japanese_set_tile(name: str) -> str | None:
    """leo-miura-robot/mahjong-detect's names: N_man / N_pin / N_sou, ton nan sya- pe- haku
    hatsu chun; ``0`` is a red five whose suit the source does not say."""
    match = re.fullmatch(r"([1-9])_(man|pin|sou)", name)
    if match:
        return match.group(1) + {"man": "m", "pin": "p", "sou": "s"}[match.group(2)]
    honours = {"ton": "1z", "nan": "2z", "sya-": "3z", "pe-": "4z", "haku": "5z", "hatsu": "6z", "chun": "7z"}
    if name in honours:
        return honours[name]
    return OTHER if name == "0" else None


SOURCES: Final = {
    "alanchoi": PhotoSource(
        name="alanchoi",
        repo="alanchoi00/mahjong_detection",
        commit="4403f4c0b9f5",
        licence="CC BY 4.0 (Roboflow: riichimahjongdetection/chinese-mahjong-detection v4)",
        folder="data",
        tile_of_class=chinese_set_tile,
        held_out=False,
        augmented_splits=("train",),
        # Every tile of these seven photographs carries the source's class 2 (sd1, 1p), whatever
        # its face: rows of assorted characters, circles, bamboos and honours (IMG_2779: 42
        # tiles of some twenty kinds, all "1p"). Trained on, they taught the classifier that
        # any face may be a 1p; held out, they counted true readings as misreads.
        mislabelled=("IMG_2778", "IMG_2779", "IMG_2780", "IMG_2781", "IMG_2783", "IMG_2786", "IMG_2788"),
        notes="Chinese sets: hands, tables, trays; phone and web photos stretched to 640×640; "
        "seven photographs whose every tile is labelled 1p left out",
    ),
    "leo-miura": PhotoSource(
        name="leo-miura",
        repo="leo-miura-robot/mahjong-detect",
        commit="6e3accb27386",
        licence="CC BY 4.0 (Roboflow: leomiurarobot/mahjong-bmblq v4)",
        folder="datasets/mahjong.v5",
        tile_of_class=japanese_set_tile,
        held_out=True,
        notes="Japanese tiles: screenshots of table and hand scenes, stretched to 640×640",
    ),
}

#: One photograph group in this many of a training source is held out (by a hash of its name,
#: so the split never depends on the order files are listed in), among groups that have an
#: original (not augmented) image.
HELD_OUT_ONE_IN: Final = 3


def class_names(data_yaml: Path) -> list[str]:
    """The class names of a Roboflow export's ``data.yaml`` (:func:`label_import.yaml_class_names`)."""
    try:
        return label_import.yaml_class_names(data_yaml) or []
    except label_import.LabelImportError as error:
        raise RealPhotoError(str(error)) from None


def yolo_boxes(text: str, width: int, height: int, where: str) -> list[tuple[int, list[float]]]:
    """``(class, [x0, y0, x1, y1])`` in pixels, to a tenth, from a YOLO label file's text
    (:func:`label_import.yolo_line_box`); a box of no area is refused."""
    boxes = []
    for number, line in enumerate(text.splitlines(), start=1):
        parts = line.split()
        if not parts:
            continue
        try:
            cls, box = label_import.yolo_line_box(parts, width, height, f"{where}:{number}")
        except label_import.LabelImportError as error:
            raise RealPhotoError(str(error)) from None
        x0, y0, x1, y1 = (round(v, 1) for v in box)
        if not (x1 > x0 and y1 > y0):
            raise RealPhotoError(f"{where}:{number}: a box of no area: {line!r}")
        boxes.append((cls, [x0, y0, x1, y1]))
    return boxes


def group_of(stem: str) -> str:
    """The photograph an exported image was made from (Roboflow: ``NAME_jpg.rf.HASH``)."""
    match = _ROBOFLOW_COPY.match(stem)
    return match.group("group") if match else stem


def held_out_group(group: str) -> bool:
    return int(hashlib.sha1(group.encode()).hexdigest(), 16) % HELD_OUT_ONE_IN == 0


def build(source: PhotoSource, repo: Path, out: Path) -> dict[str, int]:
    """Write ``out/images/`` and ``out/labels.json`` for ``source`` from a checkout at ``repo``;
    returns counts (images, boxes, ignored boxes, groups, held-out groups)."""
    import cv2  # noqa: PLC0415 - only reading image sizes needs it

    root = repo / source.folder
    if not root.is_dir():
        raise RealPhotoError(f"{root} is not a folder: is {repo} a checkout of {source.repo} at {source.commit}?")
    names = class_names(root / "data.yaml")
    images_out = out / "images"
    images_out.mkdir(parents=True, exist_ok=True)
    images: dict[str, list[dict[str, object]]] = {}
    ignore: dict[str, list[list[float]]] = {}
    groups: dict[str, str] = {}
    augmented: list[str] = []
    originals: set[str] = set()
    dropped: set[str] = set()
    for split in source.splits:
        folder = root / split / "images"
        if not folder.is_dir():
            continue
        for image_path in sorted(p for p in folder.iterdir() if p.suffix.lower() in _IMAGE_SUFFIXES):
            group = group_of(image_path.stem)
            if group in source.mislabelled:
                dropped.add(group)
                continue
            label_path = root / split / "labels" / f"{image_path.stem}.txt"
            if not label_path.is_file():
                log.warning("%s: no label file, skipped", image_path)
                continue
            image = cv2.imread(str(image_path))
            if image is None:
                raise RealPhotoError(f"{image_path}: not a readable image")
            height, width = image.shape[:2]
            tiles: list[dict[str, object]] = []
            ignored: list[list[float]] = []
            for cls, box in yolo_boxes(label_path.read_text(encoding="utf-8"), width, height, str(label_path)):
                if not 0 <= cls < len(names):
                    raise RealPhotoError(f"{label_path}: class {cls} is not in data.yaml's {len(names)} names")
                tile = source.tile_of_class(names[cls])
                if tile is None:
                    raise RealPhotoError(
                        f"{label_path}: class name {names[cls]!r} has no tile in {source.name}'s table"
                    )
                if tile == OTHER:
                    ignored.append(box)
                else:
                    tiles.append({"box": box, "tile": tile})
            name = f"{split}-{image_path.name}"
            shutil.copyfile(image_path, images_out / name)
            images[f"images/{name}"] = tiles
            if ignored:
                ignore[f"images/{name}"] = ignored
            groups[f"images/{name}"] = group
            if split in source.augmented_splits:
                augmented.append(f"images/{name}")
            else:
                originals.add(group)
    if not images:
        raise RealPhotoError(f"{root}: no labelled images in {', '.join(source.splits)}")
    if missing := sorted(set(source.mislabelled) - dropped):
        raise RealPhotoError(f"{root}: no photograph {', '.join(missing)}, listed as mislabelled in {source.name}")
    split_of = {
        group: "held-out" if source.held_out or (group in originals and held_out_group(group)) else "train"
        for group in sorted(set(groups.values()))
    }
    # A group held out keeps only its originals: its augmented copies are dropped from both sides.
    for name in [n for n in augmented if split_of[groups[n]] == "held-out"]:
        del images[name]
        ignore.pop(name, None)
        del groups[name]
        (out / name).unlink()
    augmented = [n for n in augmented if n in images]
    marks = red_five_marks.load_marks()
    reds = red_five_marks.apply_marks(source.name, images, ignore, marks)
    turns = sideways_marks.load_marks()
    sideways, upright = sideways_marks.apply_marks(source.name, images, turns)
    document = {
        "format": "jantaku-labels",
        "version": 1,
        "source": {"name": source.name, "repo": source.repo, "commit": source.commit, "licence": source.licence},
        "images": images,
        "ignore": ignore,
        "groups": groups,
        "augmented": augmented,
        "split": split_of,
        # Every five of a marked source was looked at (models/labels/red-fives.json): a five
        # without "red" is known plain, so red-five figures on it mean something.
        "red_fives_marked": source.name in marks,
        # Some images were looked at for tiles lying sideways (models/labels/sideways.json):
        # their tiles say "sideways" true or false, a loose tile (in no row) nothing.
        "sideways_marked": source.name in turns,
    }
    (out / "labels.json").write_text(json.dumps(document, indent=None) + "\n", encoding="utf-8")
    counts = {
        "images": len(images),
        "boxes": sum(len(t) for t in images.values()),
        "ignored_boxes": sum(len(b) for b in ignore.values()),
        "groups": len(split_of),
        "held_out_groups": sum(1 for s in split_of.values() if s == "held-out"),
        "held_out_images": sum(1 for n in images if split_of[groups[n]] == "held-out"),
        "held_out_boxes": sum(len(t) for n, t in images.items() if split_of[groups[n]] == "held-out"),
        "red_fives": reds,
        "sideways": sideways,
        "upright": upright,
        "mislabelled_left_out": len(dropped),
    }
    log.info("%s: %s", source.name, counts)
    return counts


def load_source_labels(labels_path: Path) -> dict[str, Any]:
    """The document of a built source's ``labels.json`` (or of a label set in its shape:
    :mod:`vision.training.compact_source`'s, :mod:`vision.training.seat_view_set`'s): a JSON
    object whose ``images``, ``groups`` and ``split`` are objects. Anything else raises a
    :class:`RealPhotoError` naming the file, not a traceback from the code that reads it."""
    document = read_json_object(labels_path, "labels file", RealPhotoError)
    for key in ("images", "groups", "split"):
        if not isinstance(document.get(key), dict):
            raise RealPhotoError(
                f'labels file {labels_path}: "{key}" must be an object, as in a source built by '
                "vision.training.real_photos"
            )
    return document


def checked_label_sets(paths: Sequence[Path]) -> list[Path]:
    """The label sets a recipe was given (``--photos``, ``--sets``), each read once to be sure it
    is one: the first that is not ends the run with one line naming it, before any frame is
    drawn (a recipe renders for minutes before it reads them)."""
    for path in paths:
        try:
            load_source_labels(path)
        except RealPhotoError as error:
            raise SystemExit(str(error)) from None
    return list(paths)


def tile_free_pictures(paths: Sequence[Path]) -> list[Path]:
    """The pictures that the built label sets ``paths`` list as ``negatives`` (no tile in them)
    and hold in their training split, in the order given."""
    found = []
    for path in paths:
        document = load_source_labels(path)
        negatives = set(document.get("negatives", ()))
        found += [path.parent / name for name in images_in_split(document, "train") if name in negatives]
    return found


def images_in_split(document: dict[str, Any], split: str) -> list[str]:
    """The image names of a built source's ``labels.json`` whose photograph is in ``split``
    (``train`` or ``held-out``), sorted."""
    return sorted(name for name, group in document["groups"].items() if document["split"][group] == split)


def subset(labels_path: Path, split: str, out_path: Path) -> int:
    """A label file holding only ``split``'s images (``train`` or ``held-out``) of a built source."""
    document = load_source_labels(labels_path)
    keep = set(images_in_split(document, split))
    document["images"] = {n: t for n, t in document["images"].items() if n in keep}
    document["ignore"] = {n: b for n, b in document.get("ignore", {}).items() if n in keep}
    out_path.write_text(json.dumps(document) + "\n", encoding="utf-8")
    return len(document["images"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", required=True, choices=sorted(SOURCES))
    parser.add_argument("--repo", required=True, type=Path, help="a checkout of the source's repository")
    parser.add_argument("--out", required=True, type=Path, help="folder to write images/ and labels.json into")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        counts = build(SOURCES[args.source], args.repo, args.out)
        for split in ("train", "held-out"):
            n = subset(args.out / "labels.json", split, args.out / f"labels-{split}.json")
            print(f"{args.out / f'labels-{split}.json'}: {n} images")
    except (RealPhotoError, MarksError) as error:
        raise SystemExit(str(error)) from None  # one line naming the file, not a traceback
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
