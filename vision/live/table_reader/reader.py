"""``TableReader``: one calibrated frame → a ``TableReading``.

Tiles are found and read as ``jantaku vision detect`` finds and reads them: the learnt
detector looks at the frame once, at the scale the calibration gives a face (its peak
threshold a little lower than on photos: a find outside every zone is dropped anyway), the
tile verifier drops what is no face, the sideways judge settles which finds lie across their
rows, each seat's row axis known from the calibration (``known_axes``), and the classifier
reads each face both ways and a quarter turned (``vision.detect.still_photo.read_found``).

The detector misses about one tile of a table's hundred, and a pond one tile short is wrong:
so where the felt mask says a zone holds tile that no find covers, faces are cut there
(``gaps``) and read with the finds. Each read tile's centre, taken through the calibration to
its seat's upright image, says its zone; ``seat_tiles`` puts it in its row and meld, and
``structure`` orders ponds, groups melds and sets the winning tile apart.

Occlusion: tiles never lie between a seat's wall and its hand, nor past its melds; something
not felt there is an arm or a hand over the table, and every zone that the same blob reaches is
reported occluded (its content left out) rather than read short (``occluders``).
"""

from __future__ import annotations

import logging
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from vision.calibration.calibration import Calibration
from vision.calibration.markers import TABLE_MARKER_MM
from vision.calibration.table import STANDARD_TABLE, STANDARD_TILE, PhysicalTileSize, TableGeometry
from vision.calibration.zones import STANDARD_DISTANCES, SeatDistances, contains, zone_boxes
from vision.classify.classifier import OnnxTileClassifier, TileReading
from vision.classify.frame_readings import FrameReadings
from vision.classify.labels import WHITE_DRAGON_LABEL
from vision.detect.sideways_judge import long_axis_degrees
from vision.detect.still_photo import Detection, SidewaysJudge, read_found, shipped_judge
from vision.find.finder import FoundTile
from vision.find.learnt import DEFAULT_DETECTOR, LearntTileFinder
from vision.geometry import centre, centres
from vision.live.light_meter import LightMeter
from vision.live.reading import SeenTile, TableReading, Zone
from vision.live.table_reader.frame_regions import (
    MARKER_SLACK_MM,
    apply_all,
    frame_tile_height,
    marker_squares,
    reaching_out,
    unseen_mask,
    zones_region,
)
from vision.live.table_reader.gaps import GapSearch, face_level, gap_faces
from vision.live.table_reader.occluders import occluded_zones, occluder_labels
from vision.live.table_reader.one_turned import one_turned_each
from vision.live.table_reader.row_fitting import SeatRows
from vision.live.table_reader.seat_tiles import (
    ADDED_IN,
    PARALLAX,
    FaceScale,
    Piece,
    arrange,
    centred_piece,
    face_scale,
    frame_quad,
    frame_quads,
    group_melds,
    wall_row_line,
    zone_box_items,
)
from vision.live.table_reader.seat_view import (
    box_slices,
    seat_image,
    view_geometry,
    view_rect,
    warp_view,
)
from vision.live.table_reader.set_checks import checked_against_the_set
from vision.live.table_reader.structure import ReadTile, SeatFind, seat_reading, wall_reading
from vision.live.table_reader.tile_mask import ViewMask, view_mask
from vision.sources.frame import CameraFrame

log = logging.getLogger(__name__)

