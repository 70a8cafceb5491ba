"""``TableReader``: one calibrated frame → a ``TableReading``.

The frame is warped once to a square top-down view; each seat's part of it is turned upright
(a quarter turn of the array, no copy), where its zones' rows are found and cut into tiles
(``seat_tiles``). Every tile's face is cut from the *frame* through the calibration, as the
classifier's training crops were, and all crops of the frame go to the classifier in one
batch. ``structure`` then orders ponds, groups melds and sets the winning tile apart.

Occlusion: tiles never lie between a seat's wall and its hand, nor past its melds; something
not felt there is an arm or a hand over the table, and every zone that the same blob reaches is
reported occluded (its content left out) rather than read short.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Final

import cv2
import numpy as np

from vision.calibration.calibration import Calibration
from vision.calibration.markers import TABLE_MARKER_MM
from vision.calibration.table import STANDARD_TABLE, STANDARD_TILE, PhysicalTileSize, TableGeometry
from vision.calibration.zones import STANDARD_DISTANCES, SeatDistances, ZoneBox, ZoneBoxes, zone_boxes
from vision.classify.classifier import OnnxTileClassifier, TileReading
from vision.classify.crops import crop_tile
from vision.live.reading import SeenTile, TableReading, Zone
from vision.live.table_reader.rows import Piece, SeatImage
from vision.live.table_reader.seat_tiles import PARALLAX, ZoneTile, find_seat_tiles
from vision.live.table_reader.seat_view import ViewGeometry, seat_image, view_geometry, warp_view
from vision.live.table_reader.structure import ReadTile, seat_reading, surest_melds, wall_reading
from vision.live.table_reader.tile_mask import view_mask
from vision.sources.frame import CameraFrame

log = logging.getLogger(__name__)

_OCCLUDER_AREA: Final = 1.5  # tile faces' worth of not-felt where no tile lies, to call it an occluder
_UNSURE_POND: Final = 0.5  # a pond face read less surely than this is also tried the other way
_SURER: Final = 2.0  # ... and turned if the classifier is this many times surer of that
_NUDGES: Final = (-1 / 3, -1 / 6, 1 / 6, 1 / 3)  # an uncertain face is also cut moved this much of its width
_MARKER_SLACK_MM: Final = 2.0  # a marker's square is ignored this much wider: the calibration's error, blur


@dataclass(frozen=True, eq=False)
class PlacedReading:
    quad: np.ndarray  # 4×2 frame pixels, face order
    reading: TileReading
    sideways: bool


@dataclass(frozen=True, slots=True)
class _SeatFind:
    seat: int
    tiles: tuple[ZoneTile, ...]
    occluded: frozenset[Zone]


class TableReader:
    """Reads frames of one calibrated camera; cheap to call per frame, safe to reuse."""

    def __init__(
        self,
        calibration: Calibration,
        classifier: OnnxTileClassifier,
        tile: PhysicalTileSize = STANDARD_TILE,
        geometry: TableGeometry = STANDARD_TABLE,
        distances: SeatDistances = STANDARD_DISTANCES,
        *,
        marker_mm: float = TABLE_MARKER_MM,
    ) -> None:
        self.calibration = calibration
        self.classifier = classifier
        self.tile = tile
        self.distances = distances
        self.view = view_geometry(calibration, geometry.px_per_mm)
        self.boxes = zone_boxes(tile, distances)
        self._seat_to_frame = tuple(self.view.seat_to_frame(seat) for seat in range(4))
        self._unseen = _unseen(calibration, self.view)
        # The corner markers are not tiles: their squares are left out of the tile mask. They
        # touch the melds at the table's corners, where a marker taken for a tile lengthens a
        # meld or moves the row's outer edge.
        reach = distances.meld_mm * (1 + PARALLAX) + _MARKER_SLACK_MM
        self._not_tile = self._unseen | _marker_squares(calibration, self.view, marker_mm, reach)
        self._out_of_frame = tuple(
            _occluded_zones(self._unseen.astype(np.int32), seat, self.view, self.boxes, tile) for seat in range(4)
        )

    def read(self, frame: CameraFrame) -> TableReading:
        return self.read_image(frame.image, frame.timestamp)

    def read_image(self, image: np.ndarray, at: float = 0.0) -> TableReading:
        """The reading of a BGR uint8 frame of the calibration's size (``ValueError`` otherwise)."""
        finds = self._find(image)
        return self._assemble(finds, self._classify(image, finds), at)

    def placed_tiles(self, image: np.ndarray) -> list[PlacedReading]:
        """Every tile the reading is made of, where its crop was cut in the frame (a meld's
        tiles as the surest way of laying it out has them): for the benchmark and debugging."""
        finds = self._find(image)
        readings = self._classify(image, finds)
        placed = []
        position = 0
        for find in finds:
            # By position, as _assemble takes them: a tile re-cut (turned, nudged) is a new object.
            seat_readings = readings[position : position + len(find.tiles)]
            position += len(find.tiles)
            chosen = {id(r) for r in surest_melds(seat_readings)}
            to_frame = self._seat_to_frame[find.seat]
            for read in seat_readings:
                if read.found.zone != Zone.MELDS or id(read) in chosen:
                    placed.append(
                        PlacedReading(_frame_quad(read.found, to_frame), read.reading, read.found.piece.sideways)
                    )
        return placed

    def _find(self, image: np.ndarray) -> list[_SeatFind]:
        if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise ValueError(f"table reader: expected a BGR uint8 frame, got shape {image.shape} dtype {image.dtype}")
        height, width = image.shape[:2]
        if (width, height) != self.calibration.image_size:
            raise ValueError(
                f"table reader: frame is {width}×{height}, "
                f"but the calibration was made for {self.calibration.image_size}"
            )
        view = warp_view(image, self.view)
        masks = view_mask(view, 0.3 * self.tile.width_mm * self.tile.height_mm * self.view.px_per_mm**2)
        # What the camera does not see is neither tile nor felt: no tiles there, and its zones are unseen.
        masks.tiles[self._not_tile] = 0
        masks.raw[self._not_tile] = 0
        occluders = _occluder_labels(masks.tiles, self.view, self.tile, self.distances)
        finds = []
        for seat in range(4):
            seat_mask = seat_image(masks.tiles, self.view, seat)
            found = find_seat_tiles(
                SeatImage(
                    seat_mask,
                    seat_image(masks.gray, self.view, seat),
                    seat_image(masks.raw, self.view, seat),
                ),
                self.view,
                self.boxes,
                self.tile,
                self.distances,
            )
            occluded = _occluded_zones(occluders, seat, self.view, self.boxes, self.tile) | self._out_of_frame[seat]
            finds.append(_SeatFind(seat, tuple(found), occluded))
        return finds

    def _classify(self, image: np.ndarray, finds: list[_SeatFind]) -> list[ReadTile]:
        quads = []
        for find in finds:
            to_frame = self._seat_to_frame[find.seat]
            for tile in find.tiles:
                quads.append(_frame_quad(tile, to_frame))
        if not quads:
            return []
        crops = np.stack([crop_tile(image, quad) for quad in quads])
        readings = self.classifier.classify(crops)
        found = [tile for find in finds for tile in find.tiles]
        seats = [find.seat for find in finds for _ in find.tiles]
        tiles = self._turned_if_surer(image, seats, [ReadTile(t, r) for t, r in zip(found, readings, strict=True)])
        return self._nudged_if_surer(image, seats, tiles)

    def _turned_if_surer(self, image: np.ndarray, seats: list[int], tiles: list[ReadTile]) -> list[ReadTile]:
        """A pond face the classifier is unsure of may have been cut the wrong way (a riichi tile
        alone in its row, where the rows' spacing misplaces its band): its other way is classified
        too, and kept if the classifier is much surer of it."""
        width = self.tile.width_mm * self.view.px_per_mm
        height = self.tile.height_mm * self.view.px_per_mm
        unsure = [i for i, t in enumerate(tiles) if t.found.zone == Zone.POND and t.reading.confidence < _UNSURE_POND]
        if not unsure:
            return tiles
        others: list[tuple[int, ZoneTile]] = []
        for i in unsure:
            piece = tiles[i].found.piece
            middle = piece.centre_u
            if piece.sideways:
                turned = [Piece(middle - width / 2, middle + width / 2, piece.top, piece.top + height, False)]
            else:
                # Against the row's centre side, or its outer side (where the band was misplaced).
                turned = [
                    Piece(middle - height / 2, middle + height / 2, top, top + width, True)
                    for top in (piece.top, piece.bottom - width)
                ]
            others += [(i, replace(tiles[i].found, piece=other)) for other in turned]
        readings = self._read_placed(image, seats, others)
        result = list(tiles)
        for (i, tile), reading in zip(others, readings, strict=True):
            if reading.confidence > max(_SURER * result[i].reading.confidence, _UNSURE_POND):
                result[i] = ReadTile(tile, reading)
        return result

    def _nudged_if_surer(self, image: np.ndarray, seats: list[int], tiles: list[ReadTile]) -> list[ReadTile]:
        """A face read as uncertain may be cut a little out of phase with its row (a seam
        placed off by a side's width, an open hand seen from low): it is also cut moved along
        its row by a sixth and a third of its width each way, and the surest cut kept when it
        is no longer uncertain. (The classifier is trained to call a crop half on another
        tile uncertain, so a shift onto the neighbour does not read surely.)"""
        unsure = [i for i, t in enumerate(tiles) if t.reading.uncertain]
        if not unsure:
            return tiles
        others: list[tuple[int, ZoneTile]] = []
        for i in unsure:
            piece = tiles[i].found.piece
            length = piece.right - piece.left
            for shift in _NUDGES:
                moved = replace(piece, left=piece.left + shift * length, right=piece.right + shift * length)
                others.append((i, replace(tiles[i].found, piece=moved)))
        readings = self._read_placed(image, seats, others)
        result = list(tiles)
        for (i, tile), reading in zip(others, readings, strict=True):
            if not reading.uncertain and reading.confidence > result[i].reading.confidence:
                result[i] = ReadTile(tile, reading)
        return result

    def _read_placed(
        self, image: np.ndarray, seats: list[int], others: list[tuple[int, ZoneTile]]
    ) -> tuple[TileReading, ...]:
        """The classifier's readings of other placements of tiles (``(index, placement)``;
        ``seats[index]`` is the seat whose view the placement is in), cut from the frame."""
        quads = [_frame_quad(tile, self._seat_to_frame[seats[i]]) for i, tile in others]
        return self.classifier.classify(np.stack([crop_tile(image, quad) for quad in quads]))

    def _assemble(self, finds: list[_SeatFind], readings: list[ReadTile], at: float) -> TableReading:
        width = self.tile.width_mm * self.view.px_per_mm
        by_seat: list[list[ReadTile]] = [[] for _ in range(4)]
        position = 0
        for find in finds:
            by_seat[find.seat] = readings[position : position + len(find.tiles)]
            position += len(find.tiles)
        seats = [seat_reading(by_seat[f.seat], width, f.occluded) for f in finds]
        walls = [wall_reading(by_seat[f.seat]) if Zone.WALL not in f.occluded else None for f in finds]
        dora: tuple[SeenTile, ...] = ()
        ura: tuple[SeenTile, ...] = ()
        # The dead wall is the wall that shows face-up tiles (the one with most, should two).
        candidates = [w for w in walls if w is not None and w.face_up]
        if candidates:
            dead_wall = max(candidates, key=lambda w: len(w.face_up))
            dora, ura = dead_wall.face_up, dead_wall.ura
        dora_occluded = not dora and any(w is None for w in walls)
        return TableReading(at, (seats[0], seats[1], seats[2], seats[3]), dora, ura, dora_occluded)


