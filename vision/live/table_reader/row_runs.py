"""A row's runs of touching tiles in the felt mask, and how many faces each holds.

The detector can lose a dense row's phase: a box on the seam between two faces reads one of
them surely, and the row comes out a tile short (or, a box on each half of a face, a tile
long). The felt mask says how long each run of touching tiles is; the faces found in it say
which lie sideways. A run whose length differs from its faces' by half a face or more holds
a face more (or fewer): every way of inserting an upright face (or dropping one) is laid out
along the run, for the classifier to pick the surest. Runs whose count fits keep their reads,
their faces only moved to where the run says they lie (the gaps between runs are what set
the winning tile apart from an open hand).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

from vision.live.table_reader.seat_tiles import FaceScale, Piece, centred_piece

_COVER: Final = 0.5  # a column belongs to a run when this much of the band's middle is tile
_BRIDGE_MM: Final = 4.0  # gaps narrower than this between tiles of one run are closed
_GAP_MM: Final = 1.0  # the usual gap between two tiles of a row
_WIDEST_GAP_MM: Final = 3.0
_MISFIT: Final = 0.5  # a run this many face widths longer (or shorter) than its faces holds one more (fewer)
_DOUBLED: Final = 0.25  # two faces overlapping by this many face widths are one face found twice


@dataclass(frozen=True, slots=True)
class Run:
    left: float
    right: float
    members: tuple[int, ...]  # indices of the row's faces whose centres lie in the run, left to right


def row_runs(mask: np.ndarray, top: float, pieces: Sequence[Piece], scale: FaceScale) -> list[Run]:
    """The runs of a row whose faces begin at line ``top`` of a seat's upright ``mask`` (uint8
    0/1), each with the row's ``pieces`` that lie in it. Runs holding none are left out."""
    height = mask.shape[0]
    first, last = (min(max(round(top + share * scale.height), 0), height) for share in (0.25, 0.7))
    lines = slice(first, last)
    band = mask[lines]
    if band.size == 0:
        return []
    bridge = max(round(_BRIDGE_MM * scale.px_per_mm), 1)
    closed = cv2.morphologyEx(band, cv2.MORPH_CLOSE, np.ones((1, bridge), np.uint8))
    occupied = np.concatenate([[False], closed.mean(axis=0) >= _COVER, [False]])
    changes = np.flatnonzero(np.diff(occupied.astype(np.int8)))
    runs = []
    for start, end in zip(changes[::2], changes[1::2], strict=True):
        members = sorted(
            (i for i, p in enumerate(pieces) if start - 0.25 * scale.width <= p.centre_u <= end + 0.25 * scale.width),
            key=lambda i: pieces[i].centre_u,
        )
        if members:
            runs.append(Run(float(start), float(end), tuple(members)))
    return runs


def last_set_apart(run: Run, pieces: Sequence[Piece], scale: FaceScale, widths: tuple[float, float]) -> list[Run]:
    """``run`` with its last face cut off as a run of its own when it lies ``widths`` (low,
    high: face widths) from the face before: the gap an open hand's winning tile is set apart
    by, which blur can close in the mask. Only the last: a gap inside the hand is no winning
    tile's, and a face's width or more is where a face the detector missed lies (the fitting's)."""
    if len(run.members) < 2:
        return [run]
    return _cut(run, pieces, [len(run.members) - 1] if _apart(run, len(run.members) - 1, pieces, scale, widths) else [])


def set_apart(run: Run, pieces: Sequence[Piece], scale: FaceScale, widths: tuple[float, float]) -> list[Run]:
    """``run`` cut wherever two neighbouring faces lie ``widths`` (low, high: face widths)
    apart: the gap between two melds, which blur can close in the mask. Laid out evenly along
    one run, the faces would lose it, and the melds their bounds."""
    return _cut(run, pieces, [at for at in range(1, len(run.members)) if _apart(run, at, pieces, scale, widths)])


def _apart(run: Run, at: int, pieces: Sequence[Piece], scale: FaceScale, widths: tuple[float, float]) -> bool:
    """Whether the run's face ``at`` lies ``widths`` (face widths) from the one before."""
    gap = pieces[run.members[at]].left - pieces[run.members[at - 1]].right
    return widths[0] * scale.width < gap < widths[1] * scale.width


