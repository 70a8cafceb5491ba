"""One find per tile from the finds of a frame's looks.

The learnt finder looks at a frame at several scales (:mod:`vision.find.learnt`), and one look
can fire twice on a tile; a look finer than a tile's own scale fires on its glyphs, a coarse one
on a tight clump of tiles. Their finds are merged here: parts and clumps dropped, and of several
finds in one place the surest kept (:func:`one_per_tile`); a second pyramid's finds where the
first found none are kept only when the verifier is sure of them (:func:`alone_if_sure`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

from vision.find.finder import FindResult, FoundTile
from vision.find.seams import TileSize
from vision.geometry import centres as quad_centres

log = logging.getLogger(__name__)

#: Two looks' tiles whose centres lie closer than this share of the shorter face's short
#: edge are one tile; the surer peak stays.
_SAME_TILE: Final = 0.6
#: A find whose centre lies inside a face this many times longer than its own, found at least
#: this share as surely, is a part of that tile (a glyph), not a tile. A face longer than
#: ``_PART_HOST_AT_MOST`` times the frame's median find is no tile's: a coarse look's find
#: over a whole row must not take the row's tiles.
_PART_OF: Final = 1.4
_PART_HOST_AT_MOST: Final = 4.0
_PART_SCORE: Final = 0.5
#: A find at least ``_BLOCK_LONG`` times the typical tile's long edge that holds the centres
#: of ``_BLOCK_HOLDS`` finds of about the typical size (``_BLOCK_OF`` times it) is a clump of
#: tiles, not a tile (:func:`_blocks`). A 2×2 clump seen whole is about twice as long as its
#: tiles, and holds four of them; the rendered ponds' clumps came out 3-4.6 times as long.
_BLOCK_LONG: Final = 2.0
_BLOCK_HOLDS: Final = 3
_BLOCK_OF: Final = (0.7, 1.4)


@dataclass(frozen=True, slots=True)
class Look:
    """A tile one look found, with its size in frame pixels and its peak's height."""

    tile: FoundTile
    long: float
    short: float
    score: float


def tiles_found(tiles: list[Look]) -> FindResult:
    """The found tiles and their typical size (the median face)."""
    if not tiles:
        return FindResult((), None)
    size = TileSize(float(np.median([t.short for t in tiles])), float(np.median([t.long for t in tiles])))
    log.debug("found %d tiles, median %.0f×%.0f px", len(tiles), size.width, size.height)
    return FindResult(tuple(t.tile for t in tiles), size)


def alone_if_sure(extra: list[Look], tiles: list[Look], least_face_score: float) -> list[Look]:
    """The ``extra`` finds that lie where one of ``tiles`` lies, and those apart from every one
    of them whose verifier score is at least ``least_face_score`` (all, with no verifier),
    marked ``second_look_only``."""
    centres = quad_centres([t.tile.corners for t in tiles]) if tiles else np.zeros((0, 2))
    shorts = np.array([t.short for t in tiles])
    kept = []
    for find in extra:
        apart = np.linalg.norm(centres - find.tile.corners.mean(axis=0), axis=1)
        if np.any(apart < _SAME_TILE * np.minimum(shorts, find.short)):
            kept.append(find)
        elif surely_a_face(find.tile, least_face_score):
            alone = FoundTile(find.tile.corners, find.tile.sideways, find.tile.face_score, second_look_only=True)
            kept.append(Look(alone, find.long, find.short, find.score))
    return kept


def surely_a_face(tile: FoundTile, least_face_score: float) -> bool:
    """Whether the verifier scored ``tile`` at least ``least_face_score`` (every find, where
    no verifier looked)."""
    return tile.face_score is None or tile.face_score >= least_face_score


