"""A labelling tool's export as a jantaku label file (``jantaku vision import-labels``).

Photographs of a table labelled in Roboflow, CVAT, LabelImg or Label Studio come out in one of
three formats, each read here into boxes named by the export's own class names:

- **YOLO** (Ultralytics, Roboflow "YOLOv5/v8", darknet): a folder with ``data.yaml`` (its
  ``names``, a list or ``{index: name}``) or ``classes.txt`` / ``obj.names``; each image's
  ``.txt`` beside it or in the ``labels`` folder beside its ``images`` folder, one ``class cx
  cy w h`` line a box, normalised (a polygon line gives its bounding box);
- **COCO** (one JSON file with ``images``, ``annotations``, ``categories``; Roboflow writes
  ``_annotations.coco.json`` into each split's folder): ``bbox`` ``[x, y, w, h]`` in pixels;
- **Pascal VOC** (LabelImg's default): one XML file an image, ``object`` / ``name`` /
  ``bndbox``.

The class names become tiles by :mod:`vision.eval.tile_names` (or a names file where a name
is none of the schemes it knows); the label file names each image by its path relative to the
label file, so ``jantaku vision eval --labels OUT`` scores them where they lie. Nothing is
copied. A tile that is not a riichi tile (a flower) becomes an ``ignore`` box. An image that
reads (EXIF turn applied, as jantaku reads it) at another size than its COCO or VOC export
states is refused: its boxes were drawn on another picture, most often the unturned one.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final
from xml.etree import ElementTree

from vision.eval.tile_names import BACK, OTHER, NamedTile, name_table
from vision.json_file import read_json_object

IMAGE_SUFFIXES: Final = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
_YOLO_NAME_FILES: Final = ("classes.txt", "obj.names", "classes.names", "_darknet.labels")

Box = tuple[float, float, float, float]


class LabelImportError(ValueError):
    """An export that cannot be read, or class names that name no tile; the message names the
    file (and the line or entry) and what to do."""


@dataclass(frozen=True, slots=True)
class NamedBox:
    """One labelled box of an export: its class name, ``[x0, y0, x1, y1]`` in pixels, and where
    it was written (file and line or entry), for messages."""

    name: str
    box: Box
    where: str


@dataclass(slots=True)
class Export:
    """What one export holds: its format, the class names it declares, each image's boxes."""

    source: Path
    format: str  # "yolo", "coco" or "voc"
    declared: list[str] = field(default_factory=list)
    images: dict[Path, list[NamedBox]] = field(default_factory=dict)
    without_labels: list[Path] = field(default_factory=list)  # images with no label file (YOLO)
    no_area: list[str] = field(default_factory=list)  # boxes of no area, skipped: where each was


def read_export(source: Path) -> Export:
    """The export at ``source``: a YOLO folder or ``data.yaml``, a COCO JSON file or a folder of
    them, a folder of VOC XML files."""
    if not source.exists():
        raise LabelImportError(f"{source}: does not exist")
    if source.is_file():
        if source.suffix.lower() in (".yaml", ".yml"):
            return _read_yolo(source.parent, yaml_class_names(source) or [])
        if source.suffix.lower() == ".json":
            return _read_coco_files(source, [(source, read_json_object(source, "COCO file", LabelImportError))])
        if source.suffix.lower() == ".xml":
            return _read_voc(source, [source])
        raise LabelImportError(f"{source}: not a data.yaml, a COCO .json or a VOC .xml; give the export's folder")
    yamls = sorted(p for p in source.glob("*.y*ml") if p.suffix.lower() in (".yaml", ".yml"))
    for path in yamls:
        names = yaml_class_names(path, required=False)
        if names is not None:
            return _read_yolo(source, names)
    for name in _YOLO_NAME_FILES:
        if (source / name).is_file():
            return _read_yolo(source, _listed_names(source / name))
    xml_files = sorted(source.rglob("*.xml"))
    if xml_files:
        return _read_voc(source, xml_files)
    coco_files = [(p, document) for p in sorted(source.rglob("*.json")) if (document := _coco_document(p))]
    if coco_files:
        return _read_coco_files(source, coco_files)
    raise LabelImportError(
        f"{source}: no export found: a YOLO folder has data.yaml (or classes.txt) with labels/*.txt, a COCO export "
        "a .json with images, annotations and categories, a VOC export one .xml an image"
    )


