"""Where each seat's tiles lie, zone by zone, in the seat's upright image (before classifying).

Rows per zone, from the seat's own frame (``vision.calibration.zones.zone_boxes``):

- pond: up to three rows stacked towards the centre; the riichi tile lies sideways against
  its row's centre side;
- wall: the wall's row, and in front of it (towards the centre) the ura indicators' row when
  this is the dead wall; a lone row nearer than half a tile to the wall's place is the ura row;
- open hand: one row, upright, the winning tile set apart at its right;
- melds: one row along the table's edge, called tiles sideways against the owner's side, an
  added kan's tile sideways on the centre side of the turned one.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Final

import numpy as np

from vision.calibration.table import PhysicalTileSize
from vision.calibration.zones import SeatDistances, ZoneBox, ZoneBoxes
from vision.live.reading import Zone
from vision.live.table_reader.rows import (
    Alignment,
    FaceScale,
    Piece,
    SeatImage,
    cut_band,
    extent_runs,
    outer_edge,
    stacked_rows,
)
from vision.live.table_reader.seat_view import ViewGeometry

#: A tile's top is seen this much bigger than its footprint, and this far out per mm from the
#: point below the camera (a 16 mm tall tile under a lens 0.65-1 m up): search bands reach out by it.
PARALLAX: Final = 0.025
_ADDED_GAP_MM: Final = 0.4
_CORNER_SIDE_MM: Final = 8.0  # the widest a tile's side shows along a meld's row, at the table's corners
_TILE_GAP_MM: Final = 1.0  # the widest gap between two tiles of one meld
_MELD_GAP: Final = 0.17  # faces further apart than this (tile widths) start a new meld; a meld's touch
_ALIKE: Final = 0.45  # a face this much darker than its zone's usual one is not a face
_SOLID: Final = 0.6  # the least part of a face's rectangle that must be tile
_EDGE_SEARCH_MM: Final = 4.0  # a row's outer edge is looked for this far either side of its place
_FIT_MM: Final = 2.0  # a meld way's mean misfit of its tiles' extents costs as much per this as e⁻¹ confidence


@dataclass(frozen=True, slots=True)
class ZoneTile:
    zone: Zone
    row: int  # pond: 0 nearest the centre; wall: 0 the wall, 1 the ura row; melds: 0 the row, 1 added tiles
    piece: Piece
    # Melds: which meld (counted from the left) and which way of laying it out this tile belongs
    # to; the classifier's confidence over each way's crops picks the way (``structure``).
    meld: int = -1
    layout: int = -1
    # Melds: how well the way's tiles' extents across the row fit it (0 perfectly, less worse).
    fit: float = 0.0


@dataclass(frozen=True, eq=False)
class _Seat:
    """What every zone's search needs: the images, the view, the face size."""

    image: SeatImage
    geometry: ViewGeometry
    scale: FaceScale
    tile: PhysicalTileSize
    distances: SeatDistances

    @property
    def centre_u(self) -> float:
        return self.geometry.half_mm * self.geometry.px_per_mm

    def cut(
        self, band: tuple[int, int], columns: slice, sideways: Alignment | None, *, gaps_matter: bool = False
    ) -> list[Piece]:
        return cut_band(
            self.image, band, columns, self.scale, self.centre_u, sideways=sideways, close_notches=not gaps_matter
        )


def find_seat_tiles(
    image: SeatImage, geometry: ViewGeometry, boxes: ZoneBoxes, tile: PhysicalTileSize, distances: SeatDistances
) -> list[ZoneTile]:
    s = geometry.px_per_mm
    scale = FaceScale(tile.width_mm * (1 + PARALLAX / 2) * s, tile.height_mm * (1 + PARALLAX / 2) * s, s)
    seat = _Seat(image, geometry, scale, tile, distances)
    found = _pond(seat, boxes.pond) + _wall(seat, boxes.wall) + _hand(seat, boxes.open_hand) + _melds(seat, boxes.melds)
    return [tile for tile in found if _solid(image.mask, tile.piece)]