def _frame_quad(tile: ZoneTile, seat_to_frame: np.ndarray) -> np.ndarray:
    piece = tile.piece
    left, right, top, bottom = piece.left - 0.5, piece.right - 0.5, piece.top - 0.5, piece.bottom - 0.5
    if piece.sideways:
        # Face order with the face's top to the left: its top-left corner is the image's bottom-left.
        corners = [(left, bottom), (left, top), (right, top), (right, bottom)]
    else:
        corners = [(left, top), (right, top), (right, bottom), (left, bottom)]
    points = np.asarray(corners, np.float64).reshape(-1, 1, 2)
    return np.asarray(cv2.perspectiveTransform(points, seat_to_frame).reshape(4, 2))


def _unseen(calibration: Calibration, view: ViewGeometry) -> np.ndarray:
    """Bool view mask of what lies outside the camera's frame (and, past it, in a replicated border)."""
    width, height = calibration.image_size
    frame = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]], np.float64)
    outline = cv2.perspectiveTransform(frame.reshape(-1, 1, 2), view.frame_to_view).reshape(-1, 2)
    seen = np.zeros((view.side_px, view.side_px), np.uint8)
    cv2.fillConvexPoly(seen, np.round(outline * 4).astype(np.int32), 1, shift=2)
    return np.asarray(cv2.erode(seen, np.ones((5, 5), np.uint8)) == 0)


