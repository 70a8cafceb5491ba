"""``jantaku vision watch``: the camera pipeline on its own, printing the referee's observations.

It runs what ``jantaku run`` runs for the camera (source → reader → tracker) and prints each
observation as it is posted (or one JSON object a line); ``--out`` writes each frame's debug
view (the top-down view, the zones outlined, occluded ones shaded, what was read in each).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import sys
import threading
from enum import Enum
from pathlib import Path
from typing import Any

from table_app.domain.tile import Tile
from table_app.observations import Observation

log = logging.getLogger(__name__)

WATCH_EXAMPLES = """examples:
  jantaku vision watch --source opencv:0 --calibration table.calibration.json
  jantaku vision watch --source frames/ --calibration table.calibration.json --out debug/ --json
  jantaku vision watch --source recording.mp4 --frames 300"""


def register(actions: Any) -> None:
    watch = actions.add_parser(
        "watch",
        help="run the camera pipeline and print the observations it would post to the referee",
        description="Read frames from SRC, read the table in each (calibrated top-down view, zones, tiles), "
        "track the readings over frames and print each observation as the referee would get it.",
        epilog=WATCH_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    watch.add_argument(
        "--source", required=True, metavar="SRC", help="picamera2, opencv:N, rendered:SEED[+N], a folder or a video"
    )
    watch.add_argument(
        "--calibration",
        type=Path,
        metavar="FILE",
        help="from `vision calibrate` (default: the markers in the first frame)",
    )
    watch.add_argument("--out", type=Path, metavar="DIR", help="write each frame's debug view there as PNG")
    watch.add_argument(
        "--frames", type=_positive, metavar="N", help="stop after N frames (default: until the source ends)"
    )
    watch.add_argument("--json", action="store_true", help="print one JSON object per observation")
    watch.add_argument("--model", type=Path, metavar="ONNX", help="another classifier model (with its .json)")


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of frames above 0")
    return int(text)


def _value(value: Any) -> Any:
    if isinstance(value, Tile):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_value(v) for v in value]
    return value


def observation_json(observation: Observation) -> dict[str, Any]:
    fields = {f.name: _value(getattr(observation, f.name)) for f in dataclasses.fields(observation)}
    return {"type": type(observation).__name__, **fields}


def observation_line(observation: Observation) -> str:
    fields = observation_json(observation)
    kind, at = fields.pop("type"), fields.pop("at")
    parts = []
    for name, value in fields.items():
        shown = value
        if isinstance(value, list):
            shown = "".join(str(v) for v in value)
        elif isinstance(value, float):
            shown = f"{value:.2f}"
        parts.append(f"{name}={shown}")
    return f"{at:10.3f}  {kind:<22} {' '.join(parts)}"


class _FirstFrames:
    """A source that ends after ``count`` frames (``--frames``)."""

    def __init__(self, inner: Any, count: int) -> None:
        self._inner = inner
        self._left = count

    @property
    def name(self) -> str:
        return str(self._inner.name)

    @property
    def ended(self) -> bool:
        return self._left <= 0 or bool(self._inner.ended)

    def read(self) -> Any:
        frame = self._inner.read()
        if frame is not None:
            self._left -= 1
        return frame

    def close(self) -> None:
        self._inner.close()


def run_watch(args: argparse.Namespace) -> int:
    # Imported here so other commands start without loading OpenCV and onnxruntime.
    from table_app.cli.vision_calibrate_command import first_frame  # noqa: PLC0415
    from vision.calibration.calibrate import calibrate  # noqa: PLC0415
    from vision.calibration.calibration_file import load_calibration  # noqa: PLC0415
    from vision.live import pipeline  # noqa: PLC0415
    from vision.live.tracking import Tracker  # noqa: PLC0415
    from vision.sources.open_source import open_source  # noqa: PLC0415
    from vision.sources.picamera2_source import CameraUnavailableError  # noqa: PLC0415

    if args.out is not None:
        if args.out.exists() and not args.out.is_dir():
            raise ValueError(f"--out {args.out}: exists and is not a folder")
        args.out.mkdir(parents=True, exist_ok=True)
    health = pipeline.HealthRelay()
    try:
        frames: Any = open_source(args.source, report=health)
    except (OSError, CameraUnavailableError) as error:
        raise ValueError(f"--source {args.source}: {error}") from error
    if args.calibration is not None:
        calibration = load_calibration(args.calibration)
    else:
        first = first_frame(frames)
        if first is None:
            frames.close()
            raise ValueError(f"--source {args.source}: no frame came to calibrate from")
        try:
            calibration = calibrate(first.image)
        except ValueError as error:
            frames.close()
            raise ValueError(f"--source {args.source}: no --calibration given and {error}") from error
    try:
        read = pipeline.table_reader(calibration, args.model)
    except ImportError as error:
        frames.close()
        raise ValueError(f"the table reader is not installed in this build ({error})") from error
    if args.frames is not None:
        frames = _FirstFrames(frames, args.frames)
    printed = threading.Lock()

    def post(observation: Observation) -> None:
        line = json.dumps(observation_json(observation)) if args.json else observation_line(observation)
        with printed:
            print(line, flush=True)

    written = [0]

    def write_view(frame: Any, reading: Any, _posted: Any) -> None:
        import cv2  # noqa: PLC0415

        from vision.live.debug_view import debug_view  # noqa: PLC0415

        written[0] += 1
        path = args.out / f"frame-{written[0]:06d}.png"
        if not cv2.imwrite(str(path), debug_view(frame.image, calibration, reading)):
            log.error("cannot write the debug view %s", path)

    source = pipeline.VisionSource(
        frames, read, Tracker(), health=health, watch=write_view if args.out is not None else None
    )
    source.start(post)
    try:
        while not source.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        source.stop()
    stats = source.stats
    mean = "-" if stats.mean_read_ms is None else f"{stats.mean_read_ms:.1f} ms"
    print(
        f"{stats.frames} frames read ({stats.unreadable} unreadable), {stats.observations} observations, "
        f"reading {mean} a frame",
        file=sys.stderr,
    )
    return 0