# --- YOLO -------------------------------------------------------------------------------


def yaml_class_names(path: Path, *, required: bool = True) -> list[str] | None:
    """A YOLO export's class names: ``data.yaml``'s ``names``, a list or ``{index: name}``
    (``None`` where it has none and ``required`` is false)."""
    import yaml  # noqa: PLC0415 - only this format needs it

    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise LabelImportError(f"{path}: not a YAML file that can be read ({error})") from None
    names = document.get("names") if isinstance(document, dict) else None
    if names is None:
        if required:
            raise LabelImportError(f"{path}: no names: the class names of a YOLO export")
        return None
    if isinstance(names, dict):
        try:
            indices = sorted(int(k) for k in names)
        except (TypeError, ValueError):
            raise LabelImportError(f"{path}: names must map class numbers to names, got keys {list(names)}") from None
        if indices != list(range(len(indices))):
            raise LabelImportError(f"{path}: names must number the classes 0..{len(indices) - 1}, got {indices}")
        names = [names[k] if k in names else names[str(k)] for k in indices]
    if not isinstance(names, list) or not all(isinstance(n, str | int) for n in names):
        raise LabelImportError(f"{path}: names must be a list of class names")
    return [str(n) for n in names]


def _listed_names(path: Path) -> list[str]:
    return [line.strip() for line in _text(path).splitlines() if line.strip()]


def _read_yolo(root: Path, names: list[str]) -> Export:
    export = Export(root, "yolo", declared=list(names))
    for image_path in _images_under(root):
        label_path = _yolo_label_path(image_path)
        if label_path is None:
            export.without_labels.append(image_path)
            continue
        width, height = _image_size(image_path)
        boxes: list[NamedBox] = []
        for number, line in enumerate(_text(label_path).splitlines(), start=1):
            where = f"{label_path}:{number}"
            parts = line.split()
            if not parts:
                continue
            cls, box = yolo_line_box(parts, width, height, where)
            if not 0 <= cls < len(names):
                raise LabelImportError(f"{where}: class {cls} is not one of the export's {len(names)} names")
            _add_box(export, boxes, names[cls], box, where)
        export.images[image_path] = boxes
    if not export.images:
        raise LabelImportError(
            f"{root}: no image with a YOLO label file (images/x.jpg with labels/x.txt, or x.txt beside)"
        )
    return export


def _yolo_label_path(image_path: Path) -> Path | None:
    parts = list(image_path.parts)
    for index in range(len(parts) - 2, -1, -1):
        if parts[index] == "images":
            beside = Path(*parts[:index], "labels", *parts[index + 1 :]).with_suffix(".txt")
            if beside.is_file():
                return beside
            break
    same = image_path.with_suffix(".txt")
    return same if same.is_file() else None


