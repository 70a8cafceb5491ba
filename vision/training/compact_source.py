"""A small copy of a built photo source's train split, for a training machine far away.

    .venv/bin/python -m vision.training.compact_source --labels DIR/labels.json --out SMALL \\
        [--median-long 40] [--copies 1] [--quality 85]

A built source (:mod:`vision.training.real_photos`) is hundreds of megabytes: every photograph
at 640×640 and, for Roboflow exports, a dozen augmented copies of each. The detector never
looks at a tile longer than :data:`vision.training.photo_frames.ZOOMED_LONG_PX` allows, so
each image is scaled down until its median tile is ``--median-long`` pixels long (never up),
and of each photograph's augmented copies only ``--copies`` are kept (chosen by a hash of
their names, so the choice never depends on listing order). The held-out split is left out
altogether: it never trains. The result is a label set of the same format, which
``train_detector --photos`` reads like the original (boxes and ``ignore`` boxes scaled with
their image).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
from collections import defaultdict
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.training.real_photos import RealPhotoError, images_in_split, load_source_labels

log = logging.getLogger(__name__)


def compact(
    labels_path: Path, out: Path, median_long: float = 40.0, copies: int = 1, quality: int = 85
) -> dict[str, int]:
    """Write the compact copy of ``labels_path``'s train split into ``out``; the counts kept. A
    label file or image that cannot be read raises a :class:`RealPhotoError` naming it."""
    document = load_source_labels(labels_path)
    augmented = set(document.get("augmented", ()))
    names = images_in_split(document, "train")
    copies_of: dict[str, list[str]] = defaultdict(list)
    for name in names:
        if name in augmented:
            copies_of[document["groups"][name]].append(name)
    kept_copies = {
        name
        for group_copies in copies_of.values()
        for name in sorted(group_copies, key=lambda n: hashlib.sha256(n.encode()).hexdigest())[:copies]
    }
    keep = [name for name in names if name not in augmented or name in kept_copies]
    (out / "images").mkdir(parents=True, exist_ok=True)
    images: dict[str, Any] = {}
    ignore: dict[str, Any] = {}
    renamed: dict[str, str] = {}
    written = 0
    for name in keep:
        image = cv2.imread(str(labels_path.parent / name))
        if image is None:
            raise RealPhotoError(f"{labels_path.parent / name}: not a readable image")
        tiles = document["images"][name]
        longs = [max(t["box"][2] - t["box"][0], t["box"][3] - t["box"][1]) for t in tiles]
        scale = min(1.0, median_long / float(np.median(longs))) if longs else 1.0
        if scale < 1.0:
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        small_name = "images/" + Path(name).stem + ".jpg"
        if not cv2.imwrite(str(out / small_name), image, [cv2.IMWRITE_JPEG_QUALITY, quality]):
            raise OSError(f"{out / small_name}: could not be written")
        written += (out / small_name).stat().st_size
        images[small_name] = [{**t, "box": [round(v * scale, 1) for v in t["box"]]} for t in tiles]
        if name in document.get("ignore", {}):
            ignore[small_name] = [[round(v * scale, 1) for v in box] for box in document["ignore"][name]]
        renamed[name] = small_name
    source = document.get("source", "")  # real_photos writes {"name": ...}, seat_view_set a name alone
    small = {
        "format": document.get("format", "jantaku-labels"),
        "version": document.get("version", 1),
        "source": {
            **(source if isinstance(source, dict) else {"name": source}),
            "compact": f"train split, median tile {median_long:g} px at most, {copies} augmented copies a photo, "
            f"JPEG {quality}",
        },
        "images": images,
        "ignore": ignore,
        "groups": {renamed[n]: document["groups"][n] for n in keep},
        "augmented": sorted(renamed[n] for n in keep if n in augmented),
        "negatives": sorted(renamed[n] for n in document.get("negatives", ()) if n in renamed),
        "split": {document["groups"][n]: "train" for n in keep},
    }
    (out / "labels.json").write_text(json.dumps(small) + "\n", encoding="utf-8")
    return {"images": len(images), "boxes": sum(len(t) for t in images.values()), "bytes": written}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--labels", type=Path, required=True, help="labels.json of a built source")
    parser.add_argument("--out", type=Path, required=True, help="folder for images/ and labels.json")
    parser.add_argument("--median-long", type=float, default=40.0, help="each image's median tile at most this long")
    parser.add_argument("--copies", type=int, default=1, help="augmented copies kept of each photograph")
    parser.add_argument("--quality", type=int, default=85, help="JPEG quality")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        counts = compact(args.labels, args.out, args.median_long, args.copies, args.quality)
    except (RealPhotoError, OSError) as error:
        raise SystemExit(str(error)) from None  # one line naming the file, not a traceback
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