def _marker_squares(calibration: Calibration, view: ViewGeometry, marker_mm: float, reach_mm: float) -> np.ndarray:
    """Bool view mask of the corner markers' squares, centred on the calibration rectangle's
    corners, less their part within ``reach_mm`` of the centre lines: there a corner meld's
    top (seen further out than its footprint) covers the marker, and is tile."""
    table = calibration.table
    half = marker_mm / 2 + _MARKER_SLACK_MM
    squares = np.zeros((view.side_px, view.side_px), np.uint8)
    for x in (-table.width_mm / 2, table.width_mm / 2):
        for y in (-table.depth_mm / 2, table.depth_mm / 2):
            centre = np.array([x, y])
            near = np.maximum(np.abs(centre) - half, reach_mm)
            far = np.abs(centre) + half
            low = np.where(centre < 0, -far, near)
            high = np.where(centre < 0, -near, far)
            start = np.floor((low + view.half_mm) * view.px_per_mm).astype(int)
            stop = np.ceil((high + view.half_mm) * view.px_per_mm).astype(int)
            squares[max(start[1], 0) : max(stop[1], 0), max(start[0], 0) : max(stop[0], 0)] = 1
    return squares.astype(bool)


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


def _occluder_labels(
    mask: np.ndarray, view: ViewGeometry, tile: PhysicalTileSize, distances: SeatDistances
) -> np.ndarray:
    """The view's blobs that reach into a felt-only band: 0 for none, else the blob's label."""
    count, labels = cv2.connectedComponents(mask, connectivity=8)
    if count <= 1:
        return np.zeros_like(mask, np.int32)
    face_area = tile.width_mm * tile.height_mm * view.px_per_mm**2
    hits = np.zeros(count, np.int64)
    for seat in range(4):
        seat_labels = seat_image(labels, view, seat)
        for band in _felt_only_bands(tile, distances):
            columns, lines = _box_slices(view, band)
            hits += np.bincount(seat_labels[lines, columns].ravel(), minlength=count)
    hits[0] = 0
    occluders = np.flatnonzero(hits > _OCCLUDER_AREA * face_area)
    if len(occluders) == 0:
        return np.zeros_like(mask, np.int32)
    log.debug("occluders: %d blobs reach where no tile lies", len(occluders))
    return np.where(np.isin(labels, occluders), labels, 0).astype(np.int32)


def _occluded_zones(
    occluders: np.ndarray, seat: int, view: ViewGeometry, boxes: ZoneBoxes, tile: PhysicalTileSize
) -> frozenset[Zone]:
    if not occluders.any():
        return frozenset()
    seat_labels = seat_image(occluders, view, seat)
    face_area = tile.width_mm * tile.height_mm * view.px_per_mm**2
    zones = set()
    for zone, name in ((Zone.POND, "pond"), (Zone.MELDS, "melds"), (Zone.HAND, "open_hand"), (Zone.WALL, "wall")):
        columns, lines = _box_slices(view, getattr(boxes, name))
        if np.count_nonzero(seat_labels[lines, columns]) > _OCCLUDER_AREA * face_area:
            zones.add(zone)
    return frozenset(zones)


def _box_slices(view: ViewGeometry, box: ZoneBox) -> tuple[slice, slice]:
    u0, v0 = view.seat_px(np.array(box.left), np.array(box.near))
    u1, v1 = view.seat_px(np.array(box.right), np.array(box.far))
    limit = view.side_px
    return (
        slice(max(round(float(u0)), 0), min(round(float(u1)), limit)),
        slice(max(round(float(v0)), 0), min(round(float(v1)), limit)),
    )
