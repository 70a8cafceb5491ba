"""The 1 000-point stick a player puts down with a riichi, drawn where it lies at a real table.

A player who declares riichi lays a 1 000-point stick on the table in front of their pond, on
the centre's side, between the pond's first row and the dice panel. It is white like a tile's
face and lies right beside the pond, so a table reader must not take it for a tile (or a
piece of one). ``RenderOptions(riichi_sticks=True)`` draws one for every seat whose pond holds a
riichi tile (``vision.render.renderer``), as does the demo world's fixed camera
(``vision.render.table_camera``) from the riichi on, while the hand lasts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

from vision.geometry import rectangle_corners
from vision.render.camera import Camera
from vision.render.drawing import fill_polygon
from vision.render.layout import TableLayout
from vision.render.placement import SEAT_TURN_DEG, turned_point

STICK_LENGTH_MM: Final = 85.0
STICK_WIDTH_MM: Final = 8.0
STICK_THICKNESS_MM: Final = 3.0
#: The stick's centre line lies this far from the table's centre (the pond starts at 70 mm).
STICK_FROM_CENTRE_MM: Final = 60.0
#: The sticks' own random stream, beside a table's seed (``default_rng([seed, ..., STICKS_STREAM])``):
#: drawing them leaves every other random draw of the table as it was.
STICKS_STREAM: Final = 0x571C
_WHITE: Final = np.array([236.0, 240.0, 242.0])
_SIDE: Final = np.array([200.0, 206.0, 210.0])
_RED_DOT: Final = (40.0, 40.0, 200.0)


@dataclass(frozen=True, slots=True)
class StickPlace:
    """A stick's centre (table mm) and the clockwise turn (degrees) of its long axis from +x."""

    x: float
    y: float
    angle: float


def riichi_stick_places(layout: TableLayout, rng: np.random.Generator) -> tuple[StickPlace, ...]:
    """Where each riichi stick of ``layout`` lies: one per seat whose pond holds a riichi tile,
    along the pond's rows on the centre's side, set down by hand (a little off and askew)."""
    places = []
    for seat, seat_layout in enumerate(layout.seats):
        # Drawn for every seat, riichi or not: a seat's stick lies where it lies whoever else
        # declares (a fixed camera's frames, one riichi after another).
        along, off, askew = rng.normal(0.0, 8.0), rng.normal(0.0, 1.5), rng.normal(0.0, 3.0)
        if seat_layout.pond.riichi_at is None:
            continue
        # The seat's own frame: x to its right, y towards the centre (the centre at y = 0).
        x, y = turned_point(float(along), -STICK_FROM_CENTRE_MM + float(off), SEAT_TURN_DEG[seat])
        places.append(StickPlace(x, y, (SEAT_TURN_DEG[seat] + askew) % 360))
    return tuple(places)


def stick_outline_mm(place: StickPlace) -> np.ndarray:
    """The stick's top as four table points (mm)."""
    radians = np.deg2rad(place.angle)
    along = np.array([np.cos(radians), -np.sin(radians)])  # clockwise from +x in a y-up frame
    return rectangle_corners(np.array([place.x, place.y]), along, STICK_LENGTH_MM / 2, STICK_WIDTH_MM / 2)


def draw_riichi_sticks(image: np.ndarray, camera: Camera, layout: TableLayout, rng: np.random.Generator) -> None:
    """Every riichi stick of ``layout`` (:func:`riichi_stick_places` drawn from ``rng``)."""
    for place in riichi_stick_places(layout, rng):
        draw_riichi_stick(image, camera, place)


def draw_riichi_stick(image: np.ndarray, camera: Camera, place: StickPlace) -> None:
    """One stick as a flat white bar with its side, and the 1 000-point stick's red dot."""
    outline = stick_outline_mm(place)
    top = camera.project(np.hstack([outline, np.full((4, 1), STICK_THICKNESS_MM)]))
    base = camera.project(np.hstack([outline, np.zeros((4, 1))]))
    fill_polygon(image, np.vstack([top, base]), _SIDE)
    fill_polygon(image, top, _WHITE)
    dot = camera.project(np.array([[place.x, place.y, STICK_THICKNESS_MM]]))[0]
    radius = max(1, round(float(np.linalg.norm(top[1] - top[2])) * 0.3))
    cv2.circle(image, (round(float(dot[0])), round(float(dot[1]))), radius, _RED_DOT, -1, cv2.LINE_AA)
