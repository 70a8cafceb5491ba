"""``jantaku vision enroll`` (adapt the classifier to a table's own tiles from a photo of the
enrollment sheet) and ``jantaku vision enroll-sheet`` (the printable sheet): thin wrappers over
``vision.enrollment``."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import Any

from table_app.progress import Progress

log = logging.getLogger(__name__)

_IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")

ENROLL_EXAMPLES = """examples:
  jantaku vision enroll-sheet --out sheet.png          print at 100 % on A3, lay one tile upright per cell
  jantaku vision enroll --source opencv:0 --out table.enrollment.json
  jantaku vision enroll --source sheet-photo.jpg --out table.enrollment.json
  jantaku vision enroll --layout rows --source rows.jpg --check rows-2.jpg --out table.enrollment.json
  jantaku vision detect table.jpg --enrollment table.enrollment.json

The sheet (docs/vision.md, "Tile-set enrollment"): four ArUco DICT_4X4_50 markers, ids 4-7, and
7×6 green cells read row by row: 1m..9m, 1p..9p, 1s..9s, 1z..7z, red 5m, red 5p, red 5s, a
face-down tile; the last four cells stay empty. Leave a cell empty if your set lacks that tile.
No sheet (--layout rows; docs/vision.md, "Enrolling from a phone photo"): one tile of each kind
face up, tops away from you, a finger's width apart, in rows far to near: 1m-9m, 1p-9p, 1s-9s,
東南西北白發中, and red 5m 5p 5s if the set has them; photograph from above, rows across."""


def register(actions: Any) -> None:
    enroll = actions.add_parser(
        "enroll",
        help="adapt the tile classifier to this table's tiles from a photo of the enrollment sheet",
        description="Read one frame of the enrollment sheet with one tile in each cell, cut the tiles out, fit "
        "a head on the classifier's features for them and save it; prints accuracy before and after.",
        epilog=ENROLL_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    enroll.add_argument(
        "--source", required=True, metavar="SRC|IMAGE", help="a photo, or picamera2, opencv:N, a folder or a video"
    )
    enroll.add_argument("--out", required=True, type=Path, metavar="FILE", help="NAME.json (arrays go to NAME.npz)")
    enroll.add_argument("--model", type=Path, metavar="ONNX", help="another classifier model (with its .json)")
    enroll.add_argument(
        "--blend", type=float, default=None, metavar="W", help="the head's share of the probabilities (0.5)"
    )
    enroll.add_argument("--copies", type=int, default=None, metavar="N", help="varied crops per tile and side (24)")
    enroll.add_argument(
        "--layout",
        choices=("sheet", "rows"),
        default="sheet",
        help="how the tiles lie: on the printed sheet (default), or in rows on any plain surface, no sheet needed",
    )
    enroll.add_argument(
        "--check",
        metavar="IMAGE",
        type=Path,
        help="a second photo of the same layout: prints how well its tiles are read before and after",
    )
    sheet = actions.add_parser(
        "enroll-sheet",
        help="draw the printable enrollment sheet (A3 landscape)",
        description="Write the enrollment sheet (A3 landscape, ArUco DICT_4X4_50 ids 4-7, 7×6 cells); "
        "print it at 100 %%.",
    )
    sheet.add_argument("--out", required=True, type=Path, metavar="PNG", help="the image to write")
    sheet.add_argument("--dpi", type=int, default=200, help="print resolution (default 200)")


def run_enroll(args: argparse.Namespace) -> int:
    # Imported here so other commands start without loading OpenCV and onnxruntime.
    from vision.classify.classifier import DEFAULT_MODEL, OnnxTileClassifier  # noqa: PLC0415
    from vision.classify.labels import label_name  # noqa: PLC0415
    from vision.enrollment.enroll import (  # noqa: PLC0415
        DEFAULT_BLEND,
        DEFAULT_COPIES,
        ENROLL_STAGES,
        enroll_tiles,
        measure,
    )
    from vision.enrollment.enrollment_file import faces_path, save_enrollment  # noqa: PLC0415
    from vision.enrollment.face_images import save_face_images  # noqa: PLC0415
    from vision.enrollment.sheet import GRID_LABELS  # noqa: PLC0415

    blend = DEFAULT_BLEND if args.blend is None else args.blend
    copies = DEFAULT_COPIES if args.copies is None else args.copies
    if not 0.0 < blend <= 1.0:
        raise ValueError(f"--blend must be more than 0 and at most 1, got {blend}")
    if not 4 <= copies <= 200:
        raise ValueError(f"--copies must be 4-200, got {copies}")
    if args.out.suffix != ".json":
        raise ValueError(f"--out {args.out}: name it NAME.json (the arrays go to NAME.npz beside it)")
    image = _read_source(args.source)
    classifier = OnnxTileClassifier(args.model or DEFAULT_MODEL)
    tiles = _cut(image, args.layout, classifier, str(args.source))
    check = None
    if args.check is not None:
        check_image = _read_source(str(args.check))
        check = (check_image, _cut(check_image, args.layout, classifier, str(args.check)))
    with Progress(len(ENROLL_STAGES), "enroll") as bar:
        enrollment = enroll_tiles(
            image, tiles, classifier, copies=copies, blend=blend, finished=lambda stage: bar.advance(note=stage)
        )
    enrolled = set(enrollment.labels)
    empty = [
        label_name(label) + (" (red)" if label in (34, 35, 36) else "")
        for label in GRID_LABELS
        if label is not None and label not in enrolled and args.layout == "sheet"
    ]
    # The faces as cut, kept beside the enrollment: the renderer can draw tables in this set.
    faces = faces_path(args.out)
    save_face_images(faces, image, tiles)
    details = {
        "source": str(args.source),
        "layout": args.layout,
        "faces": faces.name,
        "labels": [label_name(label) + ("-red" if label in (34, 35, 36) else "") for label in enrollment.labels],
        "copies": copies,
        "accuracy": {
            "fresh_crops": {
                "before": enrollment.fresh.before,
                "after": enrollment.fresh.after,
                "crops": enrollment.fresh.crops,
            },
            "sheet_crops": {
                "before": enrollment.plain.before,
                "after": enrollment.plain.after,
                "crops": enrollment.plain.crops,
            },
        },
    }
    second = None
    if check is not None:
        second = measure(classifier, enrollment.head, *_plain_crops(*check))
        details["accuracy"]["second_photo"] = {
            "image": str(args.check),
            "before": second.before,
            "after": second.after,
            "crops": second.crops,
        }
    save_enrollment(args.out, enrollment.head, classifier.sha256, details)
    print(f"{args.out}: {len(tiles)} tiles enrolled" + (f"; empty cells: {', '.join(empty)}" if empty else ""))
    print(f"  faces kept in {faces}/ (jantaku vision render --faces {args.out} draws tables in this set)")
    print(
        f"  label accuracy on the sheet's crops       before {enrollment.plain.before:.3f}  after "
        f"{enrollment.plain.after:.3f}  ({enrollment.plain.crops} crops)"
    )
    print(
        f"  label accuracy on fresh varied crops      before {enrollment.fresh.before:.3f}  after "
        f"{enrollment.fresh.after:.3f}  ({enrollment.fresh.crops} crops)"
    )
    if second is not None:
        print(
            f"  label accuracy on the second photo        before {second.before:.3f}  after "
            f"{second.after:.3f}  ({second.crops} tiles, {args.check})"
        )
    return 0


def _cut(image: Any, layout: str, classifier: Any, photo: str) -> Any:
    """The enrolled tiles of a photo: the sheet's cells, or the rows found as ``vision detect``
    finds tiles. A layout the photo does not show is refused naming the photo (two are read)."""
    if layout == "sheet":
        from vision.enrollment.sheet import cut_enrollment_tiles  # noqa: PLC0415

        return cut_enrollment_tiles(image)
    from vision.detect.still_photo import detect_tiles  # noqa: PLC0415
    from vision.enrollment.rows import LayoutError, cut_row_layout  # noqa: PLC0415

    try:
        return cut_row_layout([d.corners for d in detect_tiles(image, classifier)])
    except LayoutError as error:
        raise LayoutError(f"{photo}: {error}") from error


def _plain_crops(image: Any, tiles: Any) -> tuple[Any, Any]:
    import numpy as np  # noqa: PLC0415

    from vision.classify.crops import crop_tile  # noqa: PLC0415

    return np.stack([crop_tile(image, t.corners) for t in tiles]), np.array([t.label for t in tiles])


def run_sheet(args: argparse.Namespace) -> int:
    import cv2  # noqa: PLC0415

    from vision.enrollment.sheet import draw_enrollment_sheet  # noqa: PLC0415

    if not 50 <= args.dpi <= 600:
        raise ValueError(f"--dpi must be 50-600, got {args.dpi}")
    if not cv2.imwrite(str(args.out), draw_enrollment_sheet(args.dpi / 25.4)):
        raise ValueError(f"--out {args.out}: cannot write the image there (folder, or suffix such as .png)")
    print(f"{args.out}: enrollment sheet, A3 landscape at {args.dpi} dpi; print at 100 %")
    return 0


def _read_source(source: str) -> Any:
    from table_app.cli.vision_calibrate_command import first_frame_of  # noqa: PLC0415
    from vision.detect.still_photo import read_image  # noqa: PLC0415

    if Path(source).suffix.lower() in _IMAGE_SUFFIXES:
        return read_image(Path(source))
    return first_frame_of(source).image