def one_per_tile(tiles: list[Look]) -> list[Look]:
    """One find per tile: no tile inside another, and of several finds in one place the surest.

    A look finer than a tile's own scale may still fire on its glyphs (a circle of 9p, a
    character): a smaller find whose centre lies inside a larger one's face is a part of it,
    unless the larger find is much less sure than the part. Parts go first, so that a glyph a
    little surer than its tile cannot push the tile out as "the same place". A coarse look
    may also see a tight clump of tiles as one large tile (:func:`_blocks`): such a block is
    dropped, and takes no tile as its part."""
    if not tiles:
        return []
    centres = quad_centres([t.tile.corners for t in tiles])
    longs = np.array([t.long for t in tiles])
    shorts = np.array([t.short for t in tiles])
    # Every pair's centre distance at once ([i, j]: from find i to find j).
    apart = np.linalg.norm(centres[None, :, :] - centres[:, None, :], axis=2)
    whole = _whole(tiles, centres, longs, apart, frozenset())
    blocks = _blocks(tiles, centres, longs, float(np.median(longs[whole])))
    if blocks:
        whole = _whole(tiles, centres, longs, apart, blocks)
    # Surest first, a find is kept when it lies apart from every find kept before it: each
    # kept find blocks the finds too near it (``apart`` is symmetric).
    too_near = ~(apart >= _SAME_TILE * np.minimum(shorts[:, None], shorts[None, :]))
    blocked = np.zeros(len(tiles), bool)
    kept: list[int] = []
    for surest in sorted(whole, key=lambda at: -tiles[at].score):
        if not blocked[surest]:
            kept.append(surest)
            blocked |= too_near[surest]
    return [tiles[at] for at in kept]


def _whole(
    tiles: list[Look], centres: np.ndarray, longs: np.ndarray, apart: np.ndarray, blocks: frozenset[int]
) -> list[int]:
    """The finds that are no part of another (``blocks`` neither count nor host; ``apart``:
    every pair's centre distance)."""
    host_at_most = _PART_HOST_AT_MOST * float(np.median(longs))
    scores = np.array([t.score for t in tiles])
    may_host = (
        (longs[None, :] > _PART_OF * longs[:, None])
        & (longs[None, :] <= host_at_most)
        & (scores[None, :] >= _PART_SCORE * scores[:, None])
        & (apart < longs[None, :] / 2)
    )
    if blocks:
        may_host[:, list(blocks)] = False
    return [
        index
        for index, hosted in enumerate(np.any(may_host, axis=1).tolist())
        if index not in blocks and not (hosted and _inside_any(centres[index], tiles, np.flatnonzero(may_host[index])))
    ]


def _inside_any(point: np.ndarray, tiles: list[Look], hosts: np.ndarray) -> bool:
    return any(_inside_face(point, tiles[host].tile.corners) for host in hosts)


def _blocks(tiles: list[Look], centres: np.ndarray, longs: np.ndarray, typical: float) -> frozenset[int]:
    """The finds that are clumps of tiles, not tiles: a face at least ``_BLOCK_LONG`` times
    the typical tile's long edge (``typical``: the median of the finds that are no part of
    another, so that glyphs do not set it) holding the centres of ``_BLOCK_HOLDS`` or more
    finds of about the typical size. A coarse look sees a tight clump of dark tiles (2×2,
    3×3) as one tile three or four times as long; as a host it would take its tiles as its
    parts. A near tile's glyphs are far smaller than the frame's typical tile and do not
    count."""
    sized = np.flatnonzero((longs >= _BLOCK_OF[0] * typical) & (longs <= _BLOCK_OF[1] * typical))
    return frozenset(
        index
        for index, tile in enumerate(tiles)
        if tile.long >= _BLOCK_LONG * typical
        and sum(1 for at in sized if _inside_face(centres[at], tile.tile.corners)) >= _BLOCK_HOLDS
    )


def _inside_face(point: np.ndarray, corners: np.ndarray) -> bool:
    return (
        cv2.pointPolygonTest(corners.astype(np.float32).reshape(-1, 1, 2), (float(point[0]), float(point[1])), False)
        > 0
    )
