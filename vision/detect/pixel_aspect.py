"""A picture's pixel aspect: how much more of the scene's width than of its height one pixel
shows (1 for any camera frame).

A camera's pixels are square; a picture taken from a data set often is not. Roboflow's
exports "stretch" every photograph to 640×640, so the tiles of a 16:9 screenshot come out
0.56 times as wide as they are, and those of a portrait phone photo 1.33 times. The detector
and the classifier learnt tiles of their true shape: on a squeezed picture they fire on glyphs
and misread faces (one such source: recall 0.67 and 34-kind 0.78 as published, 0.82 and 0.94
with its width restored). :func:`detect_at_pixel_aspect` undoes a known squeeze;
:func:`detect_any_pixel_aspect` tries the squeezes that scaling a common frame shape to a
square gives and keeps the one whose tiles read most surely (a near tie broken by the aspect
judge, :mod:`vision.detect.aspect_judge`): on a square picture only, since that is what a
stretching export makes. A picture of any other shape keeps its pixels square.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Final, Protocol

import cv2
import numpy as np

from vision.detect.still_photo import Detection
from vision.detect.strip_margin import is_strip_squeeze, read_in_margin
from vision.weighting import weighted_median

#: The pixel aspects of a 16:9, 4:3, 3:4 and 9:16 frame scaled to a square, and of a square
#: pixel (tried first: another aspect must read strictly surer to be chosen).
COMMON_PIXEL_ASPECTS: Final = (1.0, 16 / 9, 4 / 3, 3 / 4, 9 / 16)
#: The squeezes of a strip of tiles (a hand row, or a column of tiles) photographed and stretched
#: to a square; their inverses for a tall strip. Tried beside the common ones on a square
#: picture whose gradients say it was squeezed that far (:func:`gradient_spread`).
STRIP_PIXEL_ASPECTS: Final = (2.4, 3.0, 4.0, 5.5, 7.0, 9.0, 12.0)
#: A square picture whose gradient spread is beyond this (or under its inverse) was squeezed
#: more than any common frame shape does: the Japanese screenshots squeezed from 16:9 spread
#: 1.04-1.98, the Chinese photographs' middle nine tenths 0.15-1.19 and the strips among them
#: 0.11-0.21 (columns) and 2.8-5.9 (rows).
_STRIP_SPREAD: Final = 2.5
#: A picture this close to square may have been stretched to a square by an export; any other
#: shape is a camera's or a phone's own, with square pixels. Read unsqueezed, seat-view renders
#: of 16:9, 4:3 and 3:4 frames had been given a squeeze two times in three (16 of 24), each a
#: shape's squeeze another common shape makes (3:4 on a 16:9 frame shows it 4:3).
_SQUARE_WITHIN: Final = 0.01
#: Restoring a squeezed width scales the picture up; above this many pixels its height is
#: scaled down instead (a large photo keeps its detail either way).
_WIDENED_AT_MOST_PIXELS: Final = 12_000_000
#: Restoring a stretched width scales it down, unless that leaves fewer pixels than this
#: across (the finder reads nothing under 32): then its height is scaled up instead.
_NARROWED_AT_LEAST_PX: Final = 64

#: Readings whose sureness (:func:`sureness`) is within this of the surest are a near tie,
#: which the aspect judge breaks (:func:`detect_any_pixel_aspect`).
NEAR_TIE: Final = 0.05

Detect = Callable[[np.ndarray], Sequence[Detection]]


class AspectJudge(Protocol):
    """How much wider than true a picture shows each found tile at a pixel aspect
    (:class:`vision.detect.aspect_judge.OnnxAspectJudge`)."""

    def stretches_at(self, image: np.ndarray, quads: Sequence[np.ndarray], pixel_aspect: float) -> np.ndarray:
        """The log stretch of each tile found at ``pixel_aspect`` (quads in ``image``'s pixels)."""
        ...


@dataclass(frozen=True, slots=True)
class AspectReading:
    """The detections (corners in the given picture's pixels) at the pixel aspect chosen, how
    many finds a photograph's rules set aside, by reason (:mod:`vision.detect.photo_reading`),
    and what was done to the picture before the reading kept (:mod:`vision.detect.second_looks`)."""

    pixel_aspect: float
    detections: tuple[Detection, ...]
    set_aside: tuple[tuple[str, int], ...] = ()
    read_again: tuple[str, ...] = ()


def parse_pixel_aspect(text: str) -> float | None:
    """``auto`` (None: measure it), a number (``1.78``) or a frame shape squeezed to a square
    (``16:9``: its pixels show 16/9 as much width as height)."""
    text = text.strip().lower()
    if text == "auto":
        return None
    shape = re.fullmatch(r"(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)", text)
    try:
        value = float(shape[1]) / float(shape[2]) if shape else float(text)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"pixel aspect {text!r}: give auto, a number such as 1.78, or a shape such as 16:9") from None
    if not 0.25 <= value <= 4.0:
        raise ValueError(f"pixel aspect {text!r}: must be from 0.25 to 4 (1 for a camera's square pixels)")
    return value


