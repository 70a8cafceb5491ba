"""Random tile-set palettes: the regular art's inks and body recoloured, for training.

Real tile sets differ from the art above all in colour: bamboo drawn blue or black, circles
green, dark bodies with light symbols. A classifier trained on one palette learns "green
means bamboo"; trained on many, it has to read the shapes. The regular art uses a handful of
inks, each with a role (see :class:`Ink`); a :class:`Palette` gives every role a colour and
the body its own, and :func:`palette_art` paints the art with it.

What stays true across palettes is what real sets keep: a red five is drawn in a saturated
red that the ordinary inks of its suit are not, so the red-five classes keep their meaning;
symbols contrast with the body; the white dragon is the bare body.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from vision.classify.labels import BACK_LABEL, LABEL_COUNT, art_name, is_red_label
from vision.render.tile_art import ART_SIZE, ArtStyle, TileArt, default_art_root

Colour = tuple[int, int, int]  # BGR


class Ink(IntEnum):
    """The inks of the regular art, by what they draw."""

    BLACK = 0  # character numerals, outlines
    NAVY = 1  # the circles' rings
    WHITE = 2  # details inside symbols, drawn in the body's colour
    RED = 3  # the 萬 character, the circles' centres, the red dragon
    GREEN = 4  # bamboo, the green dragon
    BLUE = 5  # the winds
    DORA = 6  # a red five's symbols


#: The inks as the regular art draws them (BGR), measured from its PNGs.
REGULAR_INKS: Final[dict[Ink, Colour]] = {
    Ink.BLACK: (20, 20, 20),
    Ink.NAVY: (60, 20, 20),
    Ink.WHITE: (240, 240, 240),
    Ink.RED: (50, 50, 180),
    Ink.GREEN: (20, 85, 20),
    Ink.BLUE: (150, 50, 20),
}
_MIN_CONTRAST: Final = 70.0  # Lab lightness (0-255) between an ink and the body
_RED_HUE_BAND: Final = 12  # OpenCV hues (0-179) within this of pure red count as red


@dataclass(frozen=True, slots=True)
class Palette:
    body: Colour
    inks: tuple[Colour, ...]  # indexed by Ink

    def ink(self, role: Ink) -> Colour:
        return self.inks[role]


def random_palette(rng: np.random.Generator) -> Palette:
    """A body and inks as tile sets are made: light or dark bodies, symbols that stand out
    from them, sometimes one colour for all the suits' inks, red fives always red."""
    dark = rng.random() < 0.4
    body = _lab_colour(
        rng.uniform(25, 90) if dark else rng.uniform(195, 250), rng.normal(0, 6), rng.normal(0, 8 if dark else 10)
    )
    shared = _ink_for(body, rng, allow_red=False) if rng.random() < 0.35 else None
    inks: list[Colour] = []
    for role in Ink:
        if role is Ink.WHITE:
            inks.append(body if rng.random() < 0.8 else _ink_for(body, rng, allow_red=True))
        elif role is Ink.RED:
            inks.append(_ink_for(body, rng, allow_red=True))
        elif role is Ink.DORA:
            inks.append(_dora_red(body, rng))
        else:
            inks.append(shared or _ink_for(body, rng, allow_red=False))
    return Palette(body, tuple(inks))


def palette_of_table(seed: int) -> Palette:
    """The palette a training table ``seed`` is drawn in: the same seed gives the same
    palette in the classifier's and the detector's recipes."""
    return random_palette(np.random.default_rng(seed + 5_000_011))


def palette_art(palette: Palette, root: Path | None = None) -> TileArt:
    """Every label's art painted with ``palette``; the back is the plain regular back, as in
    every style (backs get their hue where a table is drawn)."""
    body = _recoloured_body(palette.body, root)
    colours = np.array(palette.inks, np.float32)
    images: list[np.ndarray] = []
    for label in range(LABEL_COUNT):
        if label == BACK_LABEL:
            images.append(_regular_back(root))
            continue
        weights = _ink_weights(label, root)
        if weights is None:
            images.append(body.copy())
            continue
        alpha = weights.sum(axis=2, keepdims=True)
        colour = np.tensordot(weights, colours, axes=([2], [0])) / np.maximum(alpha, 1e-6)
        tile = colour * alpha + body[..., :3].astype(np.float32) * (1.0 - alpha)
        images.append(np.dstack([np.clip(tile, 0, 255).astype(np.uint8), body[..., 3]]))
    return TileArt(ArtStyle.REGULAR, tuple(images))


