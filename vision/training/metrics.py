"""Figures of a classifier on labelled crops: accuracy, 34-kind accuracy, red-five recall,
orientation accuracy and the commonest confusions."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

from vision.classify.labels import BACK_LABEL, LABEL_COUNT, is_red_label, kind_of_label, label_name
from vision.training.dataset import CropSet

#: A reading less sure than this is reported as uncertain (the model's ``uncertain_below``).
UNCERTAIN_BELOW = 0.6


def label_probabilities(probabilities: np.ndarray) -> np.ndarray:
    """N×38: each label's probability, read upright and upside down summed (as the runtime does)."""
    return np.asarray(probabilities[:, :LABEL_COUNT] + probabilities[:, LABEL_COUNT:])


def outliers_read_as_sure(probabilities: np.ndarray) -> float:
    """The share of outlier crops whose surest label reaches :data:`UNCERTAIN_BELOW`: should be near 0."""
    if not len(probabilities):
        return 0.0
    return float((label_probabilities(probabilities).max(axis=1) >= UNCERTAIN_BELOW).mean())


def evaluate(predict: Callable[[np.ndarray], np.ndarray], data: CropSet) -> dict[str, Any]:
    probabilities = predict(data.images)
    return summarise(probabilities, data.labels, data.flipped)


def summarise(probabilities: np.ndarray, labels: np.ndarray, flipped: np.ndarray) -> dict[str, Any]:
    upright, turned = probabilities[:, :LABEL_COUNT], probabilities[:, LABEL_COUNT:]
    merged = label_probabilities(probabilities)
    predicted = merged.argmax(axis=1)
    confidence = merged.max(axis=1)
    rows = np.arange(len(labels))
    predicted_flip = turned[rows, predicted] > upright[rows, predicted]
    kinds = np.array([kind_of_label(int(v)) for v in labels])
    predicted_kinds = np.array([kind_of_label(int(v)) for v in predicted])
    faces = labels != BACK_LABEL
    reds = np.array([is_red_label(int(v)) for v in labels])
    confusions = Counter(f"{_name(int(t))}->{_name(int(p))}" for t, p in zip(labels, predicted, strict=True) if t != p)
    return {
        "crops": len(labels),
        "label_accuracy": float((predicted == labels).mean()),
        "kind_accuracy_faces": float((predicted_kinds[faces] == kinds[faces]).mean()),
        "back_recall": float((predicted[~faces] == BACK_LABEL).mean()) if (~faces).any() else None,
        "red_five_recall": float((predicted[reds] == labels[reds]).mean()) if reds.any() else None,
        "orientation_accuracy_faces": float((predicted_flip[faces] == flipped[faces]).mean()),
        "mean_confidence": float(confidence.mean()),
        "top_confusions": dict(confusions.most_common(12)),
    }


def _name(label: int) -> str:
    return ("red " if is_red_label(label) else "") + label_name(label)
