"""Tile art: each label's face composited onto the tile body, ready to warp into a scene.

The art is FluffyStuff's CC0 riichi set, vendored in ``vision/art/fluffystuff`` (its README
names the source and licence): 600×800 PNGs with alpha, a ``Front`` body and transparent face graphics. Styles:

- ``regular``: ivory bodies, the art as drawn (the training style);
- ``regular-dark``: the regular art with its lightness inverted in Lab (dark bodies, light
  symbols, hues kept so red fives stay red) — a synthetic variation for training, because
  dark-faced tile sets exist;
- ``black``: the art's own black set, never used in training (the held-out style).

Backs are the regular ``Back`` recoloured to a chosen hue: real tables have blue, green,
yellow or red backs, and the black set's own back is indistinguishable from its white dragon.
"""

from __future__ import annotations

import functools
import logging
import os
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from vision.classify.labels import BACK_LABEL, LABEL_COUNT, art_name, is_red_label, kind_of_label

log = logging.getLogger(__name__)

#: Working size of a tile image (width, height): enough detail for ~140 px tiles in a frame.
ART_SIZE: Final = (150, 200)
#: OpenCV hues (0-179) of back colours seen on automatic tables: red, orange, yellow, green, blue, purple.
BACK_HUES: Final = (0, 12, 24, 62, 105, 130)


class ArtStyle(StrEnum):
    REGULAR = "regular"
    REGULAR_DARK = "regular-dark"
    BLACK = "black"


@dataclass(frozen=True, eq=False)
class TileArt:
    """BGRA uint8 images of every label at :data:`ART_SIZE`; the back is the plain regular back.
    ``style`` is ``None`` for art that is none of the vendored styles (a tile set's enrolled
    faces); ``red_fives`` is false for a set without them, whose red-five images are its
    plain fives (:meth:`drawn_label`)."""

    style: ArtStyle | None
    images: tuple[np.ndarray, ...]
    red_fives: bool = True

    def image(self, label: int, back_hue: int = 0) -> np.ndarray:
        if label == BACK_LABEL:
            return _tinted(self.images[BACK_LABEL], back_hue)
        return self.images[label]

    def drawn_label(self, label: int) -> int:
        """The label a tile of ``label`` shows in this art: itself, or in a set without red
        fives, the plain five (what the ground truth must then say)."""
        if not self.red_fives and is_red_label(label):
            return kind_of_label(label)
        return label


#: The art shipped with the package (``Export/Regular``, ``Export/Black``).
VENDORED_ART: Final = Path(__file__).resolve().parent.parent / "art" / "fluffystuff" / "Export"


def default_art_root() -> Path:
    """``$JANTAKU_TILE_ART`` (another ``Export`` folder of the same layout) or the vendored art."""
    configured = os.environ.get("JANTAKU_TILE_ART")
    if configured:
        return Path(configured)
    return VENDORED_ART


@functools.lru_cache(maxsize=8)
def load_tile_art(style: ArtStyle, root: Path | None = None) -> TileArt:
    """Read and composite the art of one style (cached: the renderer asks for it per table)."""
    base = root if root is not None else default_art_root()
    folder = base / ("Black" if style is ArtStyle.BLACK else "Regular")
    body = _read(folder / "Front.png")
    images: list[np.ndarray] = []
    for label in range(LABEL_COUNT):
        if label == BACK_LABEL:
            images.append(_read(base / "Regular" / "Back.png"))
            continue
        face = _read(folder / f"{art_name(label)}.png") if art_name(label) != "Haku" else None
        tile = _over(face, body) if face is not None else body.copy()
        if style is ArtStyle.REGULAR_DARK:
            tile = _invert_lightness(tile)
        images.append(tile)
    log.debug("loaded %s tile art from %s", style.value, folder)
    return TileArt(style, tuple(images))


def _read(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise ValueError(f"tile art {path} is missing or not a BGRA PNG")
    return np.asarray(cv2.resize(image, ART_SIZE, interpolation=cv2.INTER_AREA))


def _over(face: np.ndarray, body: np.ndarray) -> np.ndarray:
    alpha = face[..., 3:4].astype(np.float32) / 255.0
    colour = face[..., :3] * alpha + body[..., :3] * (1.0 - alpha)
    return np.dstack([colour.astype(np.uint8), body[..., 3]])


def _invert_lightness(tile: np.ndarray) -> np.ndarray:
    lab = cv2.cvtColor(np.ascontiguousarray(tile[..., :3]), cv2.COLOR_BGR2LAB)
    lab[..., 0] = 255 - lab[..., 0]
    return np.dstack([cv2.cvtColor(lab, cv2.COLOR_LAB2BGR), tile[..., 3]])


def _tinted(back: np.ndarray, hue: int) -> np.ndarray:
    hsv = cv2.cvtColor(np.ascontiguousarray(back[..., :3]), cv2.COLOR_BGR2HSV)
    hsv[..., 0] = (hsv[..., 0].astype(np.int32) + hue) % 180
    return np.dstack([cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR), back[..., 3]])
