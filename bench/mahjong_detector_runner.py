"""The PyPI ``mahjong-detector`` package (0.0.6: a YOLOv8 ONNX model it ships, run offline with
onnxruntime and Pillow) as a detector of jantaku's kind, for the side-by-side in
``bench_vision.py --compare``.

Its 34 classes are named "1m".."9s" and, for honours, "tou" "nan" "sha" "pe" (winds east,
south, west, north), "haku" "hatsu" "chun" (white, green, red dragon); it has no face-down
tile and no red fives, and gives axis-aligned boxes (no orientation, no sideways flag).
Its own entry point letterboxes the whole photo into 640×640; ``windowed`` runs it on
overlapping square windows instead (tiles in a table-wide frame are too small for it whole)
and merges the boxes the windows share.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image

from vision.eval.label_file import label_of_name

HONOURS = {"tou": "1z", "nan": "2z", "sha": "3z", "pe": "4z", "haku": "5z", "hatsu": "6z", "chun": "7z"}


def available() -> str | None:
    """None when the package imports, else why not."""
    try:
        import mahjong_detector.predict  # noqa: F401, PLC0415
    except ImportError as error:
        return f"mahjong-detector is not installed ({error}); scripts/setup dev installs it"
    return None


@dataclass(frozen=True, eq=False)
class BoxDetection:
    corners: np.ndarray  # the box's corners, clockwise from top-left
    label: int
    confidence: float
    sideways: bool = False
    angle: float | None = None  # boxes have no orientation
    uncertain: bool = False


def class_label(name: str) -> int:
    """Our label of one of its class names."""
    return label_of_name(HONOURS.get(name, name), False, f"mahjong-detector class {name!r}")


def detect_whole(image: np.ndarray) -> list[BoxDetection]:
    """As the package's own ``detect_tiles`` does, keeping the boxes: the whole BGR frame at 640×640."""
    return _run(image, 0, 0)


def detect_windowed(image: np.ndarray, window: int = 480) -> list[BoxDetection]:
    """On square windows overlapping by a quarter; boxes the windows share are merged (IoU > 0.5)."""
    height, width = image.shape[:2]
    step = window * 3 // 4
    found: list[BoxDetection] = []
    for y0 in range(0, max(height - window, 0) + step, step):
        for x0 in range(0, max(width - window, 0) + step, step):
            found += _run(image[y0 : y0 + window, x0 : x0 + window], x0, y0)
    return _merge(found)


def _run(image: np.ndarray, x0: int, y0: int) -> list[BoxDetection]:
    from mahjong_detector.predict import CLASS_NAMES, predict  # noqa: PLC0415
    from mahjong_detector.preprocess import preprocess_image  # noqa: PLC0415

    picture = Image.fromarray(np.ascontiguousarray(image[..., ::-1]))
    prepared, padding = preprocess_image(picture)
    detections = []
    for d in predict(prepared, padding):
        x1, y1, x2, y2 = d.x1 + x0, d.y1 + y0, d.x2 + x0, d.y2 + y0
        corners = np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], np.float64)
        detections.append(BoxDetection(corners, class_label(CLASS_NAMES[d.class_id]), float(d.confidence)))
    return detections


def _merge(found: list[BoxDetection]) -> list[BoxDetection]:
    from vision.eval.matching import box_iou  # noqa: PLC0415
    from vision.geometry import bounding_box  # noqa: PLC0415

    if not found:
        return []
    ordered = sorted(found, key=lambda d: -d.confidence)
    boxes = np.array([bounding_box(d.corners) for d in ordered])
    overlaps = box_iou(boxes, boxes)
    kept: list[int] = []
    for i in range(len(ordered)):
        if all(overlaps[i, k] <= 0.5 for k in kept):
            kept.append(i)
    return [ordered[i] for i in kept]
