"""Read tiles of one seat, placed in its upright image → which zone, row and meld each is in.

The tiles were found by the learnt detector (and the gaps it left filled, ``gaps``) and read
(``vision.detect.still_photo.read_found``); here only the table's structure is used, from the
seat's own frame (``vision.calibration.zones.zone_boxes``):

- pond: up to three rows stacked towards the centre; the riichi tile lies sideways against
  its row's centre side, so every tile of a row begins at the same line (its top);
- wall: the wall's row, and in front of it (towards the centre) the ura indicators' row when
  this is the dead wall;
- open hand: one row, upright, the winning tile set apart at its right;
- melds: one row along the table's edge, called tiles sideways against the owner's side, an
  added kan's tile sideways on the centre side of the turned one; melds are runs of touching
  tiles, three or four each (an added kan's pon three in the row).
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

import cv2
import numpy as np

from vision.calibration.table import PhysicalTileSize
from vision.calibration.zones import SeatDistances, ZoneBox, ZoneBoxes
from vision.live.reading import Zone

#: A tile's top is seen this much bigger than its footprint, and this far out per mm from the
#: point below the camera (a 16 mm tall tile under a lens 0.65-1 m up): zones reach out by it.
PARALLAX: Final = 0.025
_SAME_LINE: Final = 0.25  # pond faces whose tops lie this many face heights apart or less begin at one line
#: Pond rows lie a face's height and a gap apart: a line of tops nearer another than this many
#: heights is no row's.
_ROW_PITCH: Final = 0.75
MELD_GAP: Final = 0.17  # faces further apart than this (tile widths) start a new meld; a meld's touch
#: An added kan's tile ends more than this many face widths in from the meld row's outer edge:
#: a face's width in, less the parallax of its place on top of the turned tile (up to half a
#: width at the table's corners); the row's own faces end at it, give or take the finds' error.
ADDED_IN: Final = 0.5
#: A meld row's face whose centre lies within this many face widths (along the row) of an added
#: kan's tile's is the turned tile that one lies beside (``added_beside``).
ADDED_BESIDE: Final = 0.35


@dataclass(frozen=True, slots=True)
class FaceScale:
    """A face's size in seat-image pixels, and the image's scale."""

    width: float
    height: float
    px_per_mm: float


def face_scale(tile: PhysicalTileSize, px_per_mm: float) -> FaceScale:
    """A face as the camera sees it, a little bigger than its footprint (``PARALLAX``)."""
    grow = 1 + PARALLAX / 2
    return FaceScale(tile.width_mm * grow * px_per_mm, tile.height_mm * grow * px_per_mm, px_per_mm)


@dataclass(frozen=True, slots=True)
class Piece:
    """One tile's face in a seat image: ``left``..``right`` along, ``top``..``bottom`` across."""

    left: float
    right: float
    top: float
    bottom: float
    sideways: bool

    @property
    def centre_u(self) -> float:
        return (self.left + self.right) / 2

    @property
    def centre_v(self) -> float:
        return (self.top + self.bottom) / 2


def centred_piece(u: float, v: float, sideways: bool, scale: FaceScale) -> Piece:
    """A face of the usual size about a centre: a sideways one lies along its row."""
    along, across = (scale.height, scale.width) if sideways else (scale.width, scale.height)
    return Piece(u - along / 2, u + along / 2, v - across / 2, v + across / 2, sideways)


@dataclass(frozen=True, slots=True)
class ZoneTile:
    zone: Zone
    row: int  # pond: 0 nearest the centre; wall: 0 the wall, 1 the ura row; melds: 0 the row, 1 added tiles
    piece: Piece
    meld: int = -1  # melds: which meld, counted from the left


def zone_box_items(boxes: ZoneBoxes) -> tuple[tuple[Zone, ZoneBox], ...]:
    return ((Zone.POND, boxes.pond), (Zone.WALL, boxes.wall), (Zone.HAND, boxes.open_hand), (Zone.MELDS, boxes.melds))