def _cut(run: Run, pieces: Sequence[Piece], cuts: Sequence[int]) -> list[Run]:
    """``run`` cut before each of its faces ``cuts`` (indices into its members, ascending):
    each part ends at its last face's right edge, the next begins at its first face's left."""
    parts = []
    left, first = run.left, 0
    for at in cuts:
        parts.append(Run(left, pieces[run.members[at - 1]].right, run.members[first:at]))
        left, first = pieces[run.members[at]].left, at
    parts.append(Run(left, run.right, run.members[first:]))
    return parts


def misfit(run: Run, pieces: Sequence[Piece], scale: FaceScale) -> int:
    """How many faces the run holds beyond its members (negative: fewer)."""
    lengths = [pieces[i].right - pieces[i].left for i in run.members]
    spare = run.right - run.left - sum(lengths) - _GAP_MM * scale.px_per_mm * (len(lengths) - 1)
    if abs(spare) < _MISFIT * scale.width:
        return 0
    return round(spare / scale.width) or (1 if spare > 0 else -1)


def doubled(run: Run, pieces: Sequence[Piece], scale: FaceScale) -> bool:
    """Whether two neighbouring faces of the run overlap by ``_DOUBLED`` of a face's width or
    more: a face found twice (a box on each half of it), the one way a run holds a face too
    many. Faces read surely that stand side by side in a run shorter than them are all there:
    the mask missed part of one (a symbol in the felt's colour, glare), and none is to go (an
    uncertain one may be a gap's cut on a tile's side or the felt past the run's end)."""
    ordered = sorted((pieces[i] for i in run.members), key=lambda p: p.left)
    return any(a.right - b.left >= _DOUBLED * scale.width for a, b in itertools.pairwise(ordered))


def ways(sideways: Sequence[bool], extra: int) -> list[tuple[bool, ...]]:
    """Each way the run's faces may lie, left to right (True: sideways): with ``extra`` upright
    faces inserted (1 or 2: at every places), or a face left out (-1: each in turn). A run two
    faces long may hold only one more: a tile's side and a gap between two melds lengthen a
    meld row's run at the table's corners, so one more is tried too. No way for more."""
    if extra == -1:
        return [(*sideways[:at], *sideways[at + 1 :]) for at in range(len(sideways))] if len(sideways) > 1 else []
    if extra not in (1, 2):
        return [tuple(sideways)] if extra == 0 else []
    found: list[tuple[bool, ...]] = []
    for count in range(1, extra + 1):
        for places in itertools.combinations(range(len(sideways) + count), count):
            given = iter(sideways)
            way = tuple(False if at in places else next(given) for at in range(len(sideways) + count))
            if way not in found:
                found.append(way)
    return found


def ways_turned_upright(
    run: Run, pieces: Sequence[Piece], scale: FaceScale, doubtful: Sequence[bool]
) -> list[tuple[bool, ...]]:
    """More ways (``ways``) for a run longer than its faces: each of its sideways faces read
    uncertain (``doubtful``, one a member) lying upright instead, with the faces more the run
    then holds. A box across the seam of two upright faces is about a sideways face's size,
    and the judge may call it sideways: no upright face put in beside it mends that."""
    found: list[tuple[bool, ...]] = []
    for at, index in enumerate(run.members):
        piece = pieces[index]
        if not (piece.sideways and doubtful[at]):
            continue
        upright = list(pieces)
        upright[index] = centred_piece(piece.centre_u, piece.centre_v, False, scale)
        turned = [pieces[i].sideways and i != index for i in run.members]
        found += [way for way in ways(turned, max(misfit(run, upright, scale), 0)) if way not in found]
    return found


def laid_out(
    run: Run, way: Sequence[bool], top: float, scale: FaceScale, centre_u: float, *, owner_side: bool = False
) -> list[Piece]:
    """Faces lying ``way`` along the run, evenly spaced, from line ``top``; what the run holds
    beyond faces and gaps is a tile's side, which shows on the side nearer the table's centre
    (column ``centre_u``). A sideways face lies against the row's centre side, as a riichi tile
    does, or with ``owner_side`` against the owner's, as a called tile does."""
    lengths = [scale.height if turned else scale.width for turned in way]
    spare = run.right - run.left - sum(lengths)
    gap = min(max(spare / max(len(way) - 1, 1), 0.0), _WIDEST_GAP_MM * scale.px_per_mm)
    side = max(spare - gap * (len(way) - 1), 0.0)
    at = run.left + side if (run.left + run.right) / 2 > centre_u else run.left
    faces = []
    for turned, length in zip(way, lengths, strict=True):
        depth = scale.width if turned else scale.height
        start = top + scale.height - depth if owner_side else top
        faces.append(Piece(at, at + length, start, start + depth, turned))
        at += length + gap
    return faces
