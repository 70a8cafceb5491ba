"""The enrolled head: multinomial logistic regression on the classifier's frozen features,
blended with the base model's own probabilities.

Its classes are the model's 76 outputs (38 labels read upright, then upside down), so the
blend is a plain weighted sum of two probability vectors and the reading (label, orientation,
confidence) is taken from it exactly as from the base model. Outputs no enrolled tile showed
get nothing from the head: there the base model decides alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.classify.labels import LABEL_COUNT

OUTPUTS = 2 * LABEL_COUNT


@dataclass(frozen=True, eq=False)
class EnrolledHead:
    classes: np.ndarray  # K int64 model outputs (0..75) the head knows
    mean: np.ndarray  # F float32: feature standardisation
    scale: np.ndarray  # F float32
    weights: np.ndarray  # F×K float32
    bias: np.ndarray  # K float32
    blend: float  # the head's share of the final probabilities

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """N×76 probabilities from the head alone (zero for outputs it does not know)."""
        logits = ((features - self.mean) / self.scale) @ self.weights + self.bias
        known = _softmax(logits)
        full = np.zeros((len(features), OUTPUTS), np.float32)
        full[:, self.classes] = known
        return full

    def blended(self, base: np.ndarray, features: np.ndarray) -> np.ndarray:
        return np.asarray((1.0 - self.blend) * base + self.blend * self.probabilities(features))


def fit_head(
    features: np.ndarray, targets: np.ndarray, *, blend: float, steps: int = 400, rate: float = 0.5, l2: float = 1e-3
) -> EnrolledHead:
    """Fit by full-batch gradient descent (a few thousand samples × 128 features: well under a second)."""
    if len(features) != len(targets) or len(features) == 0:
        raise ValueError(f"fit_head: {len(features)} feature rows for {len(targets)} targets")
    if not 0.0 <= blend <= 1.0:
        raise ValueError(f"fit_head: blend {blend} must be 0-1")
    classes = np.unique(targets)
    index = np.searchsorted(classes, targets)
    mean = features.mean(axis=0)
    scale = features.std(axis=0) + 1e-3
    x = ((features - mean) / scale).astype(np.float64)
    one_hot = np.eye(len(classes))[index]
    weights = np.zeros((x.shape[1], len(classes)))
    bias = np.zeros(len(classes))
    for _ in range(steps):
        error = (_softmax(x @ weights + bias) - one_hot) / len(x)
        weights -= rate * (x.T @ error + l2 * weights)
        bias -= rate * error.sum(axis=0)
    return EnrolledHead(
        classes.astype(np.int64),
        mean.astype(np.float32),
        scale.astype(np.float32),
        weights.astype(np.float32),
        bias.astype(np.float32),
        float(blend),
    )


def _softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return np.asarray(shifted / shifted.sum(axis=1, keepdims=True))
