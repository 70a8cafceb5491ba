"""``DirectorySource``: recorded frames, one image file per frame, read in name order.

Names are sorted naturally ("frame-9.png" before "frame-10.png"). A file that cannot be
decoded is a frame the camera did not deliver: reported lost with the file's path, and the
next good file reports restored.
"""

from __future__ import annotations

import logging
import re
import time
from pathlib import Path

import cv2
import numpy as np

from vision.image_size import oversize
from vision.sources.frame import CameraFrame, CameraHealth, Clock, FrameStamper, HealthReport

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})


def natural_key(path: Path) -> tuple[tuple[int, int | str], ...]:
    """Sort key reading runs of digits as numbers (each part tagged so numbers and text never compare)."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", path.name) if part)


def frame_files(directory: Path) -> tuple[Path, ...]:
    if not directory.is_dir():
        raise NotADirectoryError(f"frame folder {directory} does not exist or is not a folder")
    files = sorted((p for p in directory.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES), key=natural_key)
    if not files:
        raise ValueError(f"frame folder {directory} holds no images ({', '.join(sorted(IMAGE_SUFFIXES))})")
    return tuple(files)


class DirectorySource:
    def __init__(self, directory: Path, *, report: HealthReport | None = None, clock: Clock = time.monotonic) -> None:
        self._directory = directory
        self._files = frame_files(directory)
        self._next = 0
        self._stamper = FrameStamper(clock)
        self._health = CameraHealth(self.name, report)

    @property
    def name(self) -> str:
        return str(self._directory)

    @property
    def ended(self) -> bool:
        return self._next >= len(self._files)

    @property
    def files(self) -> tuple[Path, ...]:
        return self._files

    def read(self) -> CameraFrame | None:
        if self.ended:
            return None
        path = self._files[self._next]
        self._next += 1
        try:
            data = path.read_bytes()
        except OSError as error:
            self._health.missed(self._stamper.now(), f"cannot read frame file {path} ({error.strerror})")
            return None
        refused = oversize(data)
        if refused is not None:  # measured from the header: never decoded
            self._health.missed(self._stamper.now(), f"frame file {path} {refused}")
            return None
        try:
            image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR) if data else None
        except cv2.error as error:  # a decoder that throws is a frame not delivered, never a crash
            log.debug("decoding %s failed: %s", path, error)
            image = None
        if image is None:
            self._health.missed(self._stamper.now(), f"cannot decode frame file {path}")
            return None
        frame = self._stamper.frame(image)
        self._health.delivered(frame.timestamp)
        return frame

    def close(self) -> None:
        self._next = len(self._files)
