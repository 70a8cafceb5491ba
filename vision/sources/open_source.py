"""Opening a source from its name: the camera ``source`` of the table's config and ``--source``.

``picamera2``; ``opencv:N`` (USB camera N); ``rendered:SEED`` or ``rendered:SEED+COUNT`` (the
fake camera); a folder (recorded frames); any other existing file (a video).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from vision.render.renderer import RenderOptions
from vision.sources.directory_source import DirectorySource
from vision.sources.frame import Clock, FrameSource, HealthReport
from vision.sources.opencv_source import OpenCvSource
from vision.sources.picamera2_source import Picamera2Source
from vision.sources.rendered_source import RenderedSource

SOURCE_FORMS = "picamera2, opencv:N, rendered:SEED[+COUNT], a folder of frames or a video file"


def open_source(spec: str, *, report: HealthReport | None = None, clock: Clock = time.monotonic) -> FrameSource:
    if spec == "picamera2":
        return Picamera2Source(report=report, clock=clock)
    if spec.startswith("opencv:"):
        index = spec.removeprefix("opencv:")
        if not index.isdigit():
            raise ValueError(f"source {spec!r}: a camera index after 'opencv:' must be a whole number")
        return OpenCvSource(int(index), report=report, clock=clock)
    if spec.startswith("rendered:"):
        match = re.fullmatch(r"rendered:(\d+)(?:\+(\d+))?", spec)
        if match is None:
            raise ValueError(f"source {spec!r}: write rendered:SEED or rendered:SEED+COUNT")
        first, count = int(match[1]), int(match[2] or 1)
        if count < 1:
            raise ValueError(f"source {spec!r}: COUNT must be at least 1")
        return RenderedSource(range(first, first + count), RenderOptions(), report=report, clock=clock)
    path = Path(spec)
    if path.is_dir():
        return DirectorySource(path, report=report, clock=clock)
    if path.is_file():
        return OpenCvSource(path, report=report, clock=clock)
    raise ValueError(f"source {spec!r} is none of: {SOURCE_FORMS} (no such file or folder)")
