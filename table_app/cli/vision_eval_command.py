"""``jantaku vision eval`` (score detection on labelled photos) and ``jantaku vision render`` (a
labelled set drawn by the renderer): thin wrappers over ``vision.eval.label_eval`` and ``vision.render``."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from table_app.cli.detection_options import add_detection_options, check_detection_options, detector_from
from table_app.progress import Progress, progress

EVAL_EXAMPLES = """examples:
  jantaku vision render --out held-out --tables 5 --style black
  jantaku vision render --out my-set --faces table.enrollment.json --strokes 1.5
  jantaku vision eval --labels held-out/labels.json
  jantaku vision eval --labels my-photos.json --images photos/ --json --iou 0.3

The label file (docs/vision.md, "Label files"):
  {"format": "jantaku-labels", "version": 1,
   "images": {"a.jpg": [{"corners": [[x,y],[x,y],[x,y],[x,y]], "tile": "5m", "red": true, "sideways": false},
                        {"box": [x0,y0,x1,y1], "tile": "back"}]}}
The list `jantaku vision detect --json` prints, corrected by hand, is a valid entry."""


def register(actions: Any) -> None:
    evaluate = actions.add_parser(
        "eval",
        help="score tile detection on labelled photos: recall, precision, accuracy",
        description="Detect the tiles of every photo in a label file and compare with the labels.",
        epilog=EVAL_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    evaluate.add_argument("--labels", required=True, type=Path, metavar="FILE", help="the label file (JSON)")
    evaluate.add_argument(
        "--images", type=Path, metavar="DIR", help="folder the image names are relative to (default: the label file's)"
    )
    evaluate.add_argument("--json", action="store_true", help="print the figures, per class and per image, as JSON")
    evaluate.add_argument(
        "--iou",
        type=float,
        metavar="X",
        help="least box IoU for a detection to match a label (default: 0.5 for a tile labelled by its face's "
        "corners, 0.3 for one labelled by a box, which takes in the block's top and sides as well)",
    )
    add_detection_options(evaluate)
    render = actions.add_parser(
        "render",
        help="draw a labelled set of table photos with the renderer (images + labels.json)",
        description="Draw tables with the renderer and write them as JPEGs with a label file of the exact truth.",
    )
    render.add_argument("--out", required=True, type=Path, metavar="DIR", help="folder to write into")
    render.add_argument("--tables", type=int, default=5, metavar="N", help="how many tables (5)")
    render.add_argument("--style", default="black", metavar="STYLE", help="tile art: regular, regular-dark, black")
    render.add_argument("--first-seed", type=int, default=3_000_000, metavar="SEED", help="seed of the first table")
    render.add_argument("--size", type=_size, default=(1920, 1080), metavar="WxH", help="image size (1920x1080)")
    render.add_argument(
        "--grid", action="store_true", help="draw the enrollment sheet with one tile per cell instead (grid-SEED.jpg)"
    )
    render.add_argument(
        "--faces",
        type=Path,
        metavar="PATH",
        help="draw the tables in a tile set's own faces: an enrollment file (vision enroll) or a folder of face "
        "images, 1m.png .. 7z.png (instead of --style)",
    )
    render.add_argument(
        "--strokes",
        type=float,
        default=0.0,
        metavar="PX",
        help="draw every symbol's strokes PX art pixels thicker on each side (negative: thinner; -3 to 3)",
    )


def run_eval(args: argparse.Namespace) -> int:
    # Imported here so other commands start without loading OpenCV and onnxruntime.
    from vision.detect.pixel_aspect import pixel_aspect_name  # noqa: PLC0415
    from vision.eval.label_eval import (  # noqa: PLC0415
        DEFAULT_OVERLAP,
        OverlapRule,
        report_json,
        report_lines,
        score_labelled_images,
    )
    from vision.eval.label_file import load_ignored, load_labels  # noqa: PLC0415

    if args.iou is not None and not 0.0 <= args.iou < 1.0:
        raise ValueError(f"--iou must be from 0 up to (not including) 1, got {args.iou}")
    overlap = DEFAULT_OVERLAP if args.iou is None else OverlapRule.one(args.iou)
    check_detection_options(args)
    labels = load_labels(args.labels)
    if not labels:
        raise ValueError(f"labels file {args.labels}: lists no images")
    detect = detector_from(args)
    images = args.images if args.images is not None else args.labels.parent
    # A bar over the photos (stderr, a terminal only, not with --json): each can take a second or more.
    aspects: Counter[str] = Counter()
    with Progress(len(labels), "eval", enabled=not args.json) as bar:

        def detect_and_count(image: Any) -> Any:
            reading = detect(image)
            aspects[pixel_aspect_name(reading.pixel_aspect)] += 1
            bar.advance()
            return reading.detections

        score, per_image = score_labelled_images(labels, images, detect_and_count, overlap, load_ignored(args.labels))
    if args.json:
        print(json.dumps(report_json(score, per_image, overlap) | {"pixel_aspects": dict(aspects.most_common())}))
    else:
        print(f"{args.labels}:")
        for line in report_lines(score, per_image, overlap):
            print(line)
        print("pixel aspect            " + ", ".join(f"{name} ×{count}" for name, count in aspects.most_common()))
    return 0


def run_render(args: argparse.Namespace) -> int:
    from vision.render.labelled_set import write_rendered_set  # noqa: PLC0415
    from vision.render.renderer import RenderOptions  # noqa: PLC0415
    from vision.render.tile_art import ArtStyle  # noqa: PLC0415

    styles = [s.value for s in ArtStyle]
    if args.style not in styles:
        raise ValueError(f"--style {args.style!r} is not one of {', '.join(styles)}")
    if not 1 <= args.tables <= 1000:
        raise ValueError(f"--tables must be 1-1000, got {args.tables}")
    if not -3.0 <= args.strokes <= 3.0:
        raise ValueError(f"--strokes must be -3 to 3 art pixels, got {args.strokes}")
    if args.grid:
        if args.faces is not None or args.strokes:
            raise ValueError("--grid draws the sheet in --style only: leave out --faces and --strokes")
        return _render_grids(args)
    options = RenderOptions(size=args.size, style=ArtStyle(args.style), strokes=args.strokes)
    described = f"style {args.style}"
    if args.faces is not None:
        from vision.render.enrolled_faces import enrolled_art, enrolled_faces  # noqa: PLC0415

        faces = enrolled_faces(args.faces)
        enrolled_art(faces)  # a folder that lacks a face is refused before anything is drawn
        options = replace(options, faces=faces)
        described = f"faces of {faces.folder}"
    if args.strokes:
        described += f", strokes {args.strokes:+g} px"
    seeds = range(args.first_seed, args.first_seed + args.tables)
    labels = write_rendered_set(args.out, progress(seeds, "render"), options)
    print(f"{labels}: {args.tables} tables, {described}, {args.size[0]}×{args.size[1]}")
    return 0


def _render_grids(args: argparse.Namespace) -> int:
    import cv2  # noqa: PLC0415

    from vision.render.enrollment_grid import render_enrollment_grid  # noqa: PLC0415
    from vision.render.tile_art import ArtStyle  # noqa: PLC0415

    args.out.mkdir(parents=True, exist_ok=True)
    with Progress(args.tables, "render") as bar:
        for seed in range(args.first_seed, args.first_seed + args.tables):
            grid = render_enrollment_grid(ArtStyle(args.style), seed, args.size)
            path = args.out / f"grid-{seed}.jpg"
            if not cv2.imwrite(str(path), grid.image, [cv2.IMWRITE_JPEG_QUALITY, 95]):
                raise ValueError(f"cannot write {path}")
            bar.echo(f"{path}: enrollment sheet, style {args.style}, {len(grid.truths)} tiles")
            bar.advance()
    return 0


def _size(text: str) -> tuple[int, int]:
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() and 64 <= int(p) <= 8192 for p in parts):
        raise argparse.ArgumentTypeError(f"{text!r} is not a size WxH (64-8192 pixels each)")
    return int(parts[0]), int(parts[1])