def _solid(mask: np.ndarray, piece: Piece) -> bool:
    """A face is tile all over: a speckle of dark felt the colour test let through is not."""
    inside = mask[max(round(piece.top), 0) : round(piece.bottom), max(round(piece.left), 0) : round(piece.right)]
    return bool(inside.size) and float(inside.mean()) >= _SOLID


def _side_mm(distance_mm: float) -> float:
    """About how much of a tile's side shows on its centre side, this far from the centre."""
    return PARALLAX * 0.8 * distance_mm


def _slices(geometry: ViewGeometry, box: ZoneBox, *, near_mm: float | None = None) -> tuple[slice, slice]:
    """Columns and lines of a zone, its far edge pushed out by the parallax (``near_mm``: start there)."""
    s = geometry.px_per_mm
    near = box.near if near_mm is None else near_mm
    u0, v0 = geometry.seat_px(np.array(box.left), np.array(near))
    u1, v1 = geometry.seat_px(np.array(box.right), np.array(box.far * (1 + PARALLAX)))
    limit = geometry.side_px
    columns = slice(max(round(float(u0) - s * 2), 0), min(round(float(u1) + s * 2), limit))
    return columns, slice(max(round(float(v0)), 0), min(round(float(v1)), limit))


def _edge_lines(geometry: ViewGeometry, outer_mm: float, lines: slice) -> slice:
    """The lines where a row whose faces end ``outer_mm`` from the centre has its outer edge."""
    _, low = geometry.seat_px(np.array(0.0), np.array(outer_mm - _EDGE_SEARCH_MM))
    _, high = geometry.seat_px(np.array(0.0), np.array(outer_mm * (1 + PARALLAX) + _EDGE_SEARCH_MM))
    return slice(max(round(float(low)), lines.start or 0), min(round(float(high)), lines.stop))


def _pond(seat: _Seat, box: ZoneBox) -> list[ZoneTile]:
    columns, lines = _slices(seat.geometry, box)
    # Every pond row starts at the pond's left; its right part may meet the ura row in front of a dead wall.
    left_part = slice(columns.start, columns.start + round(5 * seat.scale.width))
    rows = stacked_rows(seat.image.mask, left_part, lines, seat.scale, max_rows=3, side_mm=_side_mm(box.near))
    found = []
    for row, band in enumerate(reversed(rows)):
        for piece in seat.cut(band, columns, Alignment.CENTRE):
            # A riichi tile lies against its row's centre side.
            face = Piece(piece.left, piece.right, piece.top, piece.top + seat.scale.width, True)
            found.append(ZoneTile(Zone.POND, row, face if piece.sideways else piece))
    return _like_the_others(seat, found)


def _like_the_others(seat: _Seat, found: list[ZoneTile]) -> list[ZoneTile]:
    """Faces of one set are alike: a piece far darker than the rest of its zone is felt in a
    shadow that the colour test took for a tile. (Zones without face-down tiles only.)"""
    if len(found) < 3:
        return found
    # A face's body is its lighter part, symbols or not: compare that.
    levels = [float(np.percentile(seat.image.gray[_rows(t.piece), _columns(t.piece)], 80)) for t in found]
    typical = float(np.median(levels))
    return [t for t, level in zip(found, levels, strict=True) if level >= _ALIKE * typical]


def _rows(piece: Piece) -> slice:
    return slice(max(round(piece.top), 0), max(round(piece.bottom), 1))


def _columns(piece: Piece) -> slice:
    return slice(max(round(piece.left), 0), max(round(piece.right), 1))


def _wall(seat: _Seat, box: ZoneBox) -> list[ZoneTile]:
    # The ura row lies in front of the wall, where the pond's zone ends.
    columns, lines = _slices(seat.geometry, box, near_mm=box.near - seat.tile.height_mm / 2)
    rows = stacked_rows(seat.image.mask, columns, lines, seat.scale, max_rows=2, side_mm=_side_mm(box.near))
    if not rows:
        return []
    middle = seat.distances.wall_mm - seat.tile.height_mm / 2
    _, wall_line = seat.geometry.seat_px(np.array(0.0), np.array(middle))
    # Rows outermost first: the wall, then the ura row; a lone row well in front of the wall is the ura row.
    first_row = 0 if rows[0][1] > float(wall_line) else 1
    found = []
    for index, band in enumerate(rows[: 2 - first_row]):
        found += [ZoneTile(Zone.WALL, first_row + index, piece) for piece in seat.cut(band, columns, None)]
    return found