def pixel_aspect_name(pixel_aspect: float) -> str:
    """``16:9`` for a common frame shape's squeeze, ``1`` for square pixels, ``5.5:1`` or
    ``1:5.5`` for a strip's, else the number."""
    for width, height in ((1, 1), (16, 9), (4, 3), (3, 4), (9, 16)):
        if abs(pixel_aspect - width / height) < 1e-3:
            return "1" if width == height else f"{width}:{height}"
    for strip in STRIP_PIXEL_ASPECTS:
        if abs(pixel_aspect - strip) < 1e-3:
            return f"{strip:g}:1"
        if abs(pixel_aspect * strip - 1) < 1e-3:
            return f"1:{strip:g}"
    return f"{pixel_aspect:.3g}"


def detect_at_pixel_aspect(image: np.ndarray, detect: Detect, pixel_aspect: float) -> tuple[Detection, ...]:
    """``detect`` run on ``image`` with its width restored (``pixel_aspect`` times as wide as
    tall per pixel), inside a margin at a strip's squeeze (:mod:`vision.detect.strip_margin`);
    each detection's corners mapped back to ``image``'s pixels."""
    if pixel_aspect == 1.0:
        return tuple(detect(image))
    height, width = image.shape[:2]
    if pixel_aspect < 1.0:
        narrowed = round(width * pixel_aspect)
        size = (narrowed, height) if narrowed >= _NARROWED_AT_LEAST_PX else (width, round(height / pixel_aspect))
    elif width * pixel_aspect * height <= _WIDENED_AT_MOST_PIXELS:
        size = (round(width * pixel_aspect), height)
    else:
        size = (width, max(1, round(height / pixel_aspect)))
    shrinking = size[0] * size[1] < width * height
    restored = cv2.resize(image, size, interpolation=cv2.INTER_AREA if shrinking else cv2.INTER_LINEAR)
    back = np.array([width / size[0], height / size[1]])
    found = read_in_margin(restored, detect) if is_strip_squeeze(pixel_aspect) else detect(restored)
    return tuple(replace(d, corners=np.asarray(d.corners, np.float64) * back) for d in found)


def pixel_aspects_to_try(image: np.ndarray) -> tuple[float, ...]:
    """The common squeezes for a square picture (what a data set's export stretched), and a
    strip's when its gradients say it was squeezed that far; square pixels alone for a picture
    of any other shape."""
    height, width = image.shape[:2]
    if abs(width - height) > _SQUARE_WITHIN * max(width, height):
        return (1.0,)
    spread = gradient_spread(image)
    if spread > _STRIP_SPREAD:
        return COMMON_PIXEL_ASPECTS + STRIP_PIXEL_ASPECTS
    if spread < 1 / _STRIP_SPREAD:
        return COMMON_PIXEL_ASPECTS + tuple(1 / aspect for aspect in STRIP_PIXEL_ASPECTS)
    return COMMON_PIXEL_ASPECTS


