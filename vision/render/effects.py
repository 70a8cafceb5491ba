"""Photometric effects of a real camera over a real table, shared by the renderer and training.

Each takes and returns a float32 BGR image in 0..255 (JPEG returns uint8 round-tripped); the
random ones draw everything from the generator they are given, so a seed fixes the result.
"""

from __future__ import annotations

import cv2
import numpy as np


def lighting(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Uneven light: a gradient across the frame and a vignette."""
    height, width = image.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    xs, ys = xs / width - 0.5, ys / height - 0.5
    angle = rng.uniform(0, 2 * np.pi)
    gradient = (xs * np.cos(angle) + ys * np.sin(angle)) * rng.uniform(0.0, 0.5)
    vignette = -(xs**2 + ys**2) * rng.uniform(0.0, 0.8)
    gain = rng.uniform(0.7, 1.15) * (1.0 + gradient + vignette)
    return np.asarray(image * gain[..., None])


def white_balance(image: np.ndarray, rng: np.random.Generator, strength: float = 0.1) -> np.ndarray:
    gains = 1.0 + rng.uniform(-strength, strength, size=3)
    return image * gains.astype(np.float32)


def glare(
    image: np.ndarray, rng: np.random.Generator, count: int | None = None, gloss: np.ndarray | None = None
) -> np.ndarray:
    """Specular spots from lamps: soft bright ellipses that wash out whatever is under them.

    ``gloss`` (0..1 per pixel) says how shiny each pixel is: glossy tiles catch a lamp, matte
    felt hardly does.
    """
    height, width = image.shape[:2]
    spots = np.zeros((height, width), np.float32)
    for _ in range(int(rng.integers(0, 4)) if count is None else count):
        centre = (int(rng.uniform(0, width)), int(rng.uniform(0, height)))
        axes = (int(rng.uniform(0.02, 0.12) * width), int(rng.uniform(0.02, 0.12) * width))
        cv2.ellipse(spots, centre, axes, float(rng.uniform(0, 180)), 0, 360, float(rng.uniform(60, 200)), -1)
    if not spots.any():
        return image
    spots = np.asarray(cv2.GaussianBlur(spots, (0, 0), sigmaX=max(width, height) * 0.02))
    if gloss is not None:
        spots *= gloss
    return image + spots[..., None]


def cast_shadow(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A soft shadow (an arm, the lamp's frame) darkening a random region."""
    height, width = image.shape[:2]
    polygon = np.stack([rng.uniform(0, width, 4), rng.uniform(0, height, 4)], axis=1).astype(np.int32)
    mask = np.zeros((height, width), np.float32)
    cv2.fillConvexPoly(mask, cv2.convexHull(polygon), 1.0)
    mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), sigmaX=max(width, height) * 0.03))
    return np.asarray(image * (1.0 - rng.uniform(0.2, 0.5) * mask[..., None]))


def blur(image: np.ndarray, rng: np.random.Generator, max_sigma: float = 1.3) -> np.ndarray:
    sigma = rng.uniform(0.0, max_sigma)
    if rng.random() < 0.2:
        length = int(rng.integers(3, 7))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        rotation = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        kernel = np.asarray(cv2.warpAffine(kernel, rotation, (length, length)))
        image = np.asarray(cv2.filter2D(image, -1, kernel / max(float(kernel.sum()), 1e-6)))
    return np.asarray(cv2.GaussianBlur(image, (0, 0), sigmaX=sigma)) if sigma > 0.3 else image


def sensor_noise(image: np.ndarray, rng: np.random.Generator, max_sigma: float = 6.0) -> np.ndarray:
    return image + rng.normal(0.0, rng.uniform(0.5, max_sigma), size=image.shape).astype(np.float32)


def jpeg(image: np.ndarray, rng: np.random.Generator, quality: tuple[int, int] = (40, 95)) -> np.ndarray:
    clipped = np.clip(image, 0, 255).astype(np.uint8)
    ok, encoded = cv2.imencode(".jpg", clipped, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(*quality))])
    if not ok:
        raise RuntimeError("OpenCV could not JPEG-encode a rendered image")
    decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    if decoded is None:
        raise RuntimeError("OpenCV could not decode its own JPEG")
    return np.asarray(decoded)


def camera_effects(image: np.ndarray, rng: np.random.Generator, gloss: np.ndarray | None = None) -> np.ndarray:
    """The whole chain, in the order light and a camera apply them; returns uint8."""
    image = lighting(image, rng)
    if rng.random() < 0.3:
        image = cast_shadow(image, rng)
    image = glare(image, rng, gloss=gloss)
    image = white_balance(image, rng)
    image = blur(image, rng)
    image = sensor_noise(image, rng)
    return jpeg(image, rng)
