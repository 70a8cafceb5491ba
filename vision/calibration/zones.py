"""Seat zones: where each seat's pond, melds, open hand and wall (with the dora indicators) lie.

Distances from the table's centre are the table's layout (an automatic table puts its dice
panel, walls and the players' edges where it does: ``SeatDistances``, defaults as the
renderer draws them); how deep and wide each zone is comes from the tile size. Zones are
polygons in top-down view pixels. Each seat's zones are laid out in the seat's own frame (x to
its right, y towards the centre, like ``vision.render.placement``) and turned into place.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibration.table import PhysicalTileSize, TableGeometry

#: Clockwise turn of each seat's frame from seat 0's (seat 1 sits on the right).
SEAT_TURN_DEG = (0.0, 270.0, 180.0, 90.0)
WALL_STACKS = 17  # a wall's length in tiles

Polygon = tuple[tuple[float, float], ...]


@dataclass(frozen=True, slots=True)
class SeatDistances:
    """Near edges (the edge nearest the owner) of each seat's things, mm from the table's centre."""

    pond_start_mm: float = 70.0  # the first pond row starts at the dice panel's edge
    wall_mm: float = 205.0
    hand_mm: float = 268.0
    meld_mm: float = 318.0
    meld_right_mm: float = 340.0  # melds are laid from the owner's right towards the left


STANDARD_DISTANCES = SeatDistances()


@dataclass(frozen=True, slots=True)
class SeatZones:
    seat: int
    pond: Polygon
    melds: Polygon
    open_hand: Polygon
    dora: Polygon  # the seat's wall: when the dead wall is here, its dora indicators and the ura row in front


def contains(polygon: Polygon | np.ndarray, point: tuple[float, float]) -> bool:
    """Whether ``point`` lies inside ``polygon`` or on its edge (a polygon's corners, or an N×2 array of them)."""
    contour = np.asarray(polygon, np.float32).reshape(-1, 1, 2)
    return bool(cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), measureDist=False) >= 0)


@dataclass(frozen=True, slots=True)
class ZoneBox:
    """A zone in its seat's own frame: x from ``left`` to ``right`` (mm, to the owner's right),
    ``near`` to ``far`` mm from the table's centre (``near`` is the edge nearer the centre)."""

    left: float
    right: float
    near: float
    far: float


@dataclass(frozen=True, slots=True)
class ZoneBoxes:
    pond: ZoneBox
    melds: ZoneBox
    open_hand: ZoneBox
    wall: ZoneBox


def zone_boxes(tile: PhysicalTileSize, distances: SeatDistances = STANDARD_DISTANCES) -> ZoneBoxes:
    """Every seat's zones in the seat's own frame (the same for each seat)."""
    w, h = tile.width_mm, tile.height_mm
    slack = 0.3 * w  # hands do not place tiles exactly
    # The pond ends, and the wall's zone begins, a slack past three rows: the ura indicators lie
    # in a row in front of the dead wall, between the pond's third row and the wall.
    pond_end = distances.pond_start_mm + 3 * h + slack
    pond = ZoneBox(-3 * w - slack, 3 * w + h + w, distances.pond_start_mm - slack, pond_end)
    # Four melds at most, each up to a kan with one tile turned: three widths and a height;
    # an added kan's tile lies sideways on the centre side of the turned one, two widths deep.
    meld_room = 4 * (3 * w + h)
    melds = ZoneBox(
        distances.meld_right_mm - meld_room,
        distances.meld_right_mm + slack,
        distances.meld_mm - 2 * w - slack / 2,
        distances.meld_mm + slack,
    )
    # The open hand, and the winning tile half a tile apart at its right.
    hand = ZoneBox(-7.5 * w - slack, 7.5 * w + h + slack, distances.hand_mm - h - slack, distances.hand_mm + slack)
    wall = ZoneBox(-WALL_STACKS / 2 * w - slack, WALL_STACKS / 2 * w + slack, pond_end, distances.wall_mm + slack)
    return ZoneBoxes(pond, melds, hand, wall)


def seat_zones(
    table: TableGeometry, tile: PhysicalTileSize, distances: SeatDistances = STANDARD_DISTANCES
) -> tuple[SeatZones, ...]:
    """Zones of seats 0-3 in top-down view pixels."""
    boxes = zone_boxes(tile, distances)
    return tuple(
        SeatZones(
            seat,
            _place(boxes.pond, seat, table),
            _place(boxes.melds, seat, table),
            _place(boxes.open_hand, seat, table),
            _place(boxes.wall, seat, table),
        )
        for seat in range(4)
    )


def _place(box: ZoneBox, seat: int, table: TableGeometry) -> Polygon:
    left, right, near, far = box.left, box.right, box.near, box.far
    # Towards the centre is +y in the seat's frame, so a distance d from the centre is y = -d.
    local = np.array([[left, -far], [right, -far], [right, -near], [left, -near]])
    radians = np.deg2rad(SEAT_TURN_DEG[seat])
    cos, sin = np.cos(radians), np.sin(radians)
    turned = np.stack([local[:, 0] * cos + local[:, 1] * sin, -local[:, 0] * sin + local[:, 1] * cos], axis=1)
    return tuple((float(x), float(y)) for x, y in table.to_view(turned))
