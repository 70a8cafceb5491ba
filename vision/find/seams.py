"""Cutting a blob of touching tiles into tiles, using the known tile size and the seams between them.

The blob is first turned upright into its own frame (its minimum-area rectangle), where rows
of tiles run along an axis. Along a row, every column gets a seam score: how much the mask
thins there (rounded corners and gaps) plus how strongly the brightness changes across the
column in most rows (a tile's edge runs the full height; a symbol's strokes do not). A small
dynamic programme then picks the cuts that maximise the seam score with every piece as long
as an upright tile is wide or a sideways tile is long.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

_LENGTH_TOLERANCE: Final = 0.16  # a piece may be this much longer or shorter than a tile edge
_SIDEWAYS_FILL_WEIGHT: Final = 4.0  # weight of "a sideways piece is as short across as a tile is wide"
_END_SLACK: Final = 0.15  # how far in from the blob's ends a row may start or stop (tile widths)
_COARSE_WIDTH: Final = 14  # tiles wider than this many pixels are first cut on a coarser grid
_LENGTH_PRIOR: Final = 1.5  # weight of "a piece is as long as a tile": where seams are faint, even spacing wins


@dataclass(frozen=True, slots=True)
class TileSize:
    """A tile's top face in image pixels (short and long edge)."""

    width: float
    height: float


def seam_profile(gray: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Seam score per column of an upright blob crop (float32, about 0..2).

    A seam is a thin line darker than both sides (a bevel, a gap showing shadowed felt) or
    lighter than both (felt between dark tiles), in most rows of the blob.
    """
    occupancy = (mask > 0).mean(axis=0)
    occupancy = occupancy / max(float(occupancy.max()), 1e-6)
    rows = (mask > 0).mean(axis=1) > 0.5
    if not rows.any():
        return np.zeros(mask.shape[1], np.float32)
    smooth = cv2.GaussianBlur(gray, (0, 0), sigmaX=0.8)[rows]
    step = 3
    left = np.pad(smooth, ((0, 0), (step, 0)), mode="edge")[:, :-step]
    right = np.pad(smooth, ((0, 0), (0, step)), mode="edge")[:, step:]
    valley = np.minimum(left, right) - smooth
    ridge = smooth - np.maximum(left, right)
    line = np.median(np.maximum(np.maximum(valley, ridge), 0.0), axis=0)
    line = line / max(float(np.percentile(line, 98)), 6.0)
    return np.asarray(np.clip(line, 0, 1.5) + (1.0 - occupancy), np.float32)


def cut_row(
    profile: np.ndarray, extent: np.ndarray, size: TileSize, *, allow_sideways: bool = True
) -> list[tuple[int, int, bool]]:
    """Pieces ``(start, end, sideways)`` along a row of ``len(profile)`` columns.

    ``extent`` is the fraction of the row's height the mask fills in each column; a sideways
    tile fills about width/height of it, an upright one all of it. Large tiles are cut on a
    coarser grid first (the programme's cost grows with the row's length in pixels), then
    each cut moves to the strongest seam near it.
    """
    factor = max(1, int(size.width // _COARSE_WIDTH))
    if factor == 1:
        return _cut_row(profile, extent, size, allow_sideways)
    bins = len(profile) // factor
    if bins < 2:
        return [(0, len(profile), False)]
    coarse_profile = profile[: bins * factor].reshape(bins, factor).max(axis=1)
    coarse_extent = extent[: bins * factor].reshape(bins, factor).mean(axis=1)
    coarse_size = TileSize(size.width / factor, size.height / factor)
    coarse = _cut_row(coarse_profile, coarse_extent, coarse_size, allow_sideways)
    cuts = [0] + [_refine(profile, end * factor, factor) for _, end, _ in coarse[:-1]] + [len(profile)]
    turned = [sideways for _, _, sideways in coarse]
    return [(a, b, t) for (a, b), t in zip(itertools.pairwise(cuts), turned, strict=True) if b > a]


def _refine(profile: np.ndarray, cut: int, radius: int) -> int:
    low, high = max(cut - radius, 1), min(cut + radius + 1, len(profile) - 1)
    return low + int(np.argmax(profile[low:high])) if high > low else cut


def _cut_row(
    profile: np.ndarray, extent: np.ndarray, size: TileSize, allow_sideways: bool
) -> list[tuple[int, int, bool]]:
    length = len(profile)
    lengths = [(n, sideways) for n, sideways in _piece_lengths(size) if allow_sideways or not sideways]
    best = np.full(length + 1, -np.inf)
    # The row may start a little in from the blob's edge: the end tile's side is in the blob.
    start_slack = min(int(size.width * _END_SLACK), length)
    best[: start_slack + 1] = 0.0
    back: list[tuple[int, bool]] = [(-1, False)] * (length + 1)
    cumulative = np.concatenate([[0.0], np.cumsum(extent)])
    sideways_fill = size.width / size.height
    baseline = float(np.median(profile))  # every cut must earn its place: no bonus for cutting more
    pieces = np.array([n for n, _ in lengths])
    turned = np.array([sideways for _, sideways in lengths])
    # The parts of a piece's score that depend only on its length and kind.
    nominal = np.where(turned, size.height, size.width)
    length_cost = _LENGTH_PRIOR * np.abs(pieces - nominal) / nominal
    expected_fill = np.where(turned, sideways_fill, 1.0)
    cut_gain = np.append(profile - baseline, 1.0)  # ending exactly at the blob's end is free
    for end in range(int(pieces.min()), length + 1):
        starts = end - pieces
        usable = starts >= 0
        if not usable.any():
            continue
        starts_ok = starts[usable]
        fill = (cumulative[end] - cumulative[starts_ok]) / pieces[usable]
        scores = (
            best[starts_ok]
            + cut_gain[end]
            - _SIDEWAYS_FILL_WEIGHT * np.abs(fill - expected_fill[usable])
            - length_cost[usable]
        )
        choice = int(np.argmax(scores))
        if np.isfinite(scores[choice]) and scores[choice] > best[end]:
            best[end] = scores[choice]
            back[end] = (int(starts_ok[choice]), bool(turned[usable][choice]))
    found_end = _best_end(best, size)
    if found_end is None:
        return [(0, length, False)]
    end = found_end
    cut: list[tuple[int, int, bool]] = []
    while back[end][0] >= 0:
        start, sideways = back[end]
        cut.append((start, end, sideways))
        end = start
    return cut[::-1] or [(0, length, False)]


def _piece_lengths(size: TileSize) -> list[tuple[int, bool]]:
    lengths = []
    for edge, sideways in ((size.width, False), (size.height, True)):
        low = max(int(edge * (1 - _LENGTH_TOLERANCE)), 2)
        high = int(np.ceil(edge * (1 + _LENGTH_TOLERANCE)))
        lengths += [(n, sideways) for n in range(low, high + 1)]
    return lengths


def _best_end(best: np.ndarray, size: TileSize) -> int | None:
    """The row may end a little short of the blob (a ragged mask edge): take the best nearby end."""
    length = len(best) - 1
    slack = int(size.width * _END_SLACK)
    window = best[max(length - slack, 1) :]
    if not np.isfinite(window).any():
        return None
    return max(length - slack, 1) + int(np.argmax(window))