#: The detector's peak threshold here (its own, chosen by its recipe on renders, is 0.4): a find
#: outside the seats' zones is dropped, so the table can afford more of the faint peaks of blurred faces.
PEAK_THRESHOLD: Final = 0.2
_ON_TILE: Final = 0.4  # a find whose face the felt mask shows as tile less than this is felt, not a tile
_FOUND_MARGIN_MM: Final = 2.0  # a find covers this much felt mask past its box (blur, the box's error)
#: Two read tiles whose faces share this much of the smaller one are one (the detector can
#: fire twice on a sideways face); the surer reading stays. Two that read the same share
#: less: a face placed a quarter off its neighbour (a sideways one's centre is the least
#: sure) overlaps it by that much and is still its own tile.
_SAME_TILE: Final = 0.5
_SAME_TILE_SAME_READING: Final = 0.35
_ACROSS_TWO: Final = 0.25
#: Two sideways faces of a meld zone whose centres lie this many face widths apart across the
#: row or more are an added tile and its turned tile (``_stacked``), not one face found twice.
_STACKED_APART: Final = 0.4
#: The detector looks this many face lengths past the seats' zones (``find_in``): what its
#: network sees around a face reaches that far. At 4 the finds in the zones of 12 bench tables
#: were the whole frame's to a thousandth of a pixel; at 2 some moved by 0.4 px, and the
#: readings of a few tables changed with them.
_DETECTOR_MARGIN: Final = 4.0
#: No tile lies sideways in these zones' rows (a riichi discard lies in the pond, a called
#: tile in the melds): their finds are cut upright along the row, and the sideways judge has
#: nothing to settle there (it called all 1 480 finds of 30 bench reads there upright, rightly).
_UPRIGHT_ZONES: Final = frozenset({Zone.HAND, Zone.WALL})
_MOST_ROWS: Final = {Zone.POND: 3, Zone.WALL: 2, Zone.HAND: 1, Zone.MELDS: 2}


@dataclass(frozen=True, eq=False)
class PlacedReading:
    quad: np.ndarray  # 4×2 frame pixels, face order
    reading: TileReading
    sideways: bool


@dataclass(frozen=True, eq=False)
class _Find:
    """A face to read, the seat whose zone it lies in."""

    seat: int
    tile: FoundTile
    lie_known: bool = False  # cut upright along its row, where no tile lies sideways (``_UPRIGHT_ZONES``)
    dark: bool = False  # a gap's face darker than the found faces (``gaps``): kept only if read with marks


