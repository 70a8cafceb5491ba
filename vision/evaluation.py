"""Matching detections to ground truth, and the figures the benchmark and tests report."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from vision.geometry import angle_difference
from vision.labels import is_red_label, kind_of_label, label_name


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


@dataclass(slots=True)
class DetectionScore:
    """Counts over one or more rendered tables; add tables with :meth:`add`."""

    truths: int = 0
    detections: int = 0
    matched: int = 0
    kind_correct: int = 0  # 34 kinds plus the back; a red five counts as its kind
    label_correct: int = 0
    sideways_truths: int = 0
    sideways_found: int = 0
    upright_called_sideways: int = 0
    red_truths: int = 0
    red_found: int = 0
    angle_within_20: int = 0
    uncertain: int = 0
    confusions: dict[str, int] | None = None
    per_kind: dict[str, list[int]] | None = None  # kind name -> [matched, correct]

    def add(self, truths: Sequence[TruthLike], detections: Sequence[DetectionLike], tile_width: float) -> None:
        if self.confusions is None:
            self.confusions = {}
        if self.per_kind is None:
            self.per_kind = {}
        matches = match_quads([t.corners for t in truths], [d.corners for d in detections], tile_width)
        self.truths += len(truths)
        self.detections += len(detections)
        self.matched += len(matches)
        for m in matches:
            truth, found = truths[m.truth], detections[m.found]
            if found.label == truth.label:
                self.label_correct += 1
            tally = self.per_kind.setdefault(label_name(truth.label), [0, 0])
            tally[0] += 1
            if kind_of_label(found.label) == kind_of_label(truth.label):
                self.kind_correct += 1
                tally[1] += 1
            else:
                key = f"{label_name(truth.label)}->{label_name(found.label)}"
                self.confusions[key] = self.confusions.get(key, 0) + 1
            if truth.sideways:
                self.sideways_truths += 1
                self.sideways_found += found.sideways
            else:
                self.upright_called_sideways += found.sideways
            if is_red_label(truth.label):
                self.red_truths += 1
                self.red_found += found.label == truth.label
            self.angle_within_20 += angle_difference(found.angle, truth.angle) <= 20
            self.uncertain += found.uncertain

    @property
    def recall(self) -> float:
        return self.matched / self.truths if self.truths else 0.0

    @property
    def precision(self) -> float:
        return self.matched / self.detections if self.detections else 0.0

    @property
    def kind_accuracy(self) -> float:
        return self.kind_correct / self.matched if self.matched else 0.0


class TruthLike(Protocol):
    corners: np.ndarray
    label: int
    sideways: bool

    @property
    def angle(self) -> float: ...


class DetectionLike(Protocol):
    corners: np.ndarray
    sideways: bool

    @property
    def label(self) -> int: ...

    @property
    def angle(self) -> float: ...

    @property
    def uncertain(self) -> bool: ...
