"""A pond shows one sideways tile at most, and a meld one in its row.

A player turns the discard that declares riichi; when that tile is called, the next discard is
turned instead, so a pond never shows two. A pon, a chi or an open kan turns the called tile
(an added kan's fourth tile lies beside it, in the added row), a closed kan none. The detector
sometimes calls an upright face sideways, and a face cut across its axis can read surely as
another tile (an upright 6s cut across reads 9p at 0.6-0.9, an upright 4p 2p at 0.96-0.98): a
second riichi, a meld turned at the wrong tile, and a wrong tile a referee would act on. Where
a seat's pond, or one of its melds, reads two or more sideways tiles, each is also cut upright,
and the one that reads surest sideways against upright stays sideways; the others are upright
faces, read as cut upright (uncertain when no upright cut reads surely: a doubt, not a wrong
tile).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final

import numpy as np

from vision.classify.classifier import TileReading
from vision.detect.tile_lie import QuadReader
from vision.live.reading import Zone
from vision.live.table_reader.seat_tiles import FaceScale, centred_piece, frame_quads
from vision.live.table_reader.structure import ReadTile

#: How far a second sideways face of a pond or a meld is also cut upright either way along its
#: row, in face widths: the row was laid out with a sideways face's length there, so the upright
#: face may lie off its middle.
UPRIGHT_NUDGE: Final = 0.25


def one_turned_each(
    image: np.ndarray, reader: QuadReader, tiles: Sequence[ReadTile], scale: FaceScale, seat_to_frame: np.ndarray
) -> list[ReadTile]:
    """A seat's read tiles (melds grouped) with one sideways face at most in its pond and in
    each meld's row: where two or more read sideways, each is cut upright about its centre and
    ``UPRIGHT_NUDGE`` either way along the row, and all but :func:`turned_tile` become upright
    faces at their surest upright cut, read there. All such cuts of the seat in one batch.
    (A hand's and a wall's faces are cut upright and never turned: ``read_found``'s ``lie_known``.)"""
    groups: dict[tuple[Zone, int], list[int]] = {}
    for i, tile in enumerate(tiles):
        if tile.found.piece.sideways and (
            tile.found.zone == Zone.POND or (tile.found.zone == Zone.MELDS and tile.found.row == 0)
        ):
            groups.setdefault((tile.found.zone, tile.found.meld), []).append(i)
    turned = [group for group in groups.values() if len(group) > 1]
    if not turned:
        return list(tiles)
    step = UPRIGHT_NUDGE * scale.width
    cuts = []
    for i in (i for group in turned for i in group):
        piece = tiles[i].found.piece
        upright = centred_piece(piece.centre_u, piece.centre_v, False, scale)
        cuts += [replace(upright, left=upright.left + d, right=upright.right + d) for d in (0.0, -step, step)]
    quads = frame_quads(cuts, seat_to_frame)
    readings = reader.classify_quads(image, quads)
    out = list(tiles)
    first = 0  # the group's first cut's index among all the cuts, three a tile
    for group in turned:
        surest = [
            max(range(first + 3 * k, first + 3 * k + 3), key=lambda j: readings[j].confidence)
            for k in range(len(group))
        ]
        keep = turned_tile([tiles[i].reading for i in group], [readings[j] for j in surest])
        for k, i in enumerate(group):
            if k != keep:
                j = surest[k]
                out[i] = ReadTile(replace(tiles[i].found, piece=cuts[j]), readings[j], quads[j])
        first += 3 * len(group)
    return out


def turned_tile(as_sideways: Sequence[TileReading], as_upright: Sequence[TileReading]) -> int:
    """Of a pond's or a meld's tiles read sideways (``as_sideways``) and cut upright about the
    same centre (``as_upright``, the surest of its cuts), which one lies sideways: the one whose
    sideways reading leads its upright one most (a face cut across its real axis is squashed and
    reads badly, while a turned tile cut upright takes in half of two faces). The first of equals."""
    if len(as_sideways) != len(as_upright) or not as_sideways:
        raise ValueError(
            f"one turned tile: {len(as_sideways)} sideways readings and {len(as_upright)} upright ones: "
            "one each, at least one"
        )
    leads = [side.confidence - upright.confidence for side, upright in zip(as_sideways, as_upright, strict=True)]
    return max(range(len(leads)), key=lambda k: (leads[k], -k))