class TableReader:
    """Reads frames of one calibrated camera; cheap to call per frame, safe to reuse (with a
    light meter, frames of one table in their order: the meter learns its light)."""

    def __init__(
        self,
        calibration: Calibration,
        classifier: OnnxTileClassifier,
        tile: PhysicalTileSize = STANDARD_TILE,
        geometry: TableGeometry = STANDARD_TABLE,
        distances: SeatDistances = STANDARD_DISTANCES,
        *,
        marker_mm: float = TABLE_MARKER_MM,
        detector: Path = DEFAULT_DETECTOR,
        judge: SidewaysJudge | None = None,
        light: LightMeter | None = None,
    ) -> None:
        self.calibration = calibration
        # A light meter makes the reader follow the light over its table from frame to frame
        # (``vision.live.light_meter``); without one each frame is read as it comes.
        self.light = light
        self.classifier = classifier
        self.tile = tile
        self.distances = distances
        self.view = view_geometry(calibration, geometry.px_per_mm)
        self.boxes = zone_boxes(tile, distances)
        self.scale = face_scale(tile, self.view.px_per_mm)
        self._seat_to_frame = tuple(self.view.seat_to_frame(seat) for seat in range(4))
        self._frame_to_seat = tuple(np.linalg.inv(m) for m in self._seat_to_frame)
        self._rows = tuple(
            SeatRows(to_frame, self.scale, self.view.half_mm * self.view.px_per_mm) for to_frame in self._seat_to_frame
        )
        _, self._wall_row_v = self.view.seat_px(np.array(0.0), np.array(wall_row_line(distances, tile)))
        tile_height = frame_tile_height(self.view, self._seat_to_frame, tile)
        self.finder = LearntTileFinder(detector, threshold=PEAK_THRESHOLD, tile_height=tile_height)
        # The detector looks only where a find can be kept: the seats' zones, and the margin
        # its network needs to see a face at a zone's edge as it would in the whole frame.
        self._detector_region = zones_region(
            self.view, self._seat_to_frame, self.boxes, _DETECTOR_MARGIN * tile_height, calibration.image_size
        )
        self.judge = judge or shipped_judge()
        self._unseen = unseen_mask(calibration, self.view)
        # The corner markers are not tiles: their squares are left out of the tile mask. They
        # touch the melds at the table's corners, where a marker taken for a tile lengthens a meld.
        reach = distances.meld_mm * (1 + PARALLAX) + MARKER_SLACK_MM
        self._not_tile = self._unseen | marker_squares(calibration, self.view, marker_mm, reach)
        self._may_be_tile = (~self._not_tile).astype(np.uint8)  # 0 where no tile can be, 1 elsewhere
        self._out_of_frame = tuple(
            occluded_zones(self._unseen.astype(np.int32), seat, self.view, self.boxes, tile) for seat in range(4)
        )

    def read(self, frame: CameraFrame) -> TableReading:
        return self.read_image(frame.image, frame.timestamp)

    def read_image(self, image: np.ndarray, at: float = 0.0) -> TableReading:
        """The reading of a BGR uint8 frame of the calibration's size (``ValueError`` otherwise);
        with a light meter, the frame set right first and the meter moved by what it shows."""
        self._check_frame(image)
        if self.light is None:
            return self._assemble(checked_against_the_set(self._read_tiles(image), self.scale.width), at)
        image = self.light.set_right(image)
        finds = checked_against_the_set(self._read_tiles(image), self.scale.width)
        faces = [Detection(t.quad, t.reading, t.found.piece.sideways) for find in finds for t in find.tiles]
        self.light.update(image, faces)
        return self._assemble(finds, at)

    def placed_tiles(self, image: np.ndarray) -> list[PlacedReading]:
        """Every tile the reading is made of, where its crop was cut in the frame (set right by
        the light meter as it stands, which this does not move): for the benchmark and debugging."""
        self._check_frame(image)
        if self.light is not None:
            image = self.light.set_right(image)
        return [
            PlacedReading(tile.quad, tile.reading, tile.found.piece.sideways)
            for find in checked_against_the_set(self._read_tiles(image), self.scale.width)
            for tile in find.tiles
        ]

    def _check_frame(self, image: np.ndarray) -> None:
        if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise ValueError(f"table reader: expected a BGR uint8 frame, got shape {image.shape} dtype {image.dtype}")
        height, width = image.shape[:2]
        if (width, height) != self.calibration.image_size:
            raise ValueError(
                f"table reader: frame is {width}×{height}, "
                f"but the calibration was made for {self.calibration.image_size}"
            )

    def _read_tiles(self, image: np.ndarray) -> list[SeatFind]:
        view = warp_view(image, self.view)
        masks = view_mask(view, 0.3 * self.tile.width_mm * self.tile.height_mm * self.view.px_per_mm**2)
        # What the camera does not see is neither tile nor felt: no tiles there, and its zones are unseen.
        np.multiply(masks.tiles, self._may_be_tile, out=masks.tiles)
        occluders = occluder_labels(masks.tiles, view, self.view, self.tile, self.distances)
        any_occluder = bool(occluders.any())  # most frames have none: the seats' zones need no look then
        # Every crop of this frame is read once: the gaps' pass cuts most faces again.
        reads = FrameReadings(self.classifier, image)
        finds = self._on_tile(masks, self._in_zones(self.finder.find_in(image, self._detector_region).tiles))
        read = self._read_finds(image, reads, finds)
        fitted = self._fitted(image, reads, masks, read)
        # Where tile shows that no fitted face covers, the detector missed a face: cut one there.
        gaps = self._gaps(view, masks, occluders if any_occluder else None, fitted)
        if gaps:
            # Every fitted face goes again, also a meld's tile that no meld took for want of
            # the face a gap now gives it (a closed kan's back beside a missed face).
            again = [Detection(t.quad, t.reading, t.found.piece.sideways) for tiles in fitted for t in tiles]
            read_gaps = _marked_if_dark(self._read_finds(image, reads, gaps), gaps)
            fitted = self._fitted(image, reads, masks, again + read_gaps)
        placed = [
            one_turned_each(image, reads, _melds_grouped(tiles, self.scale), self.scale, self._seat_to_frame[seat])
            for seat, tiles in enumerate(fitted)
        ]
        result = []
        for seat in range(4):
            occluded = self._out_of_frame[seat]
            if any_occluder:
                occluded = occluded_zones(occluders, seat, self.view, self.boxes, self.tile) | occluded
            result.append(SeatFind(seat, tuple(placed[seat]), occluded))
        return result

    def _read_finds(self, image: np.ndarray, reads: FrameReadings, finds: list[_Find]) -> list[Detection]:
        """Finds judged (each with its seat's row axis), settled and read, as ``vision detect`` does."""
        axes = self._row_axes_of([find.seat for find in finds], [find.tile.corners for find in finds])
        known = [find.lie_known for find in finds]
        return list(read_found(image, reads, [find.tile for find in finds], self.judge, row_axes=axes, lie_known=known))

    def _fitted(
        self, image: np.ndarray, reads: FrameReadings, masks: ViewMask, detections: Sequence[Detection]
    ) -> list[list[ReadTile]]:
        """Read tiles in their seats' zones and rows, the rows fitted to the felt mask (not yet
        grouped into melds). What the fitting reads is read for all four seats at once: the
        rows' ways, then the nudges of the faces still uncertain."""
        by_seat = self._by_seat(detections)
        rows = self._rows
        plans = [rows[seat].planned(seat_image(masks.tiles, self.view, seat), by_seat[seat]) for seat in range(4)]
        reads.read_ahead([quad for seat, plan in enumerate(plans) for quad in rows[seat].quads(plan.faces())])
        fitted = [rows[seat].fitted(image, reads, plans[seat]) for seat in range(4)]
        nudges = [rows[seat].nudges(fitted[seat]) for seat in range(4)]
        reads.read_ahead([quad for seat in range(4) for quad in rows[seat].quads([face for _, face in nudges[seat]])])
        return [rows[seat].nudged(image, reads, fitted[seat], nudges[seat]) for seat in range(4)]

    def _located(self, points: np.ndarray) -> list[tuple[int, Zone, float, float] | None]:
        """The seat and zone each of N frame points (N×2) lies in, and its seat-image pixel (u,
        v); None off every zone. A point lies in the first seat's zone whose box holds it; all
        at once, as a table's finds are located a few hundred times a frame. (A face's top is
        seen a little further out than its footprint, but its centre stays well inside its
        zone: the ura row's centres lie a few mm past the pond's far edge, and must not be
        taken for a pond row.)"""
        places: list[tuple[int, Zone, float, float] | None] = [None] * len(points)
        if not len(points):
            return places
        px_per_mm, half_mm = self.view.px_per_mm, self.view.half_mm
        unplaced = np.ones(len(points), bool)
        for seat in range(4):
            u, v = apply_all(self._frame_to_seat[seat], points)
            x_mm, distance_mm = u / px_per_mm - half_mm, v / px_per_mm - half_mm
            for zone, box in zone_box_items(self.boxes):
                inside = (box.left <= x_mm) & (x_mm <= box.right) & (box.near <= distance_mm) & (distance_mm <= box.far)
                inside &= unplaced
                for index in np.flatnonzero(inside).tolist():
                    places[index] = (seat, zone, float(u[index]), float(v[index]))
                unplaced &= ~inside
        return places

    def _in_zones(self, found: Sequence[FoundTile]) -> list[_Find]:
        """The finds that lie in a seat's zone, in the camera's view, each re-cut as a face of
        the table's tile size along its seat's rows through the calibration (the detector's
        box is looser than that: its shape and turn are a guess, the calibration's are not)."""
        if not found:
            return []
        side = self.view.side_px
        middles = centres([tile.corners for tile in found]).astype(np.float64)
        view_x, view_y = apply_all(self.view.frame_to_view, middles)
        placed = [
            (tile, located)
            for tile, located, x, y in zip(found, self._located(middles), view_x.tolist(), view_y.tolist(), strict=True)
            if located is not None and not (0 <= x < side and 0 <= y < side and self._unseen[int(y), int(x)])
        ]
        axes = self._row_axes_at([seat for _, (seat, *_) in placed], np.array([(u, v) for _, (_, _, u, v) in placed]))
        seats = [seat for _, (seat, *_) in placed]
        uprights = [zone in _UPRIGHT_ZONES for _, (_, zone, _, _) in placed]
        faces = [
            centred_piece(u, v, not upright and _lies_across(tile, axis), self.scale)
            for (tile, (_, _, u, v)), axis, upright in zip(placed, axes, uprights, strict=True)
        ]
        quads = self._frame_quads(seats, faces)
        return [
            _Find(seat, FoundTile(quad, face.sideways), lie_known=upright)
            for seat, face, quad, upright in zip(seats, faces, quads, uprights, strict=True)
        ]

    def _frame_quads(self, seats: Sequence[int], faces: Sequence[Piece]) -> list[np.ndarray]:
        """Each face's quad in the frame (``seat_tiles.frame_quads``) from its seat's image, a
        call a seat."""
        quads: list[np.ndarray] = [np.empty(0)] * len(faces)
        for seat in set(seats):
            here = [i for i, s in enumerate(seats) if s == seat]
            for i, quad in zip(here, frame_quads([faces[i] for i in here], self._seat_to_frame[seat]), strict=True):
                quads[i] = quad
        return quads

    def _on_tile(self, masks: ViewMask, finds: list[_Find]) -> list[_Find]:
        """The finds whose face the felt mask shows as tile, at least ``_ON_TILE`` of it: the
        detector may fire on bare felt where a row would go on (a pond's next place); the mask
        knows felt, and a face of felt is no tile."""
        if not finds:
            return []
        kept = []
        height, width = masks.tiles.shape
        quads = self._view_quads([find.tile.corners for find in finds])
        # Every find's box in the view, and its outline from the box's corner, all at once.
        lows = np.maximum(np.floor(quads.min(axis=1)).astype(int), 0)
        highs = np.minimum(np.ceil(quads.max(axis=1)).astype(int) + 1, (width, height))
        outlines = _outlines(quads - lows[:, None, :])
        for find, (x0, y0), (x1, y1), outline in zip(finds, lows.tolist(), highs.tolist(), outlines, strict=True):
            if x1 <= x0 or y1 <= y0:
                continue  # off the view: no tile of the mask's
            face = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.fillConvexPoly(face, outline, 1, shift=_QUARTER)
            area = cv2.countNonZero(face)
            tile = cv2.countNonZero(cv2.bitwise_and(face, masks.tiles[y0:y1, x0:x1]))  # both 0/1
            if area and tile >= _ON_TILE * area:
                kept.append(find)
        return kept

    def _view_quads(self, quads: Sequence[np.ndarray]) -> np.ndarray:
        """Frame quads (each 4×2) in top-down view pixels (N×4×2), taken through the view's
        homography in one call."""
        if not quads:
            return np.zeros((0, 4, 2))
        points = np.concatenate([corners.reshape(-1, 1, 2) for corners in quads]).astype(np.float64)
        return np.asarray(cv2.perspectiveTransform(points, self.view.frame_to_view).reshape(-1, 4, 2))

    def _gaps(
        self, view: np.ndarray, masks: ViewMask, occluders: np.ndarray | None, fitted: list[list[ReadTile]]
    ) -> list[_Find]:
        """Faces where a zone holds tile that no placed face (``fitted``, each seat's) covers
        (``gaps``), outside the ``occluders`` (None: there are none). An added kan's tile
        covers none: on top of the turned tile, it is seen further out, over most of it, and
        what shows of a turned tile the detector missed under it is a strip thinner than a
        gap's least side. A gap's face in the added row on a placed added tile is that tile
        (``_on_added_tile``)."""
        covered = np.zeros_like(masks.tiles)
        covering = [tile.quad for tiles in fitted for tile in tiles if not _added(tile)]
        for outline in _outlines(self._view_quads(covering)):
            cv2.fillConvexPoly(covered, outline, 1, shift=_QUARTER)
        margin = max(round(2 * _FOUND_MARGIN_MM * self.view.px_per_mm) + 1, 1)
        covered = cv2.dilate(covered, np.ones((margin, margin), np.uint8))
        # All three are 0/1: tile that no face covers (tile less cover), and tile that one does.
        residual = cv2.subtract(masks.tiles, covered)
        if occluders is not None:
            residual[occluders > 0] = 0
        tile_covered = cv2.bitwise_and(masks.tiles, covered)
        if not cv2.countNonZero(tile_covered):
            return []
        level = face_level(masks.gray, tile_covered)
        gaps = []
        for seat in range(4):
            turns = self.view.quarter_turns[seat]
            for zone, box in zone_box_items(self.boxes):
                columns, lines = box_slices(self.view, reaching_out(box))
                # The seat image's part is the view's part under it turned: looked at in the
                # view, along its rows; only the residual is copied (for the opening), the rest
                # is read in a few places.
                under = view_rect(self.view, seat, columns, lines)
                if not residual[under].size or not cv2.countNonZero(residual[under]):
                    continue
                parts = [np.rot90(image[under], turns) for image in (residual, masks.tiles, masks.gray, view)]
                origin = (columns.start or 0, lines.start or 0)
                edge = _meld_row_edge(fitted[seat]) if zone == Zone.MELDS else None
                row_edge = None if edge is None else edge - origin[1]
                search = GapSearch(
                    np.ascontiguousarray(parts[0]),
                    parts[1],
                    parts[2],
                    parts[3],
                    origin,
                    _MOST_ROWS[zone],
                    level,
                    row_edge,
                )
                upright = zone in _UPRIGHT_ZONES
                for gap_face in gap_faces(search, self.scale):
                    face = _upright(gap_face.piece, self.scale) if upright else gap_face.piece
                    if edge is not None and self._on_added_tile(face, edge, fitted[seat]):
                        continue
                    quad = frame_quad(face, self._seat_to_frame[seat])
                    gaps.append(_Find(seat, FoundTile(quad, face.sideways), lie_known=upright, dark=gap_face.dark))
        if gaps:
            log.debug("%d faces cut where the detector found none", len(gaps))
        return gaps

    def _on_added_tile(self, face: Piece, edge: float, tiles: list[ReadTile]) -> bool:
        """Whether a gap's face in a seat's meld zone, whose meld row ends at ``edge``
        (``_meld_row_edge``), lies in the added row (``seat_tiles.arrange``) on a placed added
        tile (``_SAME_TILE``): that tile, which covers nothing for the gaps. A face at the
        row's edge is the row's, the turned tile under it."""
        if face.bottom >= edge - ADDED_IN * self.scale.width:
            return False
        return any(_overlap(face, tile.found.piece) > _SAME_TILE for tile in tiles if _added(tile))

    def _row_axes_of(self, seats: Sequence[int], quads: Sequence[np.ndarray]) -> list[float]:
        """``_row_axes_at`` each quad's centre (frame pixels) in its seat's image."""
        if not quads:
            return []
        middles = centres(quads).astype(np.float64)
        points = np.empty_like(middles)
        for seat in set(seats):
            here = np.flatnonzero(np.array(seats) == seat)
            points[here] = np.stack(apply_all(self._frame_to_seat[seat], middles[here]), axis=1)
        return self._row_axes_at(seats, points)

    def _row_axes_at(self, seats: Sequence[int], points: np.ndarray) -> list[float]:
        """Degrees clockwise from the frame's up of an upright tile's long axis in each seat's
        rows at its seat-image pixel (N×2 points, u and v): a short step along the seat's
        distance from the centre, taken to the frame. All of a seat's points at once: a frame
        has a few hundred finds."""
        axes = np.zeros(len(seats))
        for seat in set(seats):
            here = np.flatnonzero(np.array(seats) == seat)
            u, v = points[here, 0], points[here, 1]
            x0, y0 = apply_all(self._seat_to_frame[seat], np.stack([u, v - 5.0], axis=1))
            x1, y1 = apply_all(self._seat_to_frame[seat], np.stack([u, v + 5.0], axis=1))
            axes[here] = np.degrees(np.arctan2(x1 - x0, -(y1 - y0))) % 180.0
        return [float(axis) for axis in axes]

    def _by_seat(self, detections: Sequence[Detection]) -> list[list[ReadTile]]:
        """Each read tile in its seat's zone, row and meld; of two on one face, the surer."""
        located: list[list[tuple[Zone, Piece, Detection]]] = [[] for _ in range(4)]
        ordered = sorted(detections, key=lambda d: -d.reading.confidence)
        places = self._located(centres([d.corners for d in ordered]).astype(np.float64))
        for detection, place in zip(ordered, places, strict=True):
            if place is None:
                continue
            seat, zone, u, v = place
            piece = centred_piece(u, v, detection.sideways, self.scale)
            # Only faces that overlap it can be the same tile (``_overlap``): the rest are passed over cheaply.
            overlapping = (
                (z, p, d)
                for z, p, d in located[seat]
                if p.left < piece.right and piece.left < p.right and p.top < piece.bottom and piece.top < p.bottom
            )
            if any(_same_tile(p, piece, d, detection, stacked=_stacked(z, p, zone, piece)) for z, p, d in overlapping):
                continue
            located[seat].append((zone, piece, detection))
        by_seat: list[list[ReadTile]] = [[] for _ in range(4)]
        for seat in range(4):
            for zone in Zone:
                here = [(piece, d) for z, piece, d in located[seat] if z == zone]
                placed = arrange(zone, [piece for piece, _ in here], self.scale, float(self._wall_row_v))
                by_seat[seat] += [
                    ReadTile(found, detection.reading, detection.corners)
                    for found, (_, detection) in zip(placed, here, strict=True)
                ]
        return by_seat

    def _assemble(self, finds: list[SeatFind], at: float) -> TableReading:
        width = self.scale.width
        seats = [seat_reading(f.tiles, width, f.occluded) for f in finds]
        walls = [wall_reading(f.tiles) if Zone.WALL not in f.occluded else None for f in finds]
        dora: tuple[SeenTile, ...] = ()
        ura: tuple[SeenTile, ...] = ()
        # The dead wall is the wall that shows face-up tiles (the one with most, should two).
        candidates = [w for w in walls if w is not None and w.face_up]
        if candidates:
            dead_wall = max(candidates, key=lambda w: len(w.face_up))
            dora, ura = dead_wall.face_up, dead_wall.ura
        dora_occluded = not dora and any(w is None for w in walls)
        return TableReading(at, (seats[0], seats[1], seats[2], seats[3]), dora, ura, dora_occluded)