def _outer_band(seat: _Seat, box: ZoneBox, outer_mm: float) -> tuple[slice, tuple[int, int]] | None:
    """A one-row zone's columns and face band, from the row's outer edge near ``outer_mm``."""
    columns, lines = _slices(seat.geometry, box)
    edge_lines = _edge_lines(seat.geometry, outer_mm, lines)
    # The corner markers' squares reach a little past the table's corners: outside the part of
    # the markers that a corner meld's face covers (left in the mask), they are no tile, and the
    # row's edge is measured inside them.
    inside = seat.distances.meld_right_mm - seat.tile.width_mm
    low, _ = seat.geometry.seat_px(np.array(-inside), np.array(0.0))
    high, _ = seat.geometry.seat_px(np.array(inside), np.array(0.0))
    edge_columns = slice(max(columns.start, round(float(low))), min(columns.stop, round(float(high))))
    bottom = outer_edge(seat.image.mask, edge_columns, edge_lines, 0.5 * seat.scale.width)
    if bottom is None:
        return None
    return columns, (round(bottom - seat.scale.height), bottom)


def _hand(seat: _Seat, box: ZoneBox) -> list[ZoneTile]:
    found = _outer_band(seat, box, seat.distances.hand_mm)
    if found is None:
        return []
    columns, band = found
    pieces = seat.cut(band, columns, None, gaps_matter=True)
    return _like_the_others(seat, [ZoneTile(Zone.HAND, 0, piece) for piece in pieces])


def _melds(seat: _Seat, box: ZoneBox) -> list[ZoneTile]:
    """Each meld's tiles in every way they may lie: the sideways tile at each place, or none.

    Where a meld's called tile lies is the least sure thing the rows' cuts say (at the table's
    edge its side hides how short it is across), while the classifier is sure of a face only
    when its crop is cut right: so every way goes to the classifier and the surest wins."""
    located = _outer_band(seat, box, seat.distances.meld_mm)
    if located is None:
        return []
    columns, band = located
    cut = seat.cut(band, columns, Alignment.OWNER, gaps_matter=True)
    pieces = [p for p in cut if _solid(seat.image.mask, _turned(p, seat.scale))]
    found = []
    for index, group in enumerate(_meld_groups(pieces, seat.scale)):
        left, right = group[0].left, group[-1].right
        # A group shorter than a meld has lost a tile to the cut (a called tile cut short): a
        # meld of three is laid out over its span too.
        counts = [len(group)] if len(group) >= 3 else [len(group), 3]
        ways = [(count, turned_at) for count in counts for turned_at in _meld_layouts(count, right - left, seat.scale)]
        # Where the cut leaves it in doubt, the classifier also sees the called tile at each place.
        for count in counts:
            ways += [(count, at) for at in [*range(count), None] if (count, at) not in ways]
        for layout, (count, turned_at) in enumerate(ways):
            way = _MeldWay(left, right, count, turned_at, index, layout)
            found += _laid_out(seat, band, way)
    return found


def _turned(piece: Piece, scale: FaceScale) -> Piece:
    """A called tile's face: against the owner's side of the row."""
    if not piece.sideways:
        return piece
    return Piece(piece.left, piece.right, piece.bottom - scale.width, piece.bottom, True)


def _meld_groups(pieces: list[Piece], scale: FaceScale) -> list[list[Piece]]:
    """Melds: runs of touching tiles; a run longer than a kan (sides at the table's edge can hide
    the gap between two melds) split into melds of three or four at its widest gaps."""
    groups: list[list[Piece]] = []
    for piece in pieces:
        if groups and piece.left - groups[-1][-1].right < _MELD_GAP * scale.width:
            groups[-1].append(piece)
        else:
            groups.append([piece])
    return _join_short([meld for group in _chains(groups, scale) for meld in _split_run(group)], scale)


