"""A tile's vendored art over a white ground: a clean face picture for the crop tests."""

from __future__ import annotations

import numpy as np

from vision.render.tile_art import ArtStyle, load_tile_art


def art_face(label: int, style: ArtStyle = ArtStyle.REGULAR) -> np.ndarray:
    """The art of classifier label ``label`` in ``style``, its transparent parts white (BGR uint8)."""
    image = load_tile_art(style).images[label]
    alpha = image[..., 3:4].astype(np.float32) / 255
    return (image[..., :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
