"""A shaken photograph (the camera moved while the shutter was open) read again with its shake
undone.

A shake smears every point of the picture along one line. Moved a fifth of a tile across, the
held-out Japanese photographs keep most of their finds but lose a fifth of their readings
(34-kind 0.980 -> 0.785, ``bench/bench_photo_changes.py``), and sharpening all round makes it
worse (:mod:`vision.detect.soft_focus`). A shake along a line is undone far better when its
direction and length are known, and the finds of the first reading tell both:

- **direction**: a blur keeps the gradients across its line and wipes out those along it, so
  a further blur of a pixel takes least from the gradients along it (their energy's kept share,
  :func:`kept_shares`, is highest there, of :data:`DIRECTIONS` tried); a defocus blurs every
  way alike, and the share along must be :data:`UNEVEN_AT_LEAST` times that across;
- **length**: a picture smeared along a line of ``L`` pixels is, differentiated along that line,
  the sharp picture at one end of the line less the same at the other end, so the derivative
  is most against itself ``L`` pixels further along (its autocorrelation's deepest dip,
  :func:`dip_along`; the nearest lag within :data:`DIP_FLOOR` of it). A sharp face's strokes
  give dips too, a stroke's width apart and as deep across as along; a shake's dip is a line's
  length apart and shallow across.

Both are measured on the finds and a little around them (:data:`AROUND_FINDS`), not the felt
or the room. Where the dip lies at least :data:`LENGTH_AT_LEAST` of a face's long edge away
and is :data:`DIP_DEEPER_BY` deeper along than across, the picture is deconvolved with that
line (a Wiener filter, :func:`unshaken`) and read again; the second reading is kept when it
reads surer (:data:`UNSHAKEN`, a second look: :mod:`vision.detect.second_looks`).
Measured on the held-out photographs as stored, the dip lies 0.02-0.07 of an edge away
(``leo-miura``; one ``alanchoi`` picture 0.15) and is 0.13 shallower to 0.22 deeper along than
across; shaken a fifth of a tile (0.16-0.20 of an edge) at 0°, 60° or 90°, 0.12-0.27 away and
0.11-0.58 deeper.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

from vision.detect.pixel_aspect import sureness
from vision.detect.second_looks import SecondLook
from vision.detect.still_photo import Detection
from vision.geometry import long_edge

#: The directions tried for a shake, degrees clockwise from the picture's x axis (a line has
#: no sense: 0-180).
DIRECTIONS: Final = tuple(float(d) for d in range(0, 180, 15))
#: How far around each find its surroundings are measured (a share of its size each way from
#: its centre): its outline against the felt shows the shake best.
AROUND_FINDS: Final = 1.3
#: A shake keeps this many times more of the energy along its line than across it under a
#: further blur: a defocus keeps as much every way (the held-out Japanese photographs defocused
#: a 25th of a tile: 1.03 at most; shaken a fifth of a tile across 1.22 or more, at 60° 1.12).
UNEVEN_AT_LEAST: Final = 1.08
#: The most points of the finds' surroundings the derivative's autocorrelation is summed over
#: (spread evenly over them): a frame of large faces has millions.
SAMPLES: Final = 60_000
_MAP_WIDTH: Final = 1024
#: OpenCV's remap asserts fewer rows than this in its maps: the lags read in one call are as many
#: as fit (a face 1 400 px long asks for more lags than one call holds).
_MAP_ROWS_UNDER: Final = 32_767
#: The longest shake looked for, a share of the finds' median long edge: a shake longer than
#: this leaves no face a person could read.
LENGTH_AT_MOST: Final = 0.4
#: A dip nearer than this share of the long edge is a stroke's width, not a shake (the held-out
#: photographs as stored: 0.07 at most but for one in a hundred and twenty).
LENGTH_AT_LEAST: Final = 0.09
#: How near the deepest dip a nearer lag lies to be taken as the shake's length instead.
DIP_FLOOR: Final = 0.02
#: How much deeper the dip must be along the shake's line than across it (the autocorrelation,
#: -1 to 1).
DIP_DEEPER_BY: Final = 0.1
#: The Wiener filter's noise-to-signal ratio: lower restores more and rings more.
NOISE_TO_SIGNAL: Final = 0.01
#: Fewer finds than this say too little about the picture: it is read once.
FINDS_AT_LEAST: Final = 3
#: A first reading less sure than this may hold no tile at all: the picture is read once (a
#: shaken photograph of tiles read 0.26-0.85).
FIRST_SURE_AT_LEAST: Final = 0.2


@dataclass(frozen=True, slots=True)
class Shake:
    """A straight shake: its line's direction, degrees clockwise from the x axis (0-180), and
    its length in pixels."""

    direction: float
    length: int


def shake_of(image: np.ndarray, found: Sequence[Detection]) -> Shake | None:
    """The shake the finds' faces show, or None where they show none (too few finds, or a dip
    too near or as deep across as along)."""
    if len(found) < FINDS_AT_LEAST:
        return None
    gray, mask = _around_finds(image, found)
    if not mask.any():
        return None
    kept = kept_shares(gray, mask)
    best = int(np.argmax(kept))
    if kept[best] < UNEVEN_AT_LEAST * kept[(best + len(DIRECTIONS) // 2) % len(DIRECTIONS)]:
        return None  # blurred every way alike (a defocus), or not at all
    direction = DIRECTIONS[best]
    edge = float(np.median([long_edge(d.corners) for d in found]))
    longest = max(round(LENGTH_AT_MOST * edge), 2)
    gradient = sampled_gradient(gray, mask)
    along = dip_along(gradient, direction, range(1, longest + 1))
    # Long strokes across the shake anticorrelate it at their own lengths too, past the shake's
    # (a flat floor beyond it): the shake is where the correlation first reaches its floor.
    length = int(np.argmax(along <= along.min() + DIP_FLOOR)) + 1
    if length < LENGTH_AT_LEAST * edge:
        return None
    (across,) = dip_along(gradient, direction + 90.0, (length,))
    if across - along[length - 1] < DIP_DEEPER_BY:
        return None
    return Shake(direction, length)


def kept_shares(gray: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """For each of :data:`DIRECTIONS`, the share of the energy of the picture's derivative that
    way (inside ``mask``) that a further blur of one pixel keeps: highest along a shake."""
    sharp = _gradient_moments(gray, mask)
    soft = _gradient_moments(cv2.GaussianBlur(gray, (0, 0), 1.0), mask)
    shares = []
    for direction in DIRECTIONS:
        c, s = _cos_sin(direction)
        # The energy of c·gx + s·gy, from the three sums: no derivative is formed a direction.
        weights = np.array([c * c, 2 * c * s, s * s])
        shares.append(float(weights @ soft) / max(float(weights @ sharp), 1e-9))
    return np.asarray(shares)


@dataclass(frozen=True, slots=True)
class SampledGradient:
    """The picture's gradient (its two 1-px central differences, the whole region) and the points
    of the mask it is summed over (at most :data:`SAMPLES`, spread evenly), laid out as rows of
    a map for :func:`cv2.remap` (OpenCV's maps are under 32 767 wide; the last row padded with
    the first point, whose readings are left out)."""

    gx: np.ndarray
    gy: np.ndarray
    xs: np.ndarray
    ys: np.ndarray
    x_map: np.ndarray
    y_map: np.ndarray


def sampled_gradient(gray: np.ndarray, mask: np.ndarray) -> SampledGradient:
    """The gradient of ``gray`` and the points of ``mask`` its correlations are summed over."""
    gx, gy = _gradients(gray, 1)
    ys, xs = np.nonzero(mask)
    if len(xs) > SAMPLES:
        picked = np.linspace(0, len(xs) - 1, SAMPLES).astype(np.intp)
        ys, xs = ys[picked], xs[picked]
    padded = -len(xs) % _MAP_WIDTH
    x_map = np.concatenate([xs, np.full(padded, xs[0])]).astype(np.float32).reshape(-1, _MAP_WIDTH)
    y_map = np.concatenate([ys, np.full(padded, ys[0])]).astype(np.float32).reshape(-1, _MAP_WIDTH)
    return SampledGradient(gx, gy, xs, ys, x_map, y_map)


def dip_along(gradient: SampledGradient, direction: float, lags: Sequence[int]) -> np.ndarray:
    """The autocorrelation of the picture's derivative along ``direction`` (over the sampled
    points) at each of ``lags`` pixels along it, each -1 to 1."""
    c, s = _cos_sin(direction)
    derivative = c * gradient.gx + s * gradient.gy
    inside = derivative[gradient.ys, gradient.xs].astype(np.float64)
    energy = max(float(np.dot(inside, inside)), 1e-9)
    # The derivative read lag pixels further along at each point, as many lags in one call as
    # its maps hold (bilinear, the region's edge reflected): only the points are read, not the
    # whole region moved; few calls, not one a lag, as OpenCV's threads wait for a busy core at
    # every call.
    rows = gradient.x_map.shape[0]
    per_call = max(1, (_MAP_ROWS_UNDER - 1) // rows)
    offsets = np.asarray(lags, dtype=np.float64)
    correlation = np.empty(len(offsets))
    for start in range(0, len(offsets), per_call):
        some = offsets[start : start + per_call]
        along_x = (c * some).astype(np.float32)[:, None, None]
        along_y = (s * some).astype(np.float32)[:, None, None]
        moved = cv2.remap(
            derivative,
            (gradient.x_map[None] + along_x).reshape(-1, _MAP_WIDTH),
            (gradient.y_map[None] + along_y).reshape(-1, _MAP_WIDTH),
            interpolation=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REFLECT,
        ).reshape(len(some), -1)[:, : len(inside)]
        correlation[start : start + len(some)] = moved.astype(np.float64) @ inside
    return correlation / energy


def unshaken(image: np.ndarray, shake: Shake, noise_to_signal: float = NOISE_TO_SIGNAL) -> np.ndarray:
    """``image`` deconvolved with ``shake``'s line (a Wiener filter), its edges padded by
    reflection so that the filter's wrap-around does not ring across the picture."""
    height, width = image.shape[:2]
    pad = 2 * shake.length + 4
    padded = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_REFLECT)
    line = _line_kernel(padded.shape[:2], shake)
    spectrum = np.fft.rfft2(line)
    inverse = np.conj(spectrum) / (np.abs(spectrum) ** 2 + noise_to_signal)
    channels = padded.reshape(*padded.shape[:2], -1)
    restored = np.stack(
        [np.fft.irfft2(np.fft.rfft2(channels[..., k].astype(np.float32)) * inverse, s=line.shape)
         for k in range(channels.shape[2])],
        axis=-1,
    )  # fmt: skip
    kept = np.clip(restored[pad : pad + height, pad : pad + width] + 0.5, 0, 255).astype(np.uint8)
    return kept.reshape(image.shape)