def _chains(groups: list[list[Piece]], scale: FaceScale) -> list[list[Piece]]:
    """Runs of tiles less than a tile's width apart, joined where they cannot be melds as they
    stand (a meld of three has its called tile sideways; no meld has two) and can be split into
    melds that can: at the table's edge a tile's side hides the gap between two melds, while a
    gap the blur widened may part one."""
    if all(_can_be_meld(group) for group in groups):
        return groups
    chains: list[list[Piece]] = []
    for group in groups:
        if chains and group[0].left - chains[-1][-1].right < scale.width:
            chains[-1] = chains[-1] + group
        else:
            chains.append(list(group))
    result: list[list[Piece]] = []
    for chain in chains:
        split = _split_into_melds(chain)
        result += split if split is not None else [g for g in groups if g[0] in chain]
    return result


def _can_be_meld(group: list[Piece]) -> bool:
    sideways = sum(piece.sideways for piece in group)
    return (len(group) == 3 and sideways == 1) or (len(group) == 4 and sideways <= 1)


def _split_into_melds(chain: list[Piece]) -> list[list[Piece]] | None:
    """The chain cut into melds that can all be, at its widest gaps; ``None`` if no cut can."""
    gaps = [b.left - a.right for a, b in itertools.pairwise(chain)]
    best: tuple[float, list[list[Piece]]] | None = None
    for sizes in _compositions(len(chain)):
        bounds = [0, *itertools.accumulate(sizes)]
        melds = [chain[a:b] for a, b in itertools.pairwise(bounds)]
        if not all(_can_be_meld(meld) for meld in melds):
            continue
        score = min((gaps[cut - 1] for cut in bounds[1:-1]), default=np.inf)
        if best is None or score > best[0]:
            best = (score, melds)
    return best[1] if best is not None else None


def _join_short(groups: list[list[Piece]], scale: FaceScale) -> list[list[Piece]]:
    """A meld has three or four tiles: a shorter group (a called tile cut short leaves a gap, a
    face-down end looks apart) joins its nearer neighbour when that makes at most four; a lone
    tile with no meld within a tile's width is no meld at all."""
    joined = [list(group) for group in groups]
    changed = True
    while changed:
        changed = False
        for index, group in enumerate(joined):
            if len(group) >= 3:
                continue
            options = []
            if index > 0 and len(joined[index - 1]) + len(group) <= 4:
                options.append((group[0].left - joined[index - 1][-1].right, index - 1))
            if index + 1 < len(joined) and len(joined[index + 1]) + len(group) <= 4:
                options.append((joined[index + 1][0].left - group[-1].right, index + 1))
            if options:
                gap, other = min(options)
                if gap < scale.width:
                    low, high = sorted((index, other))
                    joined[low : high + 1] = [joined[low] + joined[high]]
                    changed = True
                    break
    return [group for group in joined if len(group) > 1]


def _split_run(group: list[Piece]) -> list[list[Piece]]:
    if len(group) <= 4:
        return [group]
    gaps = [b.left - a.right for a, b in itertools.pairwise(group)]
    best: tuple[float, list[int]] | None = None
    for sizes in _compositions(len(group)):
        cuts = list(itertools.accumulate(sizes))[:-1]
        score = min(gaps[cut - 1] for cut in cuts)
        if best is None or score > best[0]:
            best = (score, cuts)
    if best is None:
        return [group]
    bounds = [0, *best[1], len(group)]
    return [group[a:b] for a, b in itertools.pairwise(bounds)]


def _compositions(count: int) -> list[tuple[int, ...]]:
    """Every way to write ``count`` as a sum of threes and fours, in order."""
    if count == 0:
        return [()]
    ways = []
    for part in (3, 4):
        if count >= part:
            ways += [(part, *rest) for rest in _compositions(count - part)]
    return ways


