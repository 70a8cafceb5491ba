"""Weighted statistics shared by the readers of a photograph."""

from __future__ import annotations

import numpy as np


def weighted_median(values: np.ndarray, weights: np.ndarray) -> float:
    """The value at which half of the total weight lies at or below it (the lower one where
    the halves meet). ``weights`` must be as many as ``values``, not negative, and not all 0."""
    values, weights = np.asarray(values, np.float64), np.asarray(weights, np.float64)
    if values.shape != weights.shape or values.ndim != 1 or not len(values):
        raise ValueError(f"weighted_median needs one weight per value: {values.shape} values, {weights.shape} weights")
    if (weights < 0).any() or weights.sum() <= 0.0:
        raise ValueError("weighted_median needs weights that are not negative and not all 0")
    order = np.argsort(values, kind="stable")
    cumulative = np.cumsum(weights[order])
    return float(values[order][np.searchsorted(cumulative, cumulative[-1] / 2.0)])
