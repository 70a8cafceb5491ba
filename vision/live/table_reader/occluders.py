"""Something over the table: an arm, a hand or a sleeve, which hides the zones it covers.

Tiles never lie between a seat's wall and its hand, nor past its melds (the felt-only bands).
A blob of not-felt in the view that reaches there far enough, and ends there at an edge
(``outlines``: light on the felt fades out), is something over the table; every zone it covers
is reported occluded and left unread, rather than read short or wrong.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Final

import cv2
import numpy as np

from vision.calibration.table import PhysicalTileSize
from vision.calibration.zones import SeatDistances, ZoneBox, ZoneBoxes
from vision.live.reading import Zone
from vision.live.table_reader.outlines import outlined
from vision.live.table_reader.seat_tiles import PARALLAX
from vision.live.table_reader.seat_view import ViewGeometry, box_slices, seat_image

log = logging.getLogger(__name__)

_OCCLUDER_AREA: Final = 1.5  # tile faces' worth of not-felt where no tile lies, to call it an occluder


def _felt_only_bands(tile: PhysicalTileSize, distances: SeatDistances) -> tuple[ZoneBox, ...]:
    """Where no tile of any seat lies, in a seat's frame: between its wall and hand, past its melds."""
    w, h = tile.width_mm, tile.height_mm
    wall_out = distances.wall_mm * (1 + PARALLAX) + 0.3 * w
    hand_in = (distances.hand_mm - h) * (1 - PARALLAX) - 0.3 * w
    melds_out = distances.meld_mm * (1 + PARALLAX) + 0.5 * w
    return (
        ZoneBox(-8 * w, 8 * w, wall_out, hand_in),
        ZoneBox(-12 * w, 12 * w, melds_out, melds_out + 1.2 * w),
    )


def occluder_labels(
    mask: np.ndarray, image: np.ndarray, view: ViewGeometry, tile: PhysicalTileSize, distances: SeatDistances
) -> np.ndarray:
    """The view's blobs that reach into a felt-only band and end there at an edge (``outlines``:
    light on the felt fades out): 0 for none, else the blob's label. ``image``: the view."""
    face_area = tile.width_mm * tile.height_mm * view.px_per_mm**2
    # Most frames show no blob there: then no blob can reach in far enough, and the view's blobs need no labels.
    in_bands = sum(cv2.countNonZero(np.ascontiguousarray(part)) for part in _in_bands(mask, view, tile, distances))
    if in_bands <= _OCCLUDER_AREA * face_area:
        return np.zeros_like(mask, np.int32)
    count, labels = cv2.connectedComponents(mask, connectivity=8)
    if count <= 1:
        return np.zeros_like(mask, np.int32)
    hits = np.zeros(count, np.int64)
    for part in _in_bands(labels, view, tile, distances):
        hits += np.bincount(part.ravel(), minlength=count)
    hits[0] = 0
    occluders = np.flatnonzero(hits > _OCCLUDER_AREA * face_area)
    if len(occluders):
        parts = zip(_in_bands(labels, view, tile, distances), _in_bands(image, view, tile, distances), strict=True)
        occluders = outlined(occluders, parts, count)
    if len(occluders) == 0:
        return np.zeros_like(mask, np.int32)
    log.debug("occluders: %d blobs reach where no tile lies", len(occluders))
    return np.where(np.isin(labels, occluders), labels, 0).astype(np.int32)


def _in_bands(
    image: np.ndarray, view: ViewGeometry, tile: PhysicalTileSize, distances: SeatDistances
) -> Iterator[np.ndarray]:
    """The parts of a view image (the tile mask, its blobs' labels) in every seat's felt-only bands."""
    bands = [box_slices(view, band) for band in _felt_only_bands(tile, distances)]
    for seat in range(4):
        seat_part = seat_image(image, view, seat)
        for columns, lines in bands:
            yield seat_part[lines, columns]


def occluded_zones(
    occluders: np.ndarray, seat: int, view: ViewGeometry, boxes: ZoneBoxes, tile: PhysicalTileSize
) -> frozenset[Zone]:
    """The zones of ``seat`` that ``occluders`` (``occluder_labels``: labelled blobs, 0 none)
    cover by more than ``_OCCLUDER_AREA`` faces."""
    if not occluders.any():
        return frozenset()
    seat_labels = seat_image(occluders, view, seat)
    face_area = tile.width_mm * tile.height_mm * view.px_per_mm**2
    zones = set()
    for zone, name in ((Zone.POND, "pond"), (Zone.MELDS, "melds"), (Zone.HAND, "open_hand"), (Zone.WALL, "wall")):
        columns, lines = box_slices(view, getattr(boxes, name))
        if np.count_nonzero(seat_labels[lines, columns]) > _OCCLUDER_AREA * face_area:
            zones.add(zone)
    return frozenset(zones)