def _lab_colour(lightness: float, a: float, b: float) -> Colour:
    lab = np.array([[[np.clip(lightness, 0, 255), np.clip(128 + a, 0, 255), np.clip(128 + b, 0, 255)]]], np.uint8)
    bgr = cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)[0, 0]
    return (int(bgr[0]), int(bgr[1]), int(bgr[2]))


def _lightness(colour: Colour) -> float:
    return float(cv2.cvtColor(np.array([[colour]], np.uint8), cv2.COLOR_BGR2LAB)[0, 0, 0])


def _hsv_colour(hue: float, saturation: float, value: float) -> Colour:
    hsv = np.array([[[hue % 180, np.clip(saturation, 0, 255), np.clip(value, 0, 255)]]], np.uint8)
    bgr = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0]
    return (int(bgr[0]), int(bgr[1]), int(bgr[2]))


def _is_red(hue: float, saturation: float) -> bool:
    return saturation > 90 and min(hue, 180 - hue) <= _RED_HUE_BAND


def _ink_for(body: Colour, rng: np.random.Generator, *, allow_red: bool) -> Colour:
    """A random ink that stands out from ``body`` (and is not a red five's red unless allowed)."""
    body_lightness = _lightness(body)
    for _ in range(100):
        hue, saturation, value = rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(0, 255)
        if not allow_red and _is_red(hue, saturation):
            continue
        colour = _hsv_colour(hue, saturation, value)
        if abs(_lightness(colour) - body_lightness) >= _MIN_CONTRAST:
            return colour
    return (245, 245, 245) if body_lightness < 128 else (15, 15, 15)


def _dora_red(body: Colour, rng: np.random.Generator) -> Colour:
    body_lightness = _lightness(body)
    for _ in range(100):
        colour = _hsv_colour(rng.uniform(-6, 6), rng.uniform(170, 255), rng.uniform(150, 255))
        if abs(_lightness(colour) - body_lightness) >= _MIN_CONTRAST * 0.6:
            return colour
    return (30, 30, 220)


def _recoloured_body(colour: Colour, root: Path | None) -> np.ndarray:
    """The regular body with its shading kept and its mean moved to ``colour`` (in Lab)."""
    front = _regular_image("Front", root)
    lab = cv2.cvtColor(np.ascontiguousarray(front[..., :3]), cv2.COLOR_BGR2LAB).astype(np.float32)
    opaque = front[..., 3] > 128
    target = cv2.cvtColor(np.array([[colour]], np.uint8), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)
    lab += target - lab[opaque].mean(axis=0)
    bgr = cv2.cvtColor(np.clip(lab, 0, 255).astype(np.uint8), cv2.COLOR_LAB2BGR)
    return np.dstack([bgr, front[..., 3]])


def _regular_back(root: Path | None) -> np.ndarray:
    return _regular_image("Back", root).copy()


@functools.lru_cache(maxsize=4)
def _regular_image(name: str, root: Path | None) -> np.ndarray:
    path = (root if root is not None else default_art_root()) / "Regular" / f"{name}.png"
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise ValueError(f"tile art {path} is missing or not a BGRA PNG")
    return np.asarray(cv2.resize(image, ART_SIZE, interpolation=cv2.INTER_AREA))


@functools.lru_cache(maxsize=LABEL_COUNT * 2)
def _ink_weights(label: int, root: Path | None) -> np.ndarray | None:
    """H×W×7 float32 at :data:`ART_SIZE`: how much of each ink covers each pixel (the sum is
    the face's opacity). Each full-size pixel goes to its nearest ink, then the map is scaled
    down, so that edges between inks stay soft. ``None`` for a face with no art (white dragon)."""
    name = art_name(label)
    if name == "Haku":
        return None
    path = (root if root is not None else default_art_root()) / "Regular" / f"{name}.png"
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise ValueError(f"tile art {path} is missing or not a BGRA PNG")
    references = np.array(list(REGULAR_INKS.values()), np.float32)
    pixels = image[..., :3].reshape(-1, 3).astype(np.float32)
    nearest = np.argmin(((pixels[:, None, :] - references[None, :, :]) ** 2).sum(axis=2), axis=1)
    roles = np.array(list(REGULAR_INKS), np.int64)[nearest].reshape(image.shape[:2])
    if is_red_label(label):
        roles[roles == Ink.RED] = Ink.DORA  # a red five's red is the dora red, whatever its shade
    alpha = image[..., 3].astype(np.float32) / 255.0
    full = np.zeros((*image.shape[:2], len(Ink)), np.float32)
    np.put_along_axis(full, roles[..., None], alpha[..., None], axis=2)
    return np.asarray(cv2.resize(full, ART_SIZE, interpolation=cv2.INTER_AREA))