def gradient_spread(image: np.ndarray) -> float:
    """How much more the picture changes along its width than along its height (root mean
    square of the horizontal over the vertical Sobel gradient). A scene photographed has no
    strong preference; squeezing its width by a factor raises the horizontal gradients by about
    that factor, so a strip of tiles stretched to a square stands far out (5.9, or 0.11 for a
    column)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    grey = grey.astype(np.float32)
    across = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    down = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    down_energy = float(np.mean(down * down))
    if down_energy == 0.0:
        return 1.0  # a flat or evenly striped picture says nothing
    return float(np.sqrt(np.mean(across * across) / down_energy))


def detect_any_pixel_aspect(
    image: np.ndarray,
    detect: Detect,
    pixel_aspects: Sequence[float] | None = None,
    judge: AspectJudge | None = None,
) -> AspectReading:
    """The detections at whichever of ``pixel_aspects`` (default: :func:`pixel_aspects_to_try`
    for the picture's shape) reads surest (:func:`sureness`): at the true aspect the faces look
    as the classifier and the verifier learnt them. With a ``judge``, readings within
    :data:`NEAR_TIE` of the surest are a near tie, and of those the one whose tiles the judge
    finds least stretched is kept (:func:`judged_stretch`). The first aspect wins ties and is
    kept when nothing is found at any."""
    if pixel_aspects is None:
        pixel_aspects = pixel_aspects_to_try(image)
    if not pixel_aspects:
        raise ValueError("detect_any_pixel_aspect needs at least one pixel aspect to try")
    return chosen_reading(image, readings_at(image, detect, pixel_aspects), judge)


def readings_at(image: np.ndarray, detect: Detect, pixel_aspects: Sequence[float]) -> list[AspectReading]:
    """``detect`` run on ``image`` at each of ``pixel_aspects`` (:func:`detect_at_pixel_aspect`)."""
    return [AspectReading(aspect, detect_at_pixel_aspect(image, detect, aspect)) for aspect in pixel_aspects]


def chosen_reading(
    image: np.ndarray, readings: Sequence[AspectReading], judge: AspectJudge | None = None
) -> AspectReading:
    """Of ``image``'s ``readings`` at several pixel aspects, the one :func:`detect_any_pixel_aspect`
    keeps: the surest, a near tie broken by the ``judge`` (for a caller that compares rules on the
    same readings)."""
    sureness_of = [sureness(reading.detections) for reading in readings]
    surest = readings[int(np.argmax(sureness_of))]  # argmax keeps the first of equals
    if judge is None:
        return surest
    tied = [
        r for r, sure in zip(readings, sureness_of, strict=True) if r.detections and sure >= max(sureness_of) - NEAR_TIE
    ]
    if len(tied) < 2:
        return surest
    return min(tied, key=lambda reading: abs(judged_stretch(image, reading, judge)))  # min keeps the first


def judged_stretch(image: np.ndarray, reading: AspectReading, judge: AspectJudge) -> float:
    """How much wider than true (log) ``reading``'s tiles show at its pixel aspect: the median
    of the judge's look at each find, each weighted by how surely it is a tile read right (a
    glyph found at a wrong aspect says little of the tiles' shape). 0 with no finds."""
    found = reading.detections
    if not found:
        return 0.0
    stretches = np.asarray(judge.stretches_at(image, [d.corners for d in found], reading.pixel_aspect), np.float64)
    if stretches.shape != (len(found),):
        raise ValueError(f"the aspect judge gave {stretches.size} stretches for {len(found)} finds: one each")
    weights = np.array([tile_belief(d) for d in found])
    if weights.sum() <= 0.0:
        return float(np.median(stretches))
    return weighted_median(stretches, weights)


def tile_belief(detection: Detection) -> float:
    """How surely a find is a tile read right: its reading's confidence times the verifier's
    score of it (its confidence alone where the verifier did not look)."""
    return detection.reading.confidence * (1.0 if detection.face_score is None else detection.face_score)


def sureness(found: Sequence[Detection]) -> float:
    """How surely the finds at an aspect are tiles read right: the mean over the finds of each
    one's reading confidence times the verifier's belief that it is a face (its confidence alone
    where the verifier did not look). At a wrong aspect a squeezed face's glyphs can read as
    surely as whole faces (a circle as 1p) but look less like faces. Each find's two beliefs
    are taken together, not each averaged apart: on the two held-out photograph sources the
    product of the means read 0.876 / 0.896 and 0.900 / 0.966 (recall / precision), the mean of
    the products 0.886 / 0.919 and 0.902 / 0.966, and on seat-view renders squeezed to a square
    by known factors it picked the true aspect a little more often (31% against 29%)."""
    if not found:
        return 0.0
    return float(np.mean([tile_belief(d) for d in found]))
