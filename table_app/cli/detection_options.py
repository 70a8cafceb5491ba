"""The options `vision detect` and `vision eval` share: how tiles are found and read in a photo.

Both commands take ``--tile-height``, ``--pixel-aspect``, ``--aspect-judge``, ``--model``,
``--finder``, ``--detector``, ``--verifier`` and ``--enrollment`` and build the same detector
from them.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any


def add_detection_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tile-height", type=float, metavar="PX", help="a tile face's long edge in pixels (default: measured)"
    )
    parser.add_argument(
        "--pixel-aspect",
        default="auto",
        metavar="ASPECT",
        help="how much wider than tall each pixel shows the scene: 1 for a camera's frame, 16:9 for a 16:9 "
        "photo squeezed to a square (as data-set exports are), or auto (default): a square picture's squeeze "
        "tried and chosen, any other shape read at 1",
    )
    parser.add_argument(
        "--aspect-judge",
        metavar="ONNX",
        help="another aspect model (with its .json), or 'none' to choose a square picture's squeeze by how "
        "surely its tiles read alone (with --pixel-aspect auto)",
    )
    parser.add_argument("--model", type=Path, metavar="ONNX", help="another classifier model (with its .json)")
    parser.add_argument(
        "--finder",
        choices=("learnt", "classic"),
        default="learnt",
        help="how tiles are found: the learnt detector (default) or the classical seam finder",
    )
    parser.add_argument("--detector", type=Path, metavar="ONNX", help="another tile detector model (with its .json)")
    parser.add_argument(
        "--verifier",
        metavar="ONNX",
        help="another tile verifier model (with its .json), or 'none' to keep every find of the detector",
    )
    parser.add_argument("--enrollment", type=Path, metavar="FILE", help="a tile-set enrollment (vision enroll)")


def check_detection_options(args: argparse.Namespace) -> None:
    if args.tile_height is not None and args.tile_height <= 4:
        raise ValueError(f"--tile-height must be more than 4 pixels, got {args.tile_height}")
    _pixel_aspect(args)


def _pixel_aspect(args: argparse.Namespace) -> float | None:
    from vision.detect.pixel_aspect import parse_pixel_aspect  # noqa: PLC0415

    try:
        return parse_pixel_aspect(args.pixel_aspect)
    except ValueError as error:
        raise ValueError(f"--pixel-aspect: {error}") from None


def detector_from(args: argparse.Namespace) -> Callable[[Any], Any]:
    """Image → :class:`~vision.detect.pixel_aspect.AspectReading` (the detections and the pixel
    aspect they were found at), with the classifier, finder and pixel aspect the options name
    (models loaded now)."""
    # Imported here so other commands start without loading OpenCV and onnxruntime.
    from vision.classify.classifier import DEFAULT_MODEL, OnnxTileClassifier  # noqa: PLC0415
    from vision.classify.verifier import verifier_option  # noqa: PLC0415
    from vision.detect.aspect_judge import aspect_judge_option  # noqa: PLC0415
    from vision.detect.photo_reading import photo_reader  # noqa: PLC0415
    from vision.detect.still_photo import make_finder  # noqa: PLC0415
    from vision.find.finder import TILE_ASPECT  # noqa: PLC0415
    from vision.find.seams import TileSize  # noqa: PLC0415

    classifier = OnnxTileClassifier(args.model or DEFAULT_MODEL, enrollment=args.enrollment)
    size = TileSize(args.tile_height * TILE_ASPECT, args.tile_height) if args.tile_height else None
    finder = make_finder(args.finder, size, args.detector, verifier_option(args.verifier))
    pixel_aspect = _pixel_aspect(args)
    judge = aspect_judge_option(args.aspect_judge) if pixel_aspect is None else None
    return photo_reader(classifier, finder, pixel_aspect, judge)