def _marked_if_dark(read: Sequence[Detection], gaps: Sequence[_Find]) -> list[Detection]:
    """The gaps' faces as ``read``, less those on a dark gap face (``gaps``) that read as no face
    with marks, surely: felt in a shadow reads unsurely, and dark felt between sharp tile edges
    can read as a back, or as the blank white dragon (the held-out dark art's is a bare dark
    face: a phantom added tile on bench seed 3 000 043, ``black``). A face in a shadow, or a red
    five on a dark body, reads as itself. Reading can move or add faces: each is matched to the
    gap face its centre lies in."""
    dark = [gap.tile.corners for gap in gaps if gap.dark]
    if not dark:
        return list(read)
    return [d for d in read if _has_marks(d.reading) or not _on_any(d.corners, dark)]


def _has_marks(reading: TileReading) -> bool:
    return not (reading.uncertain or reading.face_down or reading.label == WHITE_DRAGON_LABEL)


def _on_any(quad: np.ndarray, quads: Sequence[np.ndarray]) -> bool:
    """Whether ``quad``'s centre lies inside one of ``quads`` (or on its edge)."""
    x, y = centre(quad)
    return any(contains(other, (float(x), float(y))) for other in quads)


def _lies_across(tile: FoundTile, row_axis: float) -> bool:
    """Whether a find has its long axis along its seat's rows (``row_axis``, ``_row_axes_at``): sideways."""
    turn = abs(long_axis_degrees(tile.corners) - row_axis) % 180.0
    return min(turn, 180.0 - turn) > 45.0


