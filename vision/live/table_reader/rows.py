"""Rows of tiles in a seat's upright image: where a row's faces lie across, and where each tile lies along.

Everything here works in the seat's upright image (the seat at the bottom, the centre above),
where every row runs along image x and tile faces are rectangles of a known size.

A camera sees a tile's top a little further from the point below it than the tile's footprint
(the top is 16 mm nearer the lens), and the side facing that point in between. Near the
centre that is a millimetre or two; at the table's edge five to eight. So a row's face band is
measured from its *outer* edge (the side away from the centre, where the face meets the felt),
and a run of tiles has its ends trimmed where the columns are as dark as a tile's side.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

import cv2
import numpy as np

from vision.find.seams import seam_profile

_NOTCH_PX: Final = 7
_EDGE_LINES: Final = 4
_RUN_COVER: Final = 0.5  # a column belongs to a run when this much of the band is tile
_SIDE_DARKER: Final = 0.9  # a column this much darker than the run's faces is a tile's side
_ROW_GAP_MM: Final = 1.5  # the usual gap between stacked rows
_MAX_ROW_GAP_MM: Final = 4.0
_LENGTH_SLACK: Final = 0.045  # a piece may be this much longer or shorter than a face (wobble, blur)
_LENGTH_WEIGHT: Final = 10.0
_CUE_WEIGHT: Final = 2.5
_LINES_ABOVE: Final = 4  # lines above a band the sideways cue looks at (an upright face's top edge)
_GAP_MM: Final = 3.2  # the widest gap between two tiles of one run (blur may hide it in the mask)
_GAP_COST_PER_MM: Final = 0.1
_END_SLACK_MM: Final = 3.0  # a run may start or end this far from its first or last tile


@dataclass(frozen=True, eq=False)
class SeatImage:
    """A seat's upright image: tiles (symbols' holes filled), grey levels, tiles as the colours say."""

    mask: np.ndarray  # uint8 0/1
    gray: np.ndarray
    raw: np.ndarray  # before filling: a felt pocket under a riichi tile stays felt


@dataclass(frozen=True, slots=True)
class FaceScale:
    """A face's size in seat-image pixels, and the image's scale."""

    width: float
    height: float
    px_per_mm: float


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


def outer_edge(mask: np.ndarray, columns: slice, lines: slice, min_count: float) -> int | None:
    """The line just past the last one (counting outwards) that holds tiles: at least ``min_count``
    tile pixels and most of the lines before it (a blurred edge's fringe is not the face)."""
    counts = mask[lines, columns].sum(axis=1).astype(np.float32)
    present = np.nonzero(counts >= min_count)[0]
    if len(present) == 0:
        return None
    last = int(present[-1])
    while last > 0:
        before = counts[max(last - 8, 0) : last]
        if counts[last] >= 0.6 * float(np.median(before)):
            break
        last -= 1
    return int((lines.start or 0) + last + 1)


def stacked_rows(
    mask: np.ndarray,
    columns: slice,
    lines: slice,
    scale: FaceScale,
    *,
    max_rows: int,
    side_mm: float,
) -> list[tuple[int, int]]:
    """Face bands ``(top, bottom)`` of rows stacked towards the centre, the outermost first.

    The rows fill the tiles' extent from their outer edge (where the faces end) to their inner
    edge (where the innermost row's side begins): as many rows as fit, evenly spaced. Seams
    between rows are too faint to trust under the symbols' own edges; the spacing is not."""
    bottom = outer_edge(mask, columns, lines, 0.5 * scale.width)
    if bottom is None:
        return []
    counts = mask[lines, columns].sum(axis=1)
    present = np.nonzero(counts >= 0.5 * scale.width)[0]
    top = int((lines.start or 0) + present[0])
    inner = top + side_mm * scale.px_per_mm  # the innermost row's faces begin here
    gap = _ROW_GAP_MM * scale.px_per_mm
    count = int(np.clip(round((bottom - inner + gap) / (scale.height + gap)), 1, max_rows))
    # A sideways tile alone in the outermost row's first columns lies against the row's inner
    # side: the tiles end a face's height less its width early there.
    short = scale.height - scale.width
    # Rows are never closer than a face's height (a row further in is a face height plus a gap away).
    if count == 1 and bottom - inner < scale.height - 1:
        bottom = round(inner + scale.height)
    elif count > 1 and (bottom - inner - scale.height) / (count - 1) < scale.height - 1:
        bottom = round(bottom + short)
    pitch = (bottom - inner - scale.height) / (count - 1) if count > 1 else 0.0
    pitch = float(np.clip(pitch, scale.height, scale.height + _MAX_ROW_GAP_MM * scale.px_per_mm))
    return [(round(bottom - i * pitch - scale.height), round(bottom - i * pitch)) for i in range(count)]


class Alignment(StrEnum):
    """Which side of its row a sideways tile lies against: ponds the centre's, melds the owner's."""

    CENTRE = "centre"
    OWNER = "owner"


def cut_band(
    image: SeatImage,
    band: tuple[int, int],
    columns: slice,
    scale: FaceScale,
    centre_u: float,
    *,
    sideways: Alignment | None,
    close_notches: bool = True,
) -> list[Piece]:
    """The tiles of one row, left to right; ``band`` is an upright face's extent across.
    ``sideways``: where a sideways tile would lie in the band (``None``: every tile is upright)."""
    mask, gray = image.mask, image.gray
    top, bottom = max(band[0], 0), band[1]
    sub_mask = mask[top:bottom, columns]
    sub_gray = gray[top:bottom, columns]
    if sub_mask.size == 0 or bottom - top < scale.height * 0.8:
        return []
    offset = columns.start or 0
    cover = sub_mask.mean(axis=0)
    if close_notches:
        # Symbols the felt's colour (a blue stroke on blue felt) leave notches across a face:
        # close them along the row (not where a narrow gap means something: melds, a winning tile).
        cover = cv2.morphologyEx(sub_mask, cv2.MORPH_CLOSE, np.ones((1, _NOTCH_PX), np.uint8)).mean(axis=0)
    occupied = np.concatenate([[False], cover >= _RUN_COVER, [False]])
    changes = np.flatnonzero(np.diff(occupied.astype(np.int8)))
    above = min(top, _LINES_ABOVE)
    cue = (
        _sideways_cue(gray[top - above : bottom, columns], image.raw[top:bottom, columns], scale, sideways)
        if sideways is not None
        else None
    )
    if cue is not None and sideways is Alignment.OWNER:
        cue = np.clip(cue + 2.0 * _extent_cue(mask, bottom, columns, scale), -1.0, 1.0)
    pieces: list[Piece] = []
    runs = [(int(a), int(b)) for a, b in zip(changes[::2], changes[1::2], strict=True)]
    for run_start, run_end in runs:
        # Melds lie where sides show widest (the table's edge); elsewhere a symbol-laden column
        # must not pass for a side: judge it by its lightest part, its body between symbols.
        # (A side shows up to ~8 mm wide at the table's edge, ~3 mm nearer the centre.)
        melds = sideways is Alignment.OWNER
        side_px = (10.0 if melds else 3.5) * scale.px_per_mm
        start, end = _trim_sides(sub_gray, sub_mask, (run_start, run_end), side_px, 50 if melds else 90)
        if end - start < 0.6 * scale.width:
            continue
        profile = seam_profile(sub_gray[:, start:end], sub_mask[:, start:end] * 255)
        run_cue = cue[start:end] if cue is not None else None
        for a, b, turned in cut_run(profile, run_cue, scale):
            along = scale.height if turned else scale.width
            left, right = float(start + a + offset), float(start + b + offset)
            if right - left > along:
                # Longer than a face: it holds a side, which lies towards the centre.
                left, right = (right - along, right) if (left + right) / 2 > centre_u else (left, left + along)
            else:
                middle = (left + right) / 2
                left, right = middle - along / 2, middle + along / 2
            pieces.append(Piece(left, right, float(band[0]), float(band[1]), turned))
    return pieces


def _sideways_cue(gray: np.ndarray, mask: np.ndarray, scale: FaceScale, alignment: Alignment) -> np.ndarray:
    """Per column, -1..1: how much the column looks like a sideways tile's rather than an upright one's.

    A sideways tile is a width deep, so past it, where an upright face would go on, lies
    something else. In a pond (tiles against the centre side) that strip is felt: a row further
    out shows only its thin side at the strip's far end. In a meld (against the owner's side)
    it holds the tile's own side, darker than its face, or felt, or an added kan's tile beyond
    a thin seam."""
    depth = gray.shape[0]
    if alignment is Alignment.CENTRE:
        # Past a pond's sideways face: felt (in the tile's shadow, where dark felt's colour is
        # unsure), or at most the next row's thin side at the far end; never a light face.
        # (Blur spreads the face's edge by a millimetre or two: look past that.)
        free = round(scale.width + 2.5 * scale.px_per_mm)
        end = max(len(mask) - 1, free + 1)
        tile = mask[free:end] > 0
        if tile.size == 0:
            return np.zeros(mask.shape[1], np.float32)
        return np.asarray(1.0 - 2.0 * tile.mean(axis=0), np.float32)
    # In a meld the sideways face's free edge, a width in from the owner's side, runs across
    # the tile with the face below and its side, felt or a seam above; an upright face's top
    # edge is a height in. Smoothed along the row, such edges stay and symbols' short ones fade.
    smooth = cv2.blur(gray.astype(np.float32), (max(round(scale.width / 2), 1), 1))
    rows_above = depth - mask.shape[0]  # ``gray`` reaches a few lines further in than the band
    sideways_edge = _face_edge(smooth, depth - round(scale.width))
    upright_edge = _face_edge(smooth, rows_above)
    return np.asarray(np.clip((sideways_edge - upright_edge) / 30.0, -1.0, 1.0), np.float32)


def extent_runs(mask: np.ndarray, bottom: int, columns: slice, reach: int) -> np.ndarray:
    """Per column, how many lines of tile run in from ``bottom`` (towards the centre, at most
    ``reach``); a line or two of edge blur between a face and its side is closed."""
    window = mask[max(bottom - reach, 0) : bottom, columns]
    closed = cv2.morphologyEx(window, cv2.MORPH_CLOSE, np.ones((5, 1), np.uint8))[::-1].copy()
    # The row's edge is where most columns end: a column's own edge may lie a few lines short of it.
    closed[:_EDGE_LINES] = closed[:_EDGE_LINES].max(axis=0)
    return np.asarray(np.cumprod(closed, axis=0).sum(axis=0), np.float32)


def _extent_cue(mask: np.ndarray, bottom: int, columns: slice, scale: FaceScale) -> np.ndarray:
    """Per column, -1..1: a meld's tile reaches in from the row's outer edge a face's height
    (upright) or width (sideways), plus its side that shows on the centre side: at the table's
    edge the side may fill the part of the band a sideways face leaves, but not reach past it.
    The side's depth is taken from the row's usual column (most of a meld's tiles are upright);
    a column reaching well past an upright tile holds an added kan's tile over a sideways one."""
    runs = extent_runs(mask, bottom, columns, round(2.5 * scale.height))
    tiled = runs[runs > 0.5 * scale.width]
    if tiled.size == 0:
        return np.zeros(len(runs), np.float32)
    upright = max(float(np.median(tiled)), scale.height)
    half = (scale.height - scale.width) / 2
    cue = np.clip((upright - half - runs) / half, -1.0, 1.0)
    return np.asarray(np.where(runs > upright + 0.6 * scale.width, 1.0, cue), np.float32)


def _face_edge(smooth: np.ndarray, line: int) -> np.ndarray:
    """Per column: how much lighter the lines just below ``line`` are than those just above (±1)."""
    best = np.full(smooth.shape[1], -np.inf, np.float32)
    for at in (line - 1, line, line + 1):
        if at < 3 or at > len(smooth) - 3:
            continue
        step = smooth[at + 1 : at + 3].mean(axis=0) - smooth[at - 3 : at - 1].mean(axis=0)
        best = np.maximum(best, step)
    return np.where(np.isfinite(best), best, 0.0).astype(np.float32)


def cut_run(profile: np.ndarray, cue: np.ndarray | None, scale: FaceScale) -> list[tuple[int, int, bool]]:
    """Pieces ``(start, end, sideways)`` of a run of touching tiles, by a dynamic programme:
    every piece as long as a face (upright: its width; sideways: its height, when ``cue`` is
    given), cuts on strong seams, small gaps allowed between pieces, sideways pieces where the
    cue says so. Solved a block of columns at a time: no piece is shorter than a block."""
    length = len(profile)
    kinds = [(scale.width, False)] + ([(scale.height, True)] if cue is not None else [])
    candidates = [
        (n, turned, nominal)
        for nominal, turned in kinds
        for n in range(int(nominal * (1 - _LENGTH_SLACK)), int(np.ceil(nominal * (1 + _LENGTH_SLACK))) + 1)
    ]
    lengths = np.array([n for n, _, _ in candidates])
    turned = np.array([t for _, t, _ in candidates])
    nominals = np.array([nominal for _, _, nominal in candidates])
    shortest = int(lengths.min())
    if length < shortest:
        return [(0, length, False)] if length >= 0.6 * scale.width else []
    # Every cut must earn its place: a seam scores what it stands out of the run's usual column.
    baseline = float(np.median(profile))
    cut = np.append(profile - baseline, 1.0)  # ending exactly at the run's end costs nothing
    cut[0] = max(cut[0], 1.0)
    cue_sum = np.concatenate([[0.0], np.cumsum(cue)]) if cue is not None else np.zeros(length + 1)
    gap = max(1, round(_GAP_MM * scale.px_per_mm))
    gap_cost = _GAP_COST_PER_MM / scale.px_per_mm
    start_slack = round(_END_SLACK_MM * scale.px_per_mm)
    best = np.full(length + 1, -np.inf)
    best[: start_slack + 1] = 0.0
    # reach[s]: the best score of anything ending at most ``gap`` columns before s (and where).
    reach = np.full(length + 1, -np.inf)
    reach_from = np.zeros(length + 1, np.int64)
    back_piece = np.full(length + 1, -1)
    back_start = np.full(length + 1, -1)
    length_cost = _LENGTH_WEIGHT * np.abs(lengths - nominals) / nominals
    sign = np.where(turned, 1.0, -1.0)
    settled = 0
    for block in range(shortest, length + 1, shortest):
        # Every start a piece ending in this block can have is settled: bring ``reach`` up to it.
        if block > settled:
            # Every s in settled..block-1 looks back over best[s - gap .. s], the gap charged.
            padded = np.concatenate([np.full(gap, -np.inf), best[:block]])
            windows = np.lib.stride_tricks.sliding_window_view(padded, gap + 1)[settled:block]
            charged = windows - gap_cost * np.arange(gap, -1, -1)
            picks = charged.argmax(axis=1)
            positions = np.arange(settled, block)
            reach_from[settled:block] = np.maximum(positions - gap + picks, 0)
            reach[settled:block] = charged[np.arange(len(positions)), picks]
        settled = block
        ends = np.arange(block, min(block + shortest, length + 1))
        starts = ends[:, None] - lengths[None, :]
        usable = starts >= 0
        safe = np.where(usable, starts, 0)
        piece_cue = (cue_sum[ends[:, None]] - cue_sum[safe]) / lengths[None, :]
        scores = reach[safe] + cut[safe] + cut[ends[:, None]] - length_cost[None, :] + _CUE_WEIGHT * sign * piece_cue
        scores = np.where(usable, scores, -np.inf)
        choice = scores.argmax(axis=1)
        chosen = scores[np.arange(len(ends)), choice]
        better = chosen > best[ends]
        best[ends[better]] = chosen[better]
        back_piece[ends[better]] = choice[better]
        back_start[ends[better]] = safe[np.arange(len(ends)), choice][better]
    end_slack = round(_END_SLACK_MM * scale.px_per_mm)
    tail_from = max(length - end_slack, 0)
    tail = best[tail_from:]
    if not np.isfinite(tail).any():
        return [(0, length, False)] if length < 1.5 * scale.width else []
    end = tail_from + int(np.argmax(tail))
    pieces: list[tuple[int, int, bool]] = []
    while back_piece[end] >= 0:
        start = int(back_start[end])
        pieces.append((start, end, bool(turned[back_piece[end]])))
        end = int(reach_from[start])
    return pieces[::-1]


def _column_percentile(values: np.ndarray, keep: np.ndarray, level: float) -> np.ndarray:
    """Each column's ``level`` percentile over its kept pixels (0 where none is kept), vectorised."""
    ordered = np.sort(np.where(keep, values.astype(np.float32), -1.0), axis=0)  # the left-out sort first
    kept = keep.sum(axis=0)
    index = len(values) - kept + np.floor((np.maximum(kept, 1) - 1) * level / 100.0).astype(np.int64)
    picked = np.take_along_axis(ordered, np.minimum(index, len(values) - 1)[None, :], axis=0)[0]
    return np.where(kept > 0, picked, 0.0)


def _trim_sides(
    gray: np.ndarray, mask: np.ndarray, run: tuple[int, int], widest: float, level: float
) -> tuple[int, int]:
    """Drop columns at a run's ends that are as dark as a tile's side (faces are brighter);
    a column's brightness is its ``level`` percentile; a side is at most ``widest`` pixels."""
    start, end = run
    if end - start < 3:
        return start, end
    bright = _column_percentile(gray[:, start:end], mask[:, start:end] > 0, level)
    reference = float(np.median(bright))
    limit = max(round(widest), 1)
    face = bright >= _SIDE_DARKER * reference
    first = int(np.argmax(face[:limit])) if face[:limit].any() else 0
    last = int(np.argmax(face[::-1][:limit])) if face[::-1][:limit].any() else 0
    return start + first, end - last