def yolo_line_box(parts: Sequence[str], width: int, height: int, where: str) -> tuple[int, Box]:
    """``(class, (x0, y0, x1, y1))`` in pixels, inside the image, from one YOLO label line's
    words: ``class cx cy w h`` normalised, or ``class x y x y ...`` (a polygon: its box)."""
    try:
        cls = int(parts[0])
        values = [float(p) for p in parts[1:]]
    except ValueError as error:
        raise LabelImportError(f"{where}: not a YOLO line ({error}): {' '.join(parts)!r}") from None
    if len(values) == 4:
        cx, cy, w, h = values
        x0, y0, x1, y1 = cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
    elif len(values) >= 6 and len(values) % 2 == 0:  # a polygon (segmentation export): its box
        xs, ys = values[0::2], values[1::2]
        x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
        cx, cy, w, h = (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0
    else:
        raise LabelImportError(f"{where}: expected class cx cy w h (or a polygon), got {len(values)} numbers")
    if not (0 <= w <= 1.0001 and 0 <= h <= 1.0001 and -0.01 <= cx <= 1.01 and -0.01 <= cy <= 1.01):
        raise LabelImportError(f"{where}: box outside the image (YOLO boxes are normalised, 0..1): {' '.join(parts)!r}")
    return cls, (max(0.0, x0 * width), max(0.0, y0 * height), min(width, x1 * width), min(height, y1 * height))


# --- COCO -------------------------------------------------------------------------------


def _coco_document(path: Path) -> dict[str, Any] | None:
    """A folder's JSON file as a COCO export (``images``, ``annotations``, ``categories``), or
    None for any other JSON file or one that cannot be read."""
    try:
        document = read_json_object(path, "COCO file", LabelImportError)
    except LabelImportError:
        return None
    return document if all(isinstance(document.get(k), list) for k in ("images", "annotations", "categories")) else None


def _read_coco_files(source: Path, files: Sequence[tuple[Path, dict[str, Any]]]) -> Export:
    export = Export(source, "coco")
    for path, document in files:
        _read_coco(path, document, export)
    return export


def _read_coco(path: Path, document: dict[str, Any], export: Export) -> None:
    for key in ("images", "annotations", "categories"):
        if not isinstance(document.get(key), list):
            raise LabelImportError(f"COCO file {path}: {key!r} must be a list")
    names: dict[Any, str] = {}
    for index, category in enumerate(document["categories"]):
        if not isinstance(category, dict) or "id" not in category or not isinstance(category.get("name"), str):
            raise LabelImportError(f"COCO file {path}: categories[{index}] needs an id and a name")
        names[category["id"]] = category["name"]
        if category["name"] not in export.declared:
            export.declared.append(category["name"])
    images: dict[Any, Path] = {}
    for index, image in enumerate(document["images"]):
        if not isinstance(image, dict) or "id" not in image or not isinstance(image.get("file_name"), str):
            raise LabelImportError(f"COCO file {path}: images[{index}] needs an id and a file_name")
        where = f"COCO file {path}: images[{index}]"
        image_path = _image_beside(path, image["file_name"], where)
        decoded = _image_size(image_path)  # a broken image is refused here, as in a YOLO export
        _check_size(image_path, decoded, _stated_size(image.get("width"), image.get("height"), where), where)
        images[image["id"]] = image_path
        if image_path in export.images:
            raise LabelImportError(f"COCO file {path}: images[{index}]: {image_path} is listed twice")
        export.images[image_path] = []
    for index, annotation in enumerate(document["annotations"]):
        where = f"COCO file {path}: annotations[{index}]"
        if not isinstance(annotation, dict):
            raise LabelImportError(f"{where}: must be an object")
        if annotation.get("image_id") not in images:
            raise LabelImportError(f"{where}: image_id {annotation.get('image_id')!r} is not in images")
        if annotation.get("category_id") not in names:
            raise LabelImportError(f"{where}: category_id {annotation.get('category_id')!r} is not in categories")
        bbox = annotation.get("bbox")
        if not (isinstance(bbox, list) and len(bbox) == 4 and all(isinstance(v, int | float) for v in bbox)):
            raise LabelImportError(f"{where}: bbox must be [x, y, width, height] in pixels, got {bbox!r}")
        image_path = images[annotation["image_id"]]
        x, y, w, h = (float(v) for v in bbox)
        _add_box(export, export.images[image_path], names[annotation["category_id"]], (x, y, x + w, y + h), where)


# --- Pascal VOC -------------------------------------------------------------------------


def _read_voc(source: Path, paths: Sequence[Path]) -> Export:
    export = Export(source, "voc")
    for path in paths:
        try:
            root = ElementTree.parse(path).getroot()
        except (OSError, ElementTree.ParseError) as error:
            raise LabelImportError(f"VOC file {path}: not XML that can be read ({error})") from None
        if root.tag != "annotation":
            continue  # another XML file in the folder
        filename = (root.findtext("filename") or "").strip()
        if not filename:
            raise LabelImportError(f"VOC file {path}: no <filename>")
        image_path = _image_beside(path, filename, f"VOC file {path}", stem=path.stem)
        if image_path in export.images:
            raise LabelImportError(f"VOC file {path}: {image_path} is labelled by another XML file too")
        size_where = f"VOC file {path}: <size>"
        stated = _stated_size(root.findtext("size/width"), root.findtext("size/height"), size_where)
        if stated is not None:
            _check_size(image_path, _image_size(image_path), stated, size_where)
        boxes: list[NamedBox] = []
        for index, element in enumerate(root.iter("object")):
            where = f"VOC file {path}: object {index + 1}"
            name = (element.findtext("name") or "").strip()
            corners = [element.findtext(f"bndbox/{k}") for k in ("xmin", "ymin", "xmax", "ymax")]
            try:
                x0, y0, x1, y1 = (float(v) for v in corners if v is not None)
            except ValueError:
                raise LabelImportError(f"{where}: needs a name and bndbox xmin ymin xmax ymax, numbers") from None
            if not name:
                raise LabelImportError(f"{where}: no <name>")
            _add_box(export, boxes, name, (x0, y0, x1, y1), where)
            if name not in export.declared:
                export.declared.append(name)
        export.images[image_path] = boxes
    if not export.images:
        raise LabelImportError(f"{source}: no VOC <annotation> file")
    return export


# --- shared -----------------------------------------------------------------------------


def _add_box(export: Export, boxes: list[NamedBox], name: str, box: Box, where: str) -> None:
    x0, y0, x1, y1 = box
    if not all(math.isfinite(v) for v in box):
        raise LabelImportError(f"{where}: box {list(box)} is not finite")
    if x1 - x0 < 1.0 or y1 - y0 < 1.0:  # a click without a drag: nothing to score against
        export.no_area.append(where)
        return
    boxes.append(NamedBox(name, (x0, y0, x1, y1), where))


def _images_under(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())


def _image_beside(label: Path, filename: str, where: str, stem: str | None = None) -> Path:
    """The image a COCO or VOC entry names: beside the label file, in an ``images`` or
    ``JPEGImages`` folder beside it or one up; a VOC file's own stem with an image suffix."""
    folder = label.parent
    name = Path(filename).name
    tries = [folder / filename, folder / name, folder / "images" / name, folder.parent / "JPEGImages" / name,
             folder.parent / "images" / name]  # fmt: skip
    if stem is not None:
        tries += [folder / f"{stem}{suffix}" for suffix in IMAGE_SUFFIXES]
    for path in tries:
        if path.is_file():
            return path
    raise LabelImportError(f"{where}: image {filename!r} not found (looked beside it and in images/, JPEGImages/)")


def _image_size(path: Path) -> tuple[int, int]:
    from vision.detect.still_photo import ImageReadError, read_image  # noqa: PLC0415 - OpenCV only here

    try:
        image = read_image(path)
    except ImageReadError as error:
        raise LabelImportError(str(error)) from None
    return int(image.shape[1]), int(image.shape[0])


def _stated_size(width: object, height: object, where: str) -> tuple[int, int] | None:
    """The ``(width, height)`` an export states for an image (COCO ``images[].width``/``height``,
    VOC ``<size>``), or ``None`` where it states none: either absent or empty, or 0 (written by
    tools that did not know it)."""
    values = [v.strip() if isinstance(v, str) else v for v in (width, height)]
    if any(v is None or v == "" for v in values):
        return None
    numbers: list[float] = []
    for value in values:
        try:
            numbers.append(float(value) if isinstance(value, int | float | str) and not isinstance(value, bool) else -1)
        except ValueError:
            numbers.append(-1)  # not a number: refused below
    if not all(math.isfinite(n) and n >= 0 and n == int(n) for n in numbers):
        raise LabelImportError(f"{where}: the stated size {width!r} x {height!r} is not a width and height in pixels")
    stated_width, stated_height = int(numbers[0]), int(numbers[1])
    return None if stated_width == 0 or stated_height == 0 else (stated_width, stated_height)


def _check_size(image_path: Path, decoded: tuple[int, int], stated: tuple[int, int] | None, where: str) -> None:
    """Refuses an image whose decoded ``(width, height)`` (after OpenCV's EXIF turn, as jantaku
    reads it) is not the size its export states: its boxes were drawn on another picture."""
    if stated is None or stated == decoded:
        return
    (width, height), (stated_width, stated_height) = decoded, stated
    message = (
        f"{where}: states {stated_width}x{stated_height} pixels (width x height) for {image_path}, "
        f"which reads as {width}x{height}"
    )
    if stated == (height, width):
        message += (
            ": the picture carries an EXIF turn (orientation tag) that the labeller ignored, so its boxes were "
            "drawn on the unturned picture and would land in the wrong place. Remove the tag so the picture "
            "reads as it was labelled (exiftool -Orientation= IMAGE), or label the turned picture again"
        )
    else:
        message += ": its boxes were drawn on another picture. Put back the image that was labelled, or label this one"
    raise LabelImportError(message)


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise LabelImportError(f"{path}: cannot be read as text ({error})") from None


# --- the label file -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ImportedLabels:
    """The label file's document and what it holds."""

    document: dict[str, Any]
    table: dict[str, NamedTile]  # each class name used → its tile
    tiles: int
    red_fives: int
    ignored: int  # boxes of tiles that are not riichi tiles


def labels_from(exports: Sequence[Export], out: Path, given: Mapping[str, NamedTile]) -> ImportedLabels:
    """The jantaku label file for ``exports``, to be written at ``out`` (its image names are
    relative to ``out``'s folder). A class name that names no tile raises, with every such name,
    how many boxes carry it and where the first is."""
    used: Counter[str] = Counter(b.name for e in exports for boxes in e.images.values() for b in boxes)
    first_use: dict[str, str] = {}
    for export in exports:
        for boxes in export.images.values():
            for b in boxes:
                first_use.setdefault(b.name, b.where)
    declared = list(dict.fromkeys([*(n for e in exports for n in e.declared), *used]))
    table, unknown = name_table(declared, given)
    unknown_used = [n for n in unknown if n in used]
    if unknown_used:
        listing = "; ".join(f"{n!r} ({used[n]} boxes, first {first_use[n]})" for n in unknown_used)
        raise LabelImportError(
            f"class names that name no tile: {listing}. Name them in a names file, JSON "
            '{"their name": "1m", ...} with "1m".."9s", "1z".."7z", "0m"/"0p"/"0s" (a red five), "back" '
            'or "other" (not a riichi tile), and give it with --names FILE'
        )
    folder = out.parent.resolve()
    images: dict[str, list[dict[str, object]]] = {}
    ignore: dict[str, list[list[float]]] = {}
    tiles = reds = ignored = 0
    for export in exports:
        for image_path, boxes in export.images.items():
            key = Path(os.path.relpath(image_path.resolve(), folder)).as_posix()
            if key in images:
                raise LabelImportError(f"{image_path}: labelled by two exports")
            entries: list[dict[str, object]] = []
            for b in boxes:
                named = table[b.name]
                box = [round(v, 1) for v in b.box]
                if named.tile == OTHER:
                    ignore.setdefault(key, []).append(box)
                    ignored += 1
                    continue
                entry: dict[str, object] = {"box": box, "tile": named.tile}
                if named.red:
                    entry["red"] = True
                    reds += 1
                entries.append(entry)
                tiles += 1
            images[key] = entries
    document: dict[str, Any] = {
        "format": "jantaku-labels",
        "version": 1,
        "source": {
            "name": exports[0].source.resolve().name if len(exports) == 1 else "imported",
            "imported_from": [{"path": str(e.source), "format": e.format} for e in exports],
        },
        "images": images,
        "ignore": ignore,
        # A scheme that has a class for a red five labels every red five: a five without it is plain.
        "red_fives_marked": any(t.red for t in table.values()),
    }
    return ImportedLabels(document, {n: table[n] for n in declared if n in used}, tiles, reds, ignored)


def describe_table(table: Mapping[str, NamedTile]) -> list[str]:
    """Lines showing what each class name was read as, so a wrong reading is seen at once."""
    width = max((len(n) for n in table), default=0)
    order = sorted(table, key=lambda n: (_tile_order(table[n]), n))
    return [f"  {name:<{width}} → {table[name]}" for name in order]


def _tile_order(named: NamedTile) -> tuple[int, str, bool]:
    if named.tile in (BACK, OTHER):
        return (2 if named.tile == BACK else 3, named.tile, named.red)
    return ("mpsz".index(named.tile[1]), named.tile, named.red)
