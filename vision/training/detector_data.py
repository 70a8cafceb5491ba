"""Training frames for the tile-centre detector: rendered tables, scaled as the run time
scales them, with target maps made from the renderer's exact face corners.

Targets per output cell (channels as :data:`vision.find.centres.CHANNELS`, plus a weight):
the heat map is a Gaussian bump per face centre (σ a sixth of the face's short edge, at
least half a cell; overlapping bumps keep the larger), and the size, orientation, offset and
sideways targets are written on every cell where a tile's bump is above one half, the tile
whose bump is largest there winning. Their losses are weighted by that bump.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from vision.find.centres import STRIDE, net_input
from vision.render.renderer import RenderOptions, render_table, with_art
from vision.render.tile_art import ArtStyle
from vision.render.tile_palette import Palette, palette_of_table
from vision.training.face_mix import NO_FACE_STYLES, FaceMix
from vision.training.processes import starmap_jobs

log = logging.getLogger(__name__)

FRAME_SIZE = (1920, 1080)
TRAIN_PX_PER_MM = (1.0, 2.9)  # a little wider than the benchmark's 1.3-2.6 on both sides
TARGET_CHANNELS = 9  # heat, offset x/y, log long/short, cos2, sin2, sideways, regression weight


@dataclass(frozen=True, eq=False)
class FrameSet:
    inputs: np.ndarray  # N×H×W×3 uint8 BGR, the network's padded input
    targets: np.ndarray  # N×9×(H/STRIDE)×(W/STRIDE) float16
    truths: tuple[tuple[np.ndarray, ...], ...]  # per frame: the true faces' corners in input pixels
    sideways: tuple[tuple[bool, ...], ...]


def detector_training_art(seed: int) -> ArtStyle | Palette:
    """Half the detector's tables in the lightness-inverted regular art (dark-faced sets are
    the hard ones to find on dark felt), a quarter regular, a quarter in a random palette.
    (The classifier's mix, half palettes, cost the detector recall on the held-out dark style:
    0.986 → 0.965 at a single look.)"""
    turn = seed % 4
    if turn in (1, 3):
        return ArtStyle.REGULAR_DARK
    if turn == 0:
        return ArtStyle.REGULAR
    return palette_of_table(seed)


def render_frames(
    seeds: range,
    style: ArtStyle | None = None,
    px_per_mm: tuple[float, float] = TRAIN_PX_PER_MM,
    jobs: int = 1,
    mix: FaceMix = NO_FACE_STYLES,
) -> FrameSet:
    """One frame per seed, in ``style`` (default: :func:`detector_training_art` with the face
    styles of ``mix``, by default none), drawn by ``jobs`` processes (the frames are the same
    whatever the count)."""
    work = [(seed, style, px_per_mm, mix) for seed in seeds]
    frames = starmap_jobs(_render_frame, work, jobs, progress="rendered frames")
    return FrameSet(
        np.stack([f[0] for f in frames]),
        np.stack([f[1] for f in frames]),
        tuple(f[2] for f in frames),
        tuple(f[3] for f in frames),
    )


def _render_frame(
    seed: int, style: ArtStyle | None, px_per_mm: tuple[float, float], mix: FaceMix
) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, ...], tuple[bool, ...]]:
    art = style or mix.art(seed, detector_training_art(seed))
    strokes = 0.0 if style else mix.strokes(seed)
    table = render_table(seed, with_art(RenderOptions(FRAME_SIZE, px_per_mm=px_per_mm), art, strokes))
    ready = net_input(table.image)
    corners = tuple(t.corners * ready.scale for t in table.truths)
    targets = target_maps(ready.pixels.shape[:2], table.truths, ready.scale)
    return ready.pixels, targets, corners, tuple(t.sideways for t in table.truths)


class FaceTruth(Protocol):
    """What the targets are made from: a face's corners (face order) and whether it lies sideways."""

    @property
    def corners(self) -> np.ndarray: ...

    @property
    def sideways(self) -> bool: ...


