"""Crops changed at random as another camera or light changes them, for the training recipes
(numpy and OpenCV only, so that they are tested without torch): blurred as a lens out of focus
or a shaken camera blurs them, and lit by a light of another colour.

``bench/bench_photo_changes.py`` showed what they are for: on the held-out photographs blurred
a 25th of a tile, the verifier dropped a tenth of the tiles (recall 0.93 -> 0.77), and under a
cool light a sixth (0.93 -> 0.78); :func:`vision.training.batches.reexposed` shifts each
channel by a few levels, where a light's colour scales it.
"""

from __future__ import annotations

from typing import Final

import cv2
import numpy as np

#: The widest blurs :func:`blurred` draws, in crop pixels: a defocus's Gaussian sigma and a
#: shake's streak length. A 32-px crop holds a face about 25 px wide, so 1.6 is a blur of a
#: 16th of a face: soft strokes a person still reads (``bench/bench_photo_changes.py``'s
#: defocus, a 25th of a tile, comes out at 1.0).
MOST_DEFOCUS_SIGMA: Final = 1.6
MOST_SHAKE_PX: Final = 5


def blurred(
    pixels: np.ndarray,
    rng: np.random.Generator,
    share: float,
    most_sigma: float = MOST_DEFOCUS_SIGMA,
    most_shake: int = MOST_SHAKE_PX,
) -> np.ndarray:
    """N×H×W×3 uint8 crops with ``share`` of them (at random) blurred as a camera blurs: two in
    three defocused (a Gaussian, sigma 0.4 to ``most_sigma``), one in three shaken (a streak 3
    to ``most_shake`` px long at any angle; a defocus instead when ``most_shake`` is under 3);
    drawn from ``rng``."""
    if share <= 0.0:
        return pixels
    out = pixels.copy()
    chosen = np.flatnonzero(rng.random(len(pixels)) < share)
    for index in chosen.tolist():
        if rng.random() < 2 / 3 or most_shake < 3:
            sigma = float(rng.uniform(0.4, most_sigma))
            out[index] = cv2.GaussianBlur(pixels[index], (0, 0), sigmaX=sigma)
        else:
            out[index] = cv2.filter2D(pixels[index], -1, _streak(int(rng.integers(3, most_shake + 1)), rng))
    return out


def _streak(length: int, rng: np.random.Generator) -> np.ndarray:
    """A motion-blur kernel: a line ``length`` px long at a random angle, summing to 1."""
    size = length + 1 + length % 2  # an odd kernel side, with room for the line's soft ends
    kernel = np.zeros((size, size), np.float32)
    angle = rng.uniform(0.0, np.pi)
    middle = (size - 1) / 2
    half = (length - 1) / 2
    # Ends in 16ths of a pixel (shift 4): a streak of 2 px spans two pixels whatever its angle.
    start = (round(16 * (middle - half * np.cos(angle))), round(16 * (middle - half * np.sin(angle))))
    end = (round(16 * (middle + half * np.cos(angle))), round(16 * (middle + half * np.sin(angle))))
    cv2.line(kernel, start, end, 1.0, 1, cv2.LINE_AA, shift=4)
    return kernel / float(kernel.sum())


#: The widest white-balance gain :func:`recoloured` draws, each way: a warm lamp or cool
#: daylight moves a channel of a white face by a quarter or more
#: (``bench/bench_photo_changes.py``'s warm and cool: ×0.7-1.1).
MOST_CHANNEL_GAIN: Final = 0.3


def recoloured(pixels: np.ndarray, rng: np.random.Generator, share: float) -> np.ndarray:
    """N×H×W×3 uint8 crops with ``share`` of them (at random) lit by another light: each channel
    scaled by its own gain, 1 ± :data:`MOST_CHANNEL_GAIN`, then clipped; drawn from ``rng``.
    (:func:`vision.training.batches.reexposed` shifts each channel a little; a light's colour
    scales it.)"""
    if share <= 0.0:
        return pixels
    chosen = rng.random(len(pixels)) < share
    gains = np.where(chosen[:, None], rng.uniform(1 - MOST_CHANNEL_GAIN, 1 + MOST_CHANNEL_GAIN, (len(pixels), 3)), 1.0)
    lit = pixels.astype(np.float32) * gains[:, None, None, :].astype(np.float32)
    return np.asarray(np.clip(lit + 0.5, 0, 255), np.uint8)