def _outlines(quads: np.ndarray) -> np.ndarray:
    """Quads (N×4×2, float pixels) as ``cv2.fillConvexPoly`` outlines to a quarter pixel (``shift=_QUARTER``)."""
    return np.round(quads * 4).astype(np.int32)


_QUARTER: Final = 2  # fractional bits of an outline's corners


def _melds_grouped(tiles: list[ReadTile], scale: FaceScale) -> list[ReadTile]:
    """The seat's tiles with each meld tile given its meld; meld tiles in none left out."""
    melds = [t for t in tiles if t.found.zone == Zone.MELDS]
    grouped = group_melds([t.found for t in melds], scale)
    kept = [replace(t, found=found) for t, found in zip(melds, grouped, strict=True) if found is not None]
    return [t for t in tiles if t.found.zone != Zone.MELDS] + kept


def _added(tile: ReadTile) -> bool:
    """Whether a placed tile lies in a meld zone's added row (an added kan's tile)."""
    return tile.found.zone == Zone.MELDS and tile.found.row == 1


def _meld_row_edge(tiles: list[ReadTile]) -> float | None:
    """The seat-image line where the meld row's faces end (``seat_tiles.arrange``'s), if any lies there."""
    ends = [t.found.piece.bottom for t in tiles if t.found.zone == Zone.MELDS and t.found.row == 0]
    return statistics.median(ends) if ends else None


