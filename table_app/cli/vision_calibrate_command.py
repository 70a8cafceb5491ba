"""``jantaku vision calibrate`` and ``jantaku vision markers``: thin wrappers over ``vision.calibration``."""

from __future__ import annotations

import argparse
import logging
import time
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

_LIVE_TRIES = 30
_LIVE_RETRY_S = 0.1

CALIBRATE_EXAMPLES = """examples:
  jantaku vision markers --out corners.png          print it at 100 %, tape ids 0-3 on the table's corners
  jantaku vision calibrate --source opencv:0 --out table.calibration.json
  jantaku vision calibrate --source frames/ --out table.calibration.json --corners 102,80 1810,95 1790,1000 120,990"""


def register(actions: Any) -> None:
    calibrate = actions.add_parser(
        "calibrate",
        help="find the table's corners (ArUco markers, or --corners) and save a calibration file",
        description="Read one frame from SRC, find the four corner markers (or take --corners) and save the "
        "homography to the top-down view with the table and tile sizes.",
        epilog=CALIBRATE_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    calibrate.add_argument("--source", required=True, metavar="SRC", help="picamera2, opencv:N, a folder or a video")
    calibrate.add_argument("--out", required=True, type=Path, metavar="FILE", help="the calibration file to write")
    calibrate.add_argument(
        "--corners",
        nargs=4,
        type=_point,
        metavar="X,Y",
        help="image pixels of the corners: top-left, top-right, bottom-right, bottom-left (seat 0 at the bottom)",
    )
    calibrate.add_argument("--table-mm", type=_pair, default=(680.0, 680.0), metavar="W,D", help="between the corners")
    calibrate.add_argument("--tile-mm", type=_pair, default=(20.0, 27.0), metavar="W,H", help="a tile face's size")
    markers = actions.add_parser(
        "markers",
        help="draw the printable sheet of the four ArUco corner markers",
        description="Write an A4 image of the corner markers (ArUco DICT_4X4_50, ids 0-3) to print at 100 %%.",
    )
    markers.add_argument("--out", required=True, type=Path, metavar="PNG", help="the image to write")
    markers.add_argument("--dpi", type=int, default=300, help="print resolution (default 300)")
    markers.add_argument("--marker-mm", type=float, default=60.0, help="each marker's side (default 60 mm)")


def run_calibrate(args: argparse.Namespace) -> int:
    # Imported here so other commands start without loading OpenCV.
    from vision.calibration.calibrate import calibrate  # noqa: PLC0415
    from vision.calibration.calibration_file import save_calibration  # noqa: PLC0415
    from vision.calibration.table import PhysicalTileSize, TableGeometry  # noqa: PLC0415

    frame = first_frame_of(args.source)
    table = TableGeometry(*args.table_mm)
    calibration = calibrate(frame.image, picked=args.corners, table=table, tile=PhysicalTileSize(*args.tile_mm))
    save_calibration(calibration, args.out)
    corners = "  ".join(f"{x:.0f},{y:.0f}" for x, y in calibration.corners)
    print(f"{args.out}: corners from {calibration.corners_from.value}: {corners}")
    return 0


def run_markers(args: argparse.Namespace) -> int:
    import cv2  # noqa: PLC0415

    from vision.calibration.markers import DICTIONARY_NAME, draw_marker_sheet  # noqa: PLC0415

    sheet = draw_marker_sheet(args.dpi, args.marker_mm)
    if not cv2.imwrite(str(args.out), sheet):
        raise ValueError(f"--out {args.out}: cannot write the image there (folder, or suffix such as .png)")
    print(f"{args.out}: ArUco {DICTIONARY_NAME} ids 0-3, {args.marker_mm:g} mm at {args.dpi} dpi; print at 100 %")
    return 0


def first_frame_of(source: str) -> Any:
    """The first good frame of the source named ``source`` (opened and closed here); a source that
    cannot be opened or gives no frame is a ``ValueError`` naming ``--source``."""
    from vision.sources.open_source import open_source  # noqa: PLC0415
    from vision.sources.picamera2_source import CameraUnavailableError  # noqa: PLC0415

    try:
        opened = open_source(source)
    except (OSError, CameraUnavailableError) as error:
        raise ValueError(f"--source {source}: {error}") from error
    try:
        frame = first_frame(opened)
    finally:
        opened.close()
    if frame is None:
        raise ValueError(f"--source {source}: no frame came")
    return frame


def first_frame(source: Any) -> Any:
    """A recording's first good frame; a live camera gets a few seconds to deliver one."""
    for _ in range(_LIVE_TRIES):
        frame = source.read()
        if frame is not None or source.ended:
            return frame
        time.sleep(_LIVE_RETRY_S)
    return None


def _numbers(text: str, what: str) -> tuple[float, float]:
    parts = text.split(",")
    try:
        first, second = (float(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
    return first, second


def _point(text: str) -> tuple[float, float]:
    return _numbers(text, "a point X,Y in pixels")


def _pair(text: str) -> tuple[float, float]:
    return _numbers(text, "two sizes A,B in millimetres")