def arrange(zone: Zone, pieces: Sequence[Piece], scale: FaceScale, wall_row_line: float) -> list[ZoneTile]:
    """Each piece of one zone of one seat placed in its row, in the given order (melds are
    grouped afterwards, once their row is fitted: :func:`group_melds`). ``wall_row_line``: the
    seat-image line past which a wall zone's tile lies in the wall's row, not the ura row."""
    if zone == Zone.POND:
        rows = _rows_by_top(pieces, scale)
        return [ZoneTile(zone, row, piece) for piece, row in zip(pieces, rows, strict=True)]
    if zone == Zone.WALL:
        return [ZoneTile(zone, 0 if p.centre_v > wall_row_line else 1, p) for p in pieces]
    if zone == Zone.HAND or not pieces:
        return [ZoneTile(zone, 0, piece) for piece in pieces]
    # An added kan's tile lies sideways on the centre side of the turned one: well in from the
    # row's outer edge. Every face of the row meets that edge, so a face that ends well in from
    # it is no face of the row, upright or not: a cut that straddles two added tiles side by
    # side is judged upright, and taken into the row it lengthens it by a face.
    # The row's edge is where most faces end (a meld has one added tile to three or four in
    # the row): the furthest out may be a find a quarter face off.
    outer = statistics.median([p.bottom for p in pieces])
    return [ZoneTile(zone, 1 if p.bottom < outer - ADDED_IN * scale.width else 0, p) for p in pieces]


def _rows_by_top(pieces: Sequence[Piece], scale: FaceScale) -> list[int]:
    """Pond rows, 0 nearest the centre: every tile of a row begins at its top line (a riichi
    tile lies against the row's centre side). Tops close together (``_SAME_LINE``) share a
    line; a line nearer another than rows lie apart (``_ROW_PITCH``) is no row of its own: a
    cut straddling two rows, or a face found off its row, whose faces join the nearer line of
    the two. (Rows begun at their first face's top, a cut straddling two rows began a row and
    took the next row's first face into it.)"""
    order = sorted(range(len(pieces)), key=lambda i: pieces[i].top)
    lines: list[list[int]] = []
    for i in order:
        if lines and pieces[i].top - pieces[lines[-1][-1]].top <= _SAME_LINE * scale.height:
            lines[-1].append(i)
        else:
            lines.append([i])
    while (stray := _stray_line(lines, pieces, scale)) is not None:
        index, into = stray
        members = lines.pop(index)
        lines[into - 1 if into > index else into] += members
    rows = [0] * len(pieces)
    for row, members in enumerate(lines):
        for i in members:
            rows[i] = row
    return rows


def _stray_line(lines: list[list[int]], pieces: Sequence[Piece], scale: FaceScale) -> tuple[int, int] | None:
    """The line with fewest faces that lies nearer a neighbour than rows lie apart, and the
    neighbour it joins (the nearer); ``None`` when every line is a row's."""
    tops = [statistics.median([pieces[i].top for i in members]) for members in lines]
    strays = []
    for index in range(len(lines)):
        near = [
            (abs(tops[other] - tops[index]), other)
            for other in (index - 1, index + 1)
            if 0 <= other < len(lines) and abs(tops[other] - tops[index]) < _ROW_PITCH * scale.height
        ]
        if near:
            strays.append((len(lines[index]), index, min(near)[1]))
    if not strays:
        return None
    _, index, into = min(strays)
    return index, into


def added_beside(piece: Piece, added: Sequence[Piece], scale: FaceScale) -> Piece | None:
    """The added kan's tile (one of ``added``) that lies beside a meld row's face, across the
    row, if one does: that face is the kan's turned tile, and its meld a pon with the tile added."""
    return next((tile for tile in added if abs(tile.centre_u - piece.centre_u) < ADDED_BESIDE * scale.width), None)


def group_melds(tiles: Sequence[ZoneTile], scale: FaceScale) -> list[ZoneTile | None]:
    """The meld zone's tiles, in the given order, each with its meld: the row's tiles grouped
    into melds, each added kan's tile given the meld of the turned tile it lies on; ``None``
    for a tile in no meld (a lone tile)."""
    in_row = sorted((t.piece for t in tiles if t.row == 0), key=lambda p: p.left)
    groups = meld_groups(in_row, scale, [t.piece for t in tiles if t.row == 1 and t.piece.sideways])
    meld_of = {id(piece): index for index, group in enumerate(groups) for piece in group}
    spans = [(group[0].left, group[-1].right) for group in groups]
    result: list[ZoneTile | None] = []
    for tile in tiles:
        if tile.row == 0:
            meld = meld_of.get(id(tile.piece))
            result.append(None if meld is None else replace(tile, meld=meld))
            continue
        over = [i for i, (left, right) in enumerate(spans) if left <= tile.piece.centre_u <= right]
        result.append(replace(tile, meld=over[0]) if over else None)
    return result


