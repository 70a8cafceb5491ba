"""``jantaku vision import-labels``: a labelling tool's export (YOLO, COCO, Pascal VOC) as a
jantaku label file, for ``jantaku vision eval``: a thin wrapper over ``vision.eval.label_import``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

IMPORT_EXAMPLES = """examples:
  jantaku vision import-labels my-table-yolo/ --out my-table.labels.json
  jantaku vision import-labels export/_annotations.coco.json --out labels.json
  jantaku vision import-labels voc/ --out labels.json --names names.json
  jantaku vision eval --labels my-table.labels.json

Class names are read as tiles whatever the scheme: 5m, m5, 5man, man_5, 5_character, 5C, 五萬,
0m or 5mr (a red five), E, ton, east_wind, EW, haku, white_dragon, WD, P (mjai), flower_1 (not a
riichi tile: ignored). The import prints what each name was read as. A name it cannot place
is refused; name it in a names file: {"their name": "1m", ...} ("1m".."9s", "1z".."7z",
"0m"/"0p"/"0s" for a red five, "back", or "other")."""


def register(actions: Any) -> None:
    parser = actions.add_parser(
        "import-labels",
        help="turn a labelling tool's export (YOLO, COCO, Pascal VOC) into a label file for vision eval",
        description="Read box labels of tile photographs exported by a labelling tool and write a jantaku label "
        "file that names the images where they lie (nothing is copied).",
        epilog=IMPORT_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "exports",
        nargs="+",
        type=Path,
        metavar="EXPORT",
        help="a YOLO folder (data.yaml or classes.txt) or data.yaml, a COCO .json or a folder of them, a folder of "
        "VOC .xml files",
    )
    parser.add_argument("--out", required=True, type=Path, metavar="FILE", help="the label file to write (JSON)")
    parser.add_argument(
        "--names", type=Path, metavar="FILE", help="a names file for class names the import cannot place (JSON)"
    )
    parser.add_argument("--force", action="store_true", help="replace --out if it exists")


def run_import(args: argparse.Namespace) -> int:
    from vision.eval.label_import import describe_table, labels_from, read_export  # noqa: PLC0415
    from vision.eval.tile_names import names_from_json  # noqa: PLC0415

    if args.out.exists() and not args.force:
        raise ValueError(f"--out {args.out} exists: give --force to replace it")
    given = names_from_json(args.names) if args.names is not None else {}
    exports = [read_export(path) for path in args.exports]
    imported = labels_from(exports, args.out, given)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(imported.document, indent=1) + "\n", encoding="utf-8")
    for export in exports:
        print(f"{export.source}: {export.format}, {len(export.images)} images")
        if export.without_labels:
            first = export.without_labels[0]
            print(f"  {len(export.without_labels)} images with no label file, left out (first: {first})")
        if export.no_area:
            print(f"  {len(export.no_area)} boxes of no area, left out (first: {export.no_area[0]})")
    print("class names read as:")
    for line in describe_table(imported.table):
        print(line)
    images = imported.document["images"]
    print(
        f"wrote {args.out}: {len(images)} images, {imported.tiles} tiles ({imported.red_fives} red fives), "
        f"{imported.ignored} boxes of tiles that are no riichi tiles (ignored by eval)"
    )
    print(f"score them: jantaku vision eval --labels {args.out}")
    return 0
