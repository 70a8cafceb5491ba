"""Things on and around a mahjong table that are not tiles, drawn lying on the table's plane:
a keyboard, an automatic table's score display and a tray of point sticks.

Each looks like tiles in its own way: a keyboard is a grid of light squares each carrying a
glyph; a score display is a dark panel of lit digits in a row; a stick tray is a row of
compartments of white bars with dots. A tile finder that fires on them would report tiles at a
table where there are none, so the hard negatives (``render_seat_view(..., table_things=True)``)
draw them.

Each thing is first drawn flat as a texture at :data:`PX_PER_MM` (colour and alpha), then
warped onto its place on the table through the scene's camera.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import Final

import cv2
import numpy as np

from vision.geometry import rectangle_corners
from vision.render.camera import Camera
from vision.render.drawing import warp_onto

PX_PER_MM: Final = 4.0
_GLYPHS: Final = string.ascii_uppercase + string.digits


def keyboard(rng: np.random.Generator) -> np.ndarray:
    """A keyboard seen from above: rows of keys, each with a letter or digit (BGRA)."""
    columns, rows = int(rng.integers(10, 15)), int(rng.integers(3, 6))
    pitch, key = 19.0, float(rng.uniform(14.5, 17.0))
    width_mm, height_mm = columns * pitch + 12, rows * pitch + 12
    dark = rng.random() < 0.6
    case = rng.uniform(20, 60, 3) if dark else rng.uniform(190, 235, 3)
    key_colour = rng.uniform(30, 70, 3) if dark else rng.uniform(215, 250, 3)
    ink = (230.0, 230.0, 230.0) if dark else (40.0, 40.0, 40.0)
    texture = _canvas(width_mm, height_mm, case)
    for row in range(rows):
        for column in range(columns):
            x0 = (6 + column * pitch + (pitch - key) / 2 + row * 3) * PX_PER_MM
            y0 = (6 + row * pitch + (pitch - key) / 2) * PX_PER_MM
            x1, y1 = x0 + key * PX_PER_MM, y0 + key * PX_PER_MM
            if x1 > texture.shape[1]:
                continue
            cv2.rectangle(texture, (int(x0), int(y0)), (int(x1), int(y1)), (*key_colour.tolist(), 255.0), -1)
            glyph = _GLYPHS[int(rng.integers(0, len(_GLYPHS)))]
            cv2.putText(
                texture, glyph, (int(x0 + 0.2 * key * PX_PER_MM), int(y0 + 0.6 * key * PX_PER_MM)),
                cv2.FONT_HERSHEY_SIMPLEX, key * PX_PER_MM / 60, (*ink, 255.0), 2, cv2.LINE_AA,
            )  # fmt: skip
    return _opaque(texture)


def score_display(rng: np.random.Generator) -> np.ndarray:
    """An automatic table's score display: a dark panel, each seat's points lit in a row."""
    width_mm, height_mm = float(rng.uniform(120, 200)), float(rng.uniform(30, 55))
    texture = _canvas(width_mm, height_mm, rng.uniform(10, 40, 3))
    lit = [(40.0, 40.0, 235.0), (60.0, 220.0, 80.0), (40.0, 170.0, 240.0)][int(rng.integers(0, 3))]
    digits = "".join(str(int(d)) for d in rng.integers(0, 10, int(rng.integers(4, 7))))
    scale = height_mm * PX_PER_MM / 45
    cv2.putText(
        texture, digits, (int(0.08 * width_mm * PX_PER_MM), int(0.72 * height_mm * PX_PER_MM)),
        cv2.FONT_HERSHEY_DUPLEX, scale, (*lit, 255.0), max(int(scale * 2), 2), cv2.LINE_AA,
    )  # fmt: skip
    return _opaque(texture)


def stick_tray(rng: np.random.Generator) -> np.ndarray:
    """A tray of point sticks: compartments side by side, each holding white sticks with dots."""
    compartments = int(rng.integers(3, 6))
    slot_mm, length_mm = 22.0, float(rng.uniform(90, 110))
    width_mm, height_mm = compartments * slot_mm + 6, length_mm + 10
    texture = _canvas(width_mm, height_mm, rng.uniform(25, 80, 3))
    for compartment in range(compartments):
        left = (3 + compartment * slot_mm) * PX_PER_MM
        bottom = (length_mm + 6) * PX_PER_MM
        floor = (*rng.uniform(15, 45, 3).tolist(), 255.0)
        right = left + (slot_mm - 2) * PX_PER_MM
        cv2.rectangle(texture, (int(left), int(4 * PX_PER_MM)), (int(right), int(bottom)), floor, -1)
        for stick in range(int(rng.integers(1, 5))):
            x0 = left + (1 + stick * 4.5) * PX_PER_MM
            top, bottom = 6 * PX_PER_MM, (length_mm + 4) * PX_PER_MM
            cv2.rectangle(
                texture, (int(x0), int(top)), (int(x0 + 3.6 * PX_PER_MM), int(bottom)), (236.0, 238.0, 240.0, 255.0), -1
            )
            dot = (40.0, 40.0, 200.0) if compartment % 2 else (30.0, 30.0, 30.0)
            centre = (int(x0 + 1.8 * PX_PER_MM), int((top + bottom) / 2))
            cv2.circle(texture, centre, int(1.2 * PX_PER_MM), (*dot, 255.0), -1, cv2.LINE_AA)
    return _opaque(texture)


THINGS: Final[dict[str, Callable[[np.random.Generator], np.ndarray]]] = {
    "keyboard": keyboard,
    "score display": score_display,
    "stick tray": stick_tray,
}


def draw_table_things(
    image: np.ndarray,
    camera: Camera,
    rng: np.random.Generator,
    area_mm: tuple[float, float, float, float],
    count: int,
) -> np.ndarray:
    """``count`` things, each of a kind drawn at random, lying flat at random places and turns
    in ``area_mm`` (x0, y0, x1, y1 on the table's plane); returns the share (0-1) of each
    pixel they cover."""
    covered = np.zeros(image.shape[:2], np.float32)
    names = list(THINGS)
    for _ in range(count):
        texture = THINGS[names[int(rng.integers(0, len(names)))]](rng)
        x = float(rng.uniform(area_mm[0], area_mm[2]))
        y = float(rng.uniform(area_mm[1], area_mm[3]))
        _lay(image, covered, camera, texture=texture, centre_mm=(x, y), turn=float(rng.uniform(0, np.pi)))
    return covered


def _opaque(texture: np.ndarray) -> np.ndarray:
    """Every pixel of a thing opaque: OpenCV's antialiased text blends the alpha channel too."""
    texture[..., 3] = 255
    return texture


def _canvas(width_mm: float, height_mm: float, colour: np.ndarray) -> np.ndarray:
    texture = np.zeros((int(height_mm * PX_PER_MM), int(width_mm * PX_PER_MM), 4), np.uint8)
    texture[..., :3] = np.round(colour).astype(np.uint8)
    texture[..., 3] = 255
    return texture


def _lay(
    image: np.ndarray,
    covered: np.ndarray,
    camera: Camera,
    *,
    texture: np.ndarray,
    centre_mm: tuple[float, float],
    turn: float,
) -> None:
    """``texture`` lying on the table centred at ``centre_mm``, turned ``turn`` radians."""
    height_px, width_px = texture.shape[:2]
    half_w, half_h = width_px / PX_PER_MM / 2, height_px / PX_PER_MM / 2
    along = np.array([np.cos(turn), np.sin(turn)])
    plane = rectangle_corners(np.asarray(centre_mm), along, half_w, half_h)
    corners = camera.project(np.array([[p[0], p[1], 1.0] for p in plane]))
    if np.isfinite(corners).all():
        warp_onto(image, texture, corners, covered)