def _meld_layouts(count: int, span: float, scale: FaceScale) -> list[int | None]:
    """Where the sideways tile may be in a meld of ``count`` tiles spanning ``span`` pixels."""
    with_one = (count - 1) * scale.width + scale.height
    all_upright = count * scale.width
    # Either is a called tile's short side from the other: some of that, and a little per tile.
    tolerance = 0.6 * (scale.height - scale.width) + count * scale.px_per_mm
    # At the table's corners a tile's side shows along the row too: a run may be that much longer.
    side = _CORNER_SIDE_MM * scale.px_per_mm
    layouts: list[int | None] = []
    if -tolerance < span - with_one < tolerance + side:
        layouts += list(range(count))
    if -tolerance < span - all_upright < tolerance + side or not layouts:
        layouts.append(None)
    return layouts


@dataclass(frozen=True, slots=True)
class _MeldWay:
    """One way a meld may lie: ``count`` tiles from ``left`` to ``right``, the sideways one at ``turned_at``."""

    left: float
    right: float
    count: int
    turned_at: int | None
    meld: int
    layout: int


def _laid_out(seat: _Seat, band: tuple[int, int], way: _MeldWay) -> list[ZoneTile]:
    scale = seat.scale
    left, right, count, turned_at = way.left, way.right, way.count, way.turned_at
    lengths = [scale.height if i == turned_at else scale.width for i in range(count)]
    spare = max(right - left - sum(lengths), 0.0)
    gap = min(spare / max(count - 1, 1), _TILE_GAP_MM * scale.px_per_mm)
    # Spare length beyond tiles lying close is a tile's side, shown on the centre side.
    side = spare - gap * (count - 1)
    faces: list[tuple[Piece, Piece | None]] = []
    at = left + side if (left + right) / 2 > seat.centre_u else left
    for i, length in enumerate(lengths):
        face = _turned(Piece(at, at + length, float(band[0]), float(band[1]), i == turned_at), scale)
        faces.append((face, _added(seat, face) if i == turned_at else None))
        at += length + gap
    fit = _fit(seat, band[1], faces)
    found = []
    for face, added in faces:
        found.append(ZoneTile(Zone.MELDS, 0, face, way.meld, way.layout, fit))
        if added is not None:
            found.append(ZoneTile(Zone.MELDS, 1, added, way.meld, way.layout, fit))
    return found


def _fit(seat: _Seat, bottom: int, faces: list[tuple[Piece, Piece | None]]) -> float:
    """How well a way of laying out a meld fits how far its tiles reach in from the row's outer
    edge: an upright face a tile's height, a called (sideways) one its width, its added tile's
    width more, each plus the tile's side that shows on the centre side. The side is measured
    on the way's upright tiles. A blank face (the white dragon) reads the same in every way: this
    tells where the called tile lies when the classifier cannot."""
    scale = seat.scale
    s = scale.px_per_mm
    reach = round(2 * scale.width + (_ADDED_GAP_MM + 12.0) * s)
    runs = extent_runs(seat.image.mask, bottom, slice(None), reach)
    extents, expected = [], []
    for face, added in faces:
        quarter = 0.25 * (face.right - face.left)
        columns = runs[max(round(face.left + quarter), 0) : max(round(face.right - quarter), 1)]
        if not columns.size:
            return 0.0
        extents.append(float(np.median(columns)))
        across = face.bottom - face.top
        if added is not None:
            across += added.bottom - added.top + _ADDED_GAP_MM * s
        expected.append(across)
    upright = [e - x for e, x, (face, _) in zip(extents, expected, faces, strict=True) if not face.sideways]
    side = float(np.clip(np.median(upright), 0.0, 12.0 * s)) if upright else 0.0
    misfit = np.mean([abs(e - x - side) for e, x in zip(extents, expected, strict=True)])
    return -float(misfit) / (_FIT_MM * s)


def _added(seat: _Seat, turned: Piece) -> Piece | None:
    """An added kan's tile, sideways on the centre side of the turned one, when one lies there."""
    scale = seat.scale
    gap = _ADDED_GAP_MM * scale.px_per_mm
    added = Piece(turned.left, turned.right, turned.top - gap - scale.width, turned.top - gap, True)
    inside = seat.image.mask[
        max(round(added.top + 0.2 * scale.width), 0) : round(added.bottom - 0.2 * scale.width),
        max(round(added.left + 0.2 * scale.width), 0) : round(added.right - 0.2 * scale.width),
    ]
    return added if inside.size and inside.mean() > 0.8 else None
