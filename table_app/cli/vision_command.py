"""``jantaku vision``: the camera side. ``vision detect IMAGE`` finds and reads tiles in a photo;
``vision calibrate`` and ``vision markers`` (in :mod:`table_app.cli.vision_calibrate_command`);
``vision watch`` (in :mod:`table_app.cli.vision_watch_command`)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from table_app.cli import (
    vision_calibrate_command,
    vision_enroll_command,
    vision_eval_command,
    vision_labels_command,
    vision_watch_command,
)
from table_app.cli.detection_options import add_detection_options, check_detection_options, detector_from

EXAMPLES = """examples:
  jantaku vision detect table.jpg
  jantaku vision detect table.jpg --json
  jantaku vision detect table.jpg --draw found.png
  jantaku vision detect close-up.png --tile-height 120
  jantaku vision eval --labels photos/labels.json
  jantaku vision import-labels yolo-export/ --out photos.labels.json
  jantaku vision enroll --source grid.jpg --out table.enrollment.json"""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "vision",
        help="camera tools: detect tiles, score detection, enroll a tile set, calibrate the camera, watch the table",
        description="Camera tools.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    detect = actions.add_parser(
        "detect",
        help="find and read every tile in a still photo (no calibration)",
        description="Find and read every tile in a still photo taken from above, at any position and rotation.",
    )
    detect.add_argument("image", metavar="IMAGE", type=Path, help="a photo (JPEG, PNG, ...)")
    detect.add_argument("--json", action="store_true", help="print a JSON list of tiles")
    detect.add_argument(
        "--draw", type=Path, metavar="FILE", help="also write the photo with each tile found drawn on it (.png, .jpg)"
    )
    add_detection_options(detect)
    vision_calibrate_command.register(actions)
    vision_eval_command.register(actions)
    vision_labels_command.register(actions)
    vision_enroll_command.register(actions)
    vision_watch_command.register(actions)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.action == "calibrate":
        return vision_calibrate_command.run_calibrate(args)
    if args.action == "markers":
        return vision_calibrate_command.run_markers(args)
    if args.action == "eval":
        return vision_eval_command.run_eval(args)
    if args.action == "import-labels":
        return vision_labels_command.run_import(args)
    if args.action == "render":
        return vision_eval_command.run_render(args)
    if args.action == "enroll":
        return vision_enroll_command.run_enroll(args)
    if args.action == "enroll-sheet":
        return vision_enroll_command.run_sheet(args)
    if args.action == "watch":
        return vision_watch_command.run_watch(args)
    return run_detect(args)


def run_detect(args: argparse.Namespace) -> int:
    # Imported here so `jantaku hand` and friends start without loading OpenCV and onnxruntime.
    from vision.detect.pixel_aspect import pixel_aspect_name  # noqa: PLC0415
    from vision.detect.still_photo import read_image  # noqa: PLC0415

    check_detection_options(args)
    image = read_image(args.image)
    reading = detector_from(args)(image)
    detections = reading.detections
    if args.draw is not None:
        from vision.detect.overlay import write_overlay  # noqa: PLC0415

        write_overlay(args.draw, image, detections)
    if args.json:
        print(json.dumps([d.as_json() for d in detections]))
        return 0
    squeezed = "" if reading.pixel_aspect == 1.0 else f" (pixel aspect {pixel_aspect_name(reading.pixel_aspect)})"
    print(f"{args.image}: {len(detections)} tiles{squeezed}")
    if reading.set_aside:
        print("  set aside: " + "; ".join(f"{count} {why}" for why, count in reading.set_aside))
    if reading.read_again:
        print("  read again: " + "; ".join(reading.read_again))
    for d in detections:
        x0, y0, x1, y1 = d.box
        name = ("red " if d.reading.red else "") + d.reading.name
        flags = (" sideways" if d.sideways else "") + (" UNCERTAIN" if d.reading.uncertain else "")
        print(f"  {name:<8} at [{x0:4d},{y0:4d},{x1:4d},{y1:4d}] angle {d.angle:3d}  {d.reading.confidence:.2f}{flags}")
    return 0
