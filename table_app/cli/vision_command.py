"""``jantaku vision``: the camera side. ``vision detect IMAGE`` finds and reads tiles in a photo;
``vision calibrate`` and ``vision markers`` (in :mod:`table_app.cli.vision_calibrate_command`);
``vision watch`` (in :mod:`table_app.cli.vision_watch_command`)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from table_app.cli import vision_calibrate_command, vision_enroll_command, vision_eval_command, vision_watch_command

EXAMPLES = """examples:
  jantaku vision detect table.jpg
  jantaku vision detect table.jpg --json
  jantaku vision detect close-up.png --tile-height 120
  jantaku vision eval --labels photos/labels.json
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
        "--tile-height", type=float, metavar="PX", help="a tile face's long edge in pixels (default: measured)"
    )
    detect.add_argument("--model", type=Path, metavar="ONNX", help="another classifier model (with its .json)")
    detect.add_argument(
        "--finder",
        choices=("learnt", "classic"),
        default="learnt",
        help="how tiles are found: the learnt detector (default) or the classical seam finder",
    )
    detect.add_argument("--detector", type=Path, metavar="ONNX", help="another tile detector model (with its .json)")
    detect.add_argument("--enrollment", type=Path, metavar="FILE", help="a tile-set enrollment (vision enroll)")
    vision_calibrate_command.register(actions)
    vision_eval_command.register(actions)
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
    from vision.classifier import DEFAULT_MODEL, OnnxTileClassifier  # noqa: PLC0415
    from vision.detect import detect_tiles, make_finder, read_image  # noqa: PLC0415
    from vision.find.finder import TILE_ASPECT  # noqa: PLC0415
    from vision.find.seams import TileSize  # noqa: PLC0415

    if args.tile_height is not None and args.tile_height <= 4:
        raise ValueError(f"--tile-height must be more than 4 pixels, got {args.tile_height}")
    image = read_image(args.image)
    classifier = OnnxTileClassifier(args.model or DEFAULT_MODEL, enrollment=args.enrollment)
    size = TileSize(args.tile_height * TILE_ASPECT, args.tile_height) if args.tile_height else None
    finder = make_finder(args.finder, size, args.detector)
    detections = detect_tiles(image, classifier, finder=finder)
    if args.json:
        print(json.dumps([d.as_json() for d in detections]))
        return 0
    print(f"{args.image}: {len(detections)} tiles")
    for d in detections:
        x0, y0, x1, y1 = d.box
        name = ("red " if d.reading.red else "") + d.reading.name
        flags = (" sideways" if d.sideways else "") + (" UNCERTAIN" if d.reading.uncertain else "")
        print(f"  {name:<8} at [{x0:4d},{y0:4d},{x1:4d},{y1:4d}] angle {d.angle:3d}  {d.reading.confidence:.2f}{flags}")
    return 0