def target_maps(input_shape: tuple[int, int], truths: Sequence[FaceTruth], scale: float) -> np.ndarray:
    """The 9×h×w float16 targets of one frame (input pixels = frame pixels × ``scale``)."""
    grid_h, grid_w = input_shape[0] // STRIDE, input_shape[1] // STRIDE
    maps = np.zeros((TARGET_CHANNELS, grid_h, grid_w), np.float32)
    ys, xs = np.mgrid[0:grid_h, 0:grid_w].astype(np.float32)
    for truth in truths:
        corners = truth.corners * scale
        centre = corners.mean(axis=0) / STRIDE  # in cells; cell (j, i) covers [j, j+1) × [i, i+1)
        long = float(np.linalg.norm(corners[0] - corners[3]) + np.linalg.norm(corners[1] - corners[2])) / 2
        short = float(np.linalg.norm(corners[0] - corners[1]) + np.linalg.norm(corners[3] - corners[2])) / 2
        up = (corners[0] + corners[1] - corners[2] - corners[3]) / 2  # the face's up vector
        axis = np.arctan2(up[0], -up[1])  # clockwise from the image's up
        sigma = max(0.5, short / STRIDE / 6)
        x0, x1 = max(0, int(centre[0] - 3 * sigma)), min(grid_w, int(centre[0] + 3 * sigma) + 2)
        y0, y1 = max(0, int(centre[1] - 3 * sigma)), min(grid_h, int(centre[1] + 3 * sigma) + 2)
        if x0 >= x1 or y0 >= y1:
            continue
        # The bump is centred on the cell that holds the centre, so its peak is exactly 1 there.
        cell = np.floor(centre)
        patch_x, patch_y = xs[y0:y1, x0:x1], ys[y0:y1, x0:x1]
        bump = np.exp(-((patch_x - cell[0]) ** 2 + (patch_y - cell[1]) ** 2) / (2 * sigma**2))
        heat = maps[0, y0:y1, x0:x1]
        wins = (bump > heat) & (bump > 0.5)
        maps[0, y0:y1, x0:x1] = np.maximum(heat, bump)
        values = (
            centre[0] - patch_x,
            centre[1] - patch_y,
            np.log(long),
            np.log(short),
            np.cos(2 * axis),
            np.sin(2 * axis),
            float(truth.sideways),
            bump,
        )
        for channel, value in enumerate(values, start=1):
            region = maps[channel, y0:y1, x0:x1]
            region[wins] = np.asarray(value)[wins] if np.ndim(value) else value
    return maps.astype(np.float16)


_DATA_VERSION = "v3"  # in cached file names: the art mix changed in v2 and v3; older frames are not reused


def cached_frames(
    seeds: range, cache: str | None, jobs: int = 1, mix: FaceMix = NO_FACE_STYLES
) -> tuple[np.ndarray, np.ndarray]:
    """Inputs and targets of the training seeds, rendered in chunks of 20 (by ``jobs``
    processes) with the face styles of ``mix`` and, with ``cache``, kept there as ``.npz``
    files named by their seeds and face styles (a rerun or a second process reuses them)."""
    from pathlib import Path  # noqa: PLC0415 - only the cache needs it

    inputs, targets = [], []
    for first in range(seeds.start, seeds.stop, 20):
        chunk = range(first, min(first + 20, seeds.stop))
        name = f"frames-{_DATA_VERSION}-{chunk.start}-{chunk.stop}{mix.cache_tag()}.npz"
        path = Path(cache) / name if cache else None
        if path is not None and path.is_file():
            stored = np.load(path)
            inputs.append(stored["inputs"])
            targets.append(stored["targets"])
            continue
        frames = render_frames(chunk, jobs=jobs, mix=mix)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            np.savez(path.with_suffix(".tmp.npz"), inputs=frames.inputs, targets=frames.targets)
            path.with_suffix(".tmp.npz").rename(path)
        inputs.append(frames.inputs)
        targets.append(frames.targets)
    return np.concatenate(inputs), np.concatenate(targets)


def sideways_cells_of(targets: np.ndarray) -> list[np.ndarray]:
    """Per frame, the (row, column) cells where a sideways tile's centre lies."""
    return [np.argwhere((frame[0] >= 0.99) & (frame[7] > 0.5)) for frame in targets]


def window_around(
    cells: list[np.ndarray],
    frame: int,
    shape: tuple[int, ...],
    size: int,
    *,
    rng: np.random.Generator,
    fallback: tuple[int, int],
) -> tuple[int, int]:
    """A window's top-left corner (on the stride grid) that holds one of the frame's sideways
    tiles somewhere inside it; ``fallback`` when the frame has none."""
    if not len(cells[frame]):
        return fallback
    row, column = cells[frame][int(rng.integers(0, len(cells[frame])))] * STRIDE
    y = int(np.clip(row - rng.integers(STRIDE * 2, size - STRIDE * 2), 0, shape[0] - size)) // STRIDE * STRIDE
    x = int(np.clip(column - rng.integers(STRIDE * 2, size - STRIDE * 2), 0, shape[1] - size)) // STRIDE * STRIDE
    return y, x
