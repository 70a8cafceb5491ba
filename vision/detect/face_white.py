"""The light's colour read off the tiles' own faces: a photograph lit by a coloured light is read
again with its colours set right.

The classifier and the verifier learnt faces under near-neutral light. Under a warm lamp (its
blue a third down, its red a tenth up) the held-out Japanese photographs keep their recall but
lose a fifth of their precision (0.936 -> 0.764); under a cool one (red a quarter down) they
lose a sixth of their tiles (0.928 -> 0.784; ``bench/bench_photo_changes.py``).

A camera's own white balance judges the light from the whole picture, which at a table is
mostly felt, wood and sleeves. The tiles themselves are a better grey card: a riichi tile's
face is white or ivory, and its ground (the brightest part, between the strokes) shows the
light's colour. Measured on the held-out photographs as stored (those with three finds or
more), the faces' ground reads blue/green 0.81-1.08 and red/green 0.92-1.18, all but two within
a ninth (natural log 0.11) of :data:`FACE_GROUND`; under the bench's warm light blue/green falls
to 0.62-0.82, under its cool one red/green to 0.68-0.87.

So a photograph is read once; when three or more finds agree (their median, each weighted by
how surely it is a tile read right) that the light's colour lies :data:`CAST_AT_LEAST` or more
from :data:`FACE_GROUND`, its blue and red are scaled to bring the faces' ground there and it is
read again (:data:`LIGHT_SET_RIGHT`, a second look: :mod:`vision.detect.second_looks`). The
second reading is kept only when it reads surer (:func:`vision.detect.pixel_aspect.sureness`).
A picture with no tiles gives no finds, or too few, and is read once: its colours (a white
wall, a yellow desk) say nothing about the light.
A white balance judged from the brightest part of the whole picture was tried and not kept: it
changed most of the Chinese source's photographs as stored and made false finds on tile-free
pictures whose brightest part is a wall (``docs/vision-history.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import cv2
import numpy as np

from vision.classify.crops import crop_tile
from vision.detect.pixel_aspect import tile_belief
from vision.detect.second_looks import SecondLook
from vision.detect.still_photo import Detection
from vision.weighting import weighted_median

#: A face's ground under a neutral light, blue/green and red/green: between the medians of the
#: held-out sources' photographs as stored, a white set's (``leo-miura``, 1.01 / 0.955) and an
#: ivory one's (``alanchoi``, 0.96 / 1.02).
FACE_GROUND: Final = (0.97, 1.01)
#: A light whose colour lies this far (natural log of either ratio) or further from
#: :data:`FACE_GROUND` is set right and the picture read again. The held-out photographs as
#: stored lie within 0.11 but for two of ``alanchoi``'s (0.16 and 0.18, read again and kept as
#: they were read unless surer); under the bench's warm and cool lights every one lies 0.17-0.45.
CAST_AT_LEAST: Final = 0.15
#: Fewer finds than this say too little about the light: the picture is read once.
FINDS_AT_LEAST: Final = 3
#: The share of each face's inner part, by brightness, taken as its ground (the rest is strokes).
GROUND_SHARE: Final = 0.4
#: The surest faces measured, at most (a picture's light is one light).
FACES_MEASURED: Final = 24

#: The size (width, height) each face is cut at to find its ground.
GROUND_CROP: Final = (24, 32)


def face_ground(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The mean BGR of the brightest :data:`GROUND_SHARE` of a face's inner part (its outline and
    side left out), the face cut upright from its four corners."""
    crop = crop_tile(image, np.asarray(corners, np.float64), GROUND_CROP)
    inner = crop[4:-4, 3:-3].reshape(-1, 3).astype(np.float64)
    brightness = inner.sum(axis=1)
    darkest_kept = len(brightness) - max(round(GROUND_SHARE * len(brightness)), 1)
    ground = inner[brightness >= np.partition(brightness, darkest_kept)[darkest_kept]]
    return np.asarray(ground.mean(axis=0))


def light_colour(image: np.ndarray, found: Sequence[Detection]) -> tuple[float, float] | None:
    """The light's colour as the finds' faces show it, blue/green and red/green of their ground
    (each ratio's median over the finds, weighted by how surely each is a tile read right; a
    tile read face down left out; the :data:`FACES_MEASURED` surest at most); None with fewer than
    :data:`FINDS_AT_LEAST` such finds or no sure one, or a picture not in colour."""
    # A tile's back is coloured (blue, yellow, green...): only faces show the light.
    faces = [d for d in found if not d.reading.face_down]
    if image.ndim != 3 or len(faces) < FINDS_AT_LEAST:
        return None
    # The surest few say it as well as all: a live table's ~90 faces a frame cost ~10 ms.
    faces = sorted(faces, key=tile_belief, reverse=True)[:FACES_MEASURED]
    weights = np.array([tile_belief(d) for d in faces])
    if weights.sum() <= 0.0:
        return None
    grounds = np.array([face_ground(image, d.corners) for d in faces])
    green = np.maximum(grounds[:, 1], 1.0)
    return (weighted_median(grounds[:, 0] / green, weights), weighted_median(grounds[:, 2] / green, weights))


def cast_of(light: tuple[float, float]) -> float:
    """How far a light's colour lies from a neutral one's: the larger natural log of its two
    ratios over :data:`FACE_GROUND`'s."""
    pairs = zip(light, FACE_GROUND, strict=True)
    return max(abs(float(np.log(max(ratio, 1e-6) / neutral))) for ratio, neutral in pairs)


def gains_setting_right(light: tuple[float, float]) -> tuple[float, float]:
    """The blue and red gains that bring a face's ground lit by ``light`` to :data:`FACE_GROUND`."""
    return FACE_GROUND[0] / max(light[0], 1e-6), FACE_GROUND[1] / max(light[1], 1e-6)


def blue_and_red_scaled(image: np.ndarray, gains: tuple[float, float]) -> np.ndarray:
    """``image`` (BGR uint8) with its blue and red scaled by ``gains`` and its green kept (so a
    dim picture is not brightened), each level clipped and cut down to a whole one, through a
    lookup table a channel."""
    levels = np.arange(256, dtype=np.float32)
    table = np.stack([levels * np.float32(gains[0]), levels, levels * np.float32(gains[1])], axis=-1)
    return np.asarray(cv2.LUT(image, np.clip(table, 0, 255).astype(np.uint8).reshape(1, 256, 3)))


def set_right(image: np.ndarray, light: tuple[float, float]) -> np.ndarray:
    """``image`` with its blue and red scaled so that a face's ground lit by ``light`` shows
    :data:`FACE_GROUND`."""
    return blue_and_red_scaled(image, gains_setting_right(light))


def light_change(image: np.ndarray, found: Sequence[Detection]) -> np.ndarray | None:
    """``image`` with its colours set right when ``found`` shows a light :data:`CAST_AT_LEAST` or
    more from a neutral one; else None (a :class:`vision.detect.second_looks.SecondLook`'s change)."""
    light = light_colour(image, found)
    if light is None or cast_of(light) < CAST_AT_LEAST:
        return None
    return set_right(image, light)


#: The second look at a photograph under a coloured light.
LIGHT_SET_RIGHT: Final = SecondLook("the light set right (its faces showed a coloured light)", light_change)
