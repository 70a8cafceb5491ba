"""Training crops for the sideways judge (:mod:`vision.detect.sideways_judge`): rendered tables in the
detector's art mix, each tile cut the way the run time cuts it.

Two kinds of crop per table:

- **as found**: the shipped detector's tiles, each cut about its found centre along the row
  axis its neighbours give (:func:`vision.detect.sideways_judge.row_axes`), labelled by the true
  tile it matches. These carry the run time's own errors: centres a little off, a row axis
  pulled by a wrong neighbour, tiles found a quarter turned.
- **true, jittered**: true tiles cut about their true centre moved up to
  :data:`CENTRE_JITTER` of a face width, their row's axis turned up to
  :data:`AXIS_JITTER_DEG` and the scale changed up to :data:`SCALE_JITTER`; every sideways tile
  :data:`SIDEWAYS_COPIES` times (they are ~3% of tiles), an upright one with probability
  :data:`UPRIGHT_SHARE`.

Each table's random draws come from its own seed, so any split of the seeds across processes
gives the same crops.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.detect.sideways_judge import INPUT_SIZE, ROW_REACH, long_axis_degrees, row_axes, row_crop, tile_long_of
from vision.detect.still_photo import shipped_learnt_finder
from vision.eval.matching import match_quads
from vision.render.renderer import RenderOptions, TileTruth, render_table, with_art
from vision.render.tile_art import ArtStyle
from vision.render.tile_palette import Palette
from vision.training.detector_data import FRAME_SIZE, TRAIN_PX_PER_MM, detector_training_art

log = logging.getLogger(__name__)

CENTRE_JITTER = 0.25
AXIS_JITTER_DEG = 6.0
SCALE_JITTER = 0.1
SIDEWAYS_COPIES = 4
UPRIGHT_SHARE = 0.15
_DATA_VERSION = "v3"  # v2: row axes set square to the tile's own edges; v3: 2.8 tile lengths at 48 px


@dataclass(frozen=True, eq=False)
class SidewaysSet:
    crops: np.ndarray  # N×size×size×3 uint8 BGR
    sideways: np.ndarray  # N bool
    as_found: np.ndarray  # N bool: cut where the detector found the tile (else a jittered true cut)

    def __len__(self) -> int:
        return len(self.sideways)

    @staticmethod
    def joined(parts: list[SidewaysSet]) -> SidewaysSet:
        """The parts' crops one after the other, in order."""
        return SidewaysSet(
            np.concatenate([p.crops for p in parts]),
            np.concatenate([p.sideways for p in parts]),
            np.concatenate([p.as_found for p in parts]),
        )


def table_crops(
    seed: int,
    art: ArtStyle | Palette | None = None,
    px_per_mm: tuple[float, float] = TRAIN_PX_PER_MM,
    *,
    jittered: bool = True,
) -> SidewaysSet:
    """The crops of one table in ``art`` (default: :func:`detector_training_art`); without
    ``jittered``, the crops as found only (what the run time sees, for checks)."""
    rng = np.random.default_rng(seed + 31_000_000)
    options = with_art(RenderOptions(FRAME_SIZE, px_per_mm=px_per_mm), art or detector_training_art(seed))
    table = render_table(seed, options)
    crops: list[np.ndarray] = []
    labels: list[bool] = []
    found_flags: list[bool] = []
    found = shipped_learnt_finder(half_octaves=False).find(table.image).tiles
    if found and table.truths:
        quads, calls = [f.corners for f in found], [f.sideways for f in found]
        tile_long = tile_long_of(quads)
        axes, has_row = row_axes(quads, calls, tile_long)
        width = float(np.median([np.linalg.norm(t.corners[1] - t.corners[0]) for t in table.truths]))
        for match in match_quads([t.corners for t in table.truths], quads, width):
            if has_row[match.found]:
                quad = quads[match.found]
                crops.append(row_crop(table.image, quad.mean(axis=0), axes[match.found], tile_long))
                labels.append(table.truths[match.truth].sideways)
                found_flags.append(True)
    for truth in _truths_in_rows(table.truths) if jittered else []:
        copies = SIDEWAYS_COPIES if truth.sideways else int(rng.random() < UPRIGHT_SHARE)
        for _ in range(copies):
            crops.append(_jittered_crop(table.image, truth, rng))
            labels.append(truth.sideways)
            found_flags.append(False)
    if not crops:
        return SidewaysSet(np.zeros((0, INPUT_SIZE, INPUT_SIZE, 3), np.uint8), np.zeros(0, bool), np.zeros(0, bool))
    return SidewaysSet(np.stack(crops), np.array(labels, bool), np.array(found_flags, bool))


def _truths_in_rows(truths: tuple[TileTruth, ...]) -> list[TileTruth]:
    if len(truths) < 2:
        return []
    centres = np.array([t.centre for t in truths])
    tile_long = tile_long_of([t.corners for t in truths])
    distances = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2)
    np.fill_diagonal(distances, np.inf)
    return [t for t, near in zip(truths, distances.min(axis=1) < ROW_REACH * tile_long, strict=True) if near]


def _jittered_crop(image: np.ndarray, truth: TileTruth, rng: np.random.Generator) -> np.ndarray:
    across = truth.corners[1] - truth.corners[0]
    down = truth.corners[3] - truth.corners[0]
    width = float(np.linalg.norm(across))
    long = float(np.linalg.norm(down))
    shift = rng.uniform(-CENTRE_JITTER, CENTRE_JITTER, 2) * width
    centre = truth.centre + shift[0] * across / width + shift[1] * down / long
    axis = long_axis_degrees(truth.corners) + (90.0 if truth.sideways else 0.0) + rng.normal(0.0, AXIS_JITTER_DEG)
    scale = rng.uniform(1.0 - SCALE_JITTER, 1.0 + SCALE_JITTER)
    return row_crop(image, centre, axis, long * scale)


def sideways_crops(seeds: range, cache: str | None = None) -> SidewaysSet:
    """The crops of every seed's table, rendered in chunks of 50 and, with ``cache``, kept there
    as ``.npz`` files named by their seeds (a rerun or a second process reuses them)."""
    parts = []
    for first in range(seeds.start, seeds.stop, 50):
        chunk = range(first, min(first + 50, seeds.stop))
        path = Path(cache) / f"sideways-{_DATA_VERSION}-{chunk.start}-{chunk.stop}.npz" if cache else None
        if path is not None and path.is_file():
            stored = np.load(path)
            parts.append(SidewaysSet(stored["crops"], stored["sideways"], stored["as_found"]))
            continue
        part = SidewaysSet.joined([table_crops(seed) for seed in chunk])
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            np.savez(path.with_suffix(".tmp.npz"), crops=part.crops, sideways=part.sideways, as_found=part.as_found)
            path.with_suffix(".tmp.npz").rename(path)
        log.info("rendered sideways crops of tables %d-%d", chunk.start, chunk.stop - 1)
        parts.append(part)
    return SidewaysSet.joined(parts)