def _upright(piece: Piece, scale: FaceScale) -> Piece:
    """``piece`` as an upright face about the same centre."""
    if not piece.sideways:
        return piece
    return centred_piece((piece.left + piece.right) / 2, (piece.top + piece.bottom) / 2, False, scale)


def _same_tile(a: Piece, b: Piece, read_a: Detection, read_b: Detection, *, stacked: bool = False) -> bool:
    """Whether ``b`` is the tile ``a`` (read surer) is: see ``_SAME_TILE``. An uncertain read
    that overlaps a sure one by a quarter is a cut across two faces (two rows, a seam), unless
    the two are ``stacked`` (``_stacked``)."""
    shared = _overlap(a, b)
    if shared > _SAME_TILE:
        return True
    if read_b.reading.uncertain and shared > _ACROSS_TWO and not stacked:
        return True
    return shared > _SAME_TILE_SAME_READING and read_a.reading.label == read_b.reading.label


def _stacked(zone_a: Zone, a: Piece, zone_b: Zone, b: Piece) -> bool:
    """Whether two faces may be an added kan's tile and the turned tile it lies on: both
    sideways in a meld zone, one further out than the other. They overlap by a third seen
    from above (parallax), and the turned tile, half under the added one in its cut, reads
    uncertain: it is still a tile of its own (seed 3 000 079)."""
    if not (zone_a == zone_b == Zone.MELDS and a.sideways and b.sideways):
        return False
    return abs(a.centre_v - b.centre_v) > _STACKED_APART * (a.bottom - a.top)  # a sideways face is a width deep


def _overlap(a: Piece, b: Piece) -> float:
    """The share of the smaller face that two faces share."""
    along = min(a.right, b.right) - max(a.left, b.left)
    across = min(a.bottom, b.bottom) - max(a.top, b.top)
    if along <= 0 or across <= 0:
        return 0.0
    smaller = min((a.right - a.left) * (a.bottom - a.top), (b.right - b.left) * (b.bottom - b.top))
    return along * across / smaller
