"""Matching detections to ground truth, and the figures the benchmark and tests report."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class Match:
    truth: int  # index into the truths
    found: int  # index into the detections


def match_quads(truths: Sequence[np.ndarray], found: Sequence[np.ndarray], tile_width: float) -> list[Match]:
    """Greedy one-to-one matching by centre distance: a detection counts for a true tile when
    its centre lies within 0.4 tile widths of the true centre."""
    if not truths or not found:
        return []
    truth_centres = np.array([q.mean(axis=0) for q in truths])
    found_centres = np.array([q.mean(axis=0) for q in found])
    distances = np.linalg.norm(truth_centres[:, None, :] - found_centres[None, :, :], axis=2)
    limit = 0.4 * tile_width
    matches: list[Match] = []
    used_truth: set[int] = set()
    used_found: set[int] = set()
    for flat in np.argsort(distances, axis=None):
        t, f = divmod(int(flat), len(found))
        if distances[t, f] > limit:
            break
        if t in used_truth or f in used_found:
            continue
        used_truth.add(t)
        used_found.add(f)
        matches.append(Match(t, f))
    return matches