def meld_groups(pieces: list[Piece], scale: FaceScale, added: Sequence[Piece] = ()) -> list[list[Piece]]:
    """Melds, left to right: runs of touching tiles; a run longer than a kan (sides at the
    table's edge can hide the gap between two melds) split into melds of three or four at its
    widest gaps. ``added``: the added kans' tiles; a meld whose turned tile one lies beside is
    a pon in the row (three tiles)."""
    groups: list[list[Piece]] = []
    for piece in pieces:
        if groups and piece.left - groups[-1][-1].right < MELD_GAP * scale.width:
            groups[-1].append(piece)
        else:
            groups.append([piece])
    pons = {id(piece) for piece in pieces if piece.sideways and added_beside(piece, added, scale) is not None}
    return _join_short([meld for group in _chains(groups, scale, pons) for meld in _split_run(group)], scale)


def _chains(groups: list[list[Piece]], scale: FaceScale, pons: set[int]) -> list[list[Piece]]:
    """Runs of tiles less than a tile's width apart, joined where they cannot be melds as they
    stand (a meld of three has its called tile sideways; no meld has two; an added kan's pon
    has three in the row, ``pons`` the ids of their turned tiles) and can be split into melds
    that can: at the table's edge a tile's side hides the gap between two melds, while a gap
    the blur widened may part one."""
    if all(_can_be_meld(group, pons) for group in groups):
        return groups
    chains: list[list[Piece]] = []
    for group in groups:
        if chains and group[0].left - chains[-1][-1].right < scale.width:
            chains[-1] = chains[-1] + group
        else:
            chains.append(list(group))
    result: list[list[Piece]] = []
    for chain in chains:
        split = _split_into_melds(chain, pons)
        result += split if split is not None else [g for g in groups if g[0] in chain]
    return result


def _can_be_meld(group: list[Piece], pons: set[int]) -> bool:
    sideways = sum(piece.sideways for piece in group)
    if any(id(piece) in pons for piece in group):
        return len(group) == 3 and sideways == 1
    return (len(group) == 3 and sideways == 1) or (len(group) == 4 and sideways <= 1)


def _split_into_melds(chain: list[Piece], pons: set[int]) -> list[list[Piece]] | None:
    """The chain cut into melds that can all be, at its widest gaps; ``None`` if no cut can."""
    gaps = [b.left - a.right for a, b in itertools.pairwise(chain)]
    best: tuple[float, list[list[Piece]]] | None = None
    for sizes in _compositions(len(chain)):
        bounds = [0, *itertools.accumulate(sizes)]
        melds = [chain[a:b] for a, b in itertools.pairwise(bounds)]
        if not all(_can_be_meld(meld, pons) for meld in melds):
            continue
        score = min((gaps[cut - 1] for cut in bounds[1:-1]), default=np.inf)
        if best is None or score > best[0]:
            best = (score, melds)
    return best[1] if best is not None else None


def _join_short(groups: list[list[Piece]], scale: FaceScale) -> list[list[Piece]]:
    """A meld has three or four tiles: a shorter group (a face-down end looks apart) joins its
    nearer neighbour when that makes at most four; a lone tile with no meld within a tile's
    width is no meld at all."""
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


def wall_row_line(distances: SeatDistances, tile: PhysicalTileSize) -> float:
    """mm from the centre: a wall zone's tile whose centre lies further out is in the wall's
    row (its centre lies half a tile in from the wall's edge), nearer in the ura row (a tile
    and a half)."""
    return distances.wall_mm - tile.height_mm


def frame_quad(piece: Piece, seat_to_frame: np.ndarray) -> np.ndarray:
    """A face's corners in the frame (face order), through ``seat_to_frame``."""
    return frame_quads([piece], seat_to_frame)[0]


def frame_quads(pieces: Sequence[Piece], seat_to_frame: np.ndarray) -> list[np.ndarray]:
    """Each face's corners in the frame (``frame_quad``), all through one call: the map takes
    each point by itself, so a face's corners are those it gets alone."""
    if not pieces:
        return []
    edges = np.array([(p.left, p.right, p.top, p.bottom) for p in pieces], np.float64) - 0.5
    lies = _CORNER_EDGES[np.array([p.sideways for p in pieces], np.intp)]
    points = edges[np.arange(len(pieces))[:, None, None], lies].reshape(-1, 1, 2)
    return list(np.asarray(cv2.perspectiveTransform(points, seat_to_frame)).reshape(-1, 4, 2))


#: Which of a face's edges (left, right, top, bottom) each corner's x and y are, in face order:
#: upright, and sideways (the face's top to the left: its top-left corner is the image's bottom-left).
_CORNER_EDGES: Final = np.array([[[0, 2], [1, 2], [1, 3], [0, 3]], [[0, 3], [0, 2], [1, 2], [1, 3]]])
