"""What the training recipes share to turn uint8 BGR images into network input: the
normalised tensor, and a batch re-exposed at random (contrast, brightness, white balance)."""

from __future__ import annotations

import numpy as np
import torch


def to_tensor(pixels: np.ndarray, mean: float, std: float) -> torch.Tensor:
    """N×H×W×3 uint8 BGR → N×3×H×W float ``(pixel / 255 - mean) / std`` (the ONNX models'
    input convention; each model's ``mean`` and ``std`` are in its metadata)."""
    x = torch.from_numpy(np.ascontiguousarray(pixels)).permute(0, 3, 1, 2).float() / 255.0
    return (x - mean) / std


def reexposed(x: torch.Tensor, rng: np.random.Generator) -> torch.Tensor:
    """A normalised batch with each image's contrast (×0.7-1.3), brightness (±0.4) and white
    balance (±0.15 a channel) changed at random, drawn from ``rng`` in that order."""
    n = x.shape[0]
    contrast = torch.from_numpy(rng.uniform(0.7, 1.3, (n, 1, 1, 1))).float()
    brightness = torch.from_numpy(rng.uniform(-0.4, 0.4, (n, 1, 1, 1))).float()
    balance = torch.from_numpy(rng.uniform(-0.15, 0.15, (n, 3, 1, 1))).float()
    return x * contrast + brightness + balance