def shake_change(image: np.ndarray, found: Sequence[Detection]) -> np.ndarray | None:
    """``image`` with its shake undone when its finds show one and read surely enough to be
    tiles; else None (a :class:`vision.detect.second_looks.SecondLook`'s change)."""
    if len(found) < FINDS_AT_LEAST or sureness(found) < FIRST_SURE_AT_LEAST:
        return None
    shake = shake_of(image, found)
    return None if shake is None else unshaken(image, shake)


#: The second look at a shaken photograph.
UNSHAKEN: Final = SecondLook("its shake undone (the camera moved)", shake_change)


def _around_finds(image: np.ndarray, found: Sequence[Detection]) -> tuple[np.ndarray, np.ndarray]:
    """The grey picture cut to the finds' surroundings, and the mask of those surroundings in
    it (each find's quad widened :data:`AROUND_FINDS` times about its centre)."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    height, width = gray.shape
    quads = []
    for detection in found:
        corners = np.asarray(detection.corners, np.float64)
        middle = corners.mean(axis=0)
        quads.append(middle + (corners - middle) * AROUND_FINDS)
    every = np.concatenate(quads)
    # A margin beyond the quads so that the lags' moved derivative is read, not reflected, there.
    margin = int(np.ceil(LENGTH_AT_MOST * max(long_edge(d.corners) for d in found))) + 2
    left, top = (max(int(v) - margin, 0) for v in every.min(axis=0))
    right, bottom = min(int(every[:, 0].max()) + margin, width), min(int(every[:, 1].max()) + margin, height)
    cut = np.ascontiguousarray(gray[top:bottom, left:right], np.float32)
    mask = np.zeros(cut.shape, np.uint8)
    for quad in quads:
        cv2.fillConvexPoly(mask, np.round(quad - (left, top)).astype(np.int32), 1)
    return cut, mask.astype(bool)


def _gradient_moments(gray: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Σgx², Σgx·gy and Σgy² of the picture's gradient inside ``mask``."""
    gx, gy = _gradients(gray, 3)
    x, y = gx[mask].astype(np.float64), gy[mask].astype(np.float64)
    return np.array([np.dot(x, x), np.dot(x, y), np.dot(y, y)])


def _gradients(gray: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    return cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=size), cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=size)


def _cos_sin(direction: float) -> tuple[float, float]:
    radians = np.deg2rad(direction)
    return float(np.cos(radians)), float(np.sin(radians))


def _line_kernel(shape: tuple[int, ...], shake: Shake) -> np.ndarray:
    """A ``shape`` kernel of the shake's line centred on the origin (wrapped round, as the FFT
    sees it): the line sampled finely, each sample shared among its four nearest pixels."""
    height, width = shape[:2]
    kernel = np.zeros((height, width), np.float64)
    c, s = _cos_sin(shake.direction)
    for along in np.linspace(-shake.length / 2, shake.length / 2, 4 * shake.length + 1):
        x, y = along * c, along * s
        x0, y0 = int(np.floor(x)), int(np.floor(y))
        fx, fy = x - x0, y - y0
        shares = ((0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)), (0, 1, (1 - fx) * fy), (1, 1, fx * fy))
        for dx, dy, weight in shares:
            kernel[(y0 + dy) % height, (x0 + dx) % width] += weight
    return np.asarray(kernel / kernel.sum())
