"""Matching detections to ground truth, and the figures the benchmark and tests report."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

import numpy as np

from vision.classify.labels import is_red_label, kind_of_label, label_name
from vision.geometry import angle_difference, bounding_box

_PLAIN_FIVES: Final = (4, 13, 22)  # the labels of 5m, 5p and 5s that are not red


@dataclass(frozen=True, slots=True)
class Match:
    truth: int  # index into the truths
    found: int  # index into the detections


def match_quads(
    truths: Sequence[np.ndarray],
    found: Sequence[np.ndarray],
    tile_width: float,
    min_iou: float | Sequence[float] = 0.0,
) -> list[Match]:
    """Greedy one-to-one matching by centre distance: a detection counts for a true tile when
    its centre lies within 0.4 tile widths of the true centre and, with ``min_iou`` (one for
    all, or one for each true tile), their bounding boxes overlap by at least that intersection
    over union (boxes, not quads, so that labels given as boxes and detectors that only give
    boxes are judged alike)."""
    if not truths or not found:
        return []
    truth_centres = np.array([q.mean(axis=0) for q in truths])
    found_centres = np.array([q.mean(axis=0) for q in found])
    distances = np.linalg.norm(truth_centres[:, None, :] - found_centres[None, :, :], axis=2)
    limit = 0.4 * tile_width
    least = np.broadcast_to(np.asarray(min_iou, dtype=np.float64), (len(truths),))
    if np.any(least > 0.0):
        overlaps = box_iou(np.array([bounding_box(q) for q in truths]), np.array([bounding_box(q) for q in found]))
        distances = np.where(overlaps >= least[:, None], distances, np.inf)
    matches: list[Match] = []
    used_truth: set[int] = set()
    used_found: set[int] = set()
    for flat in np.argsort(distances, axis=None):
        t, f = divmod(int(flat), len(found))
        if not distances[t, f] <= limit:  # also ends at the pairs ruled out by overlap (inf)
            break
        if t in used_truth or f in used_found:
            continue
        used_truth.add(t)
        used_found.add(f)
        matches.append(Match(t, f))
    return matches


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Intersection over union of every box in ``a`` (N×4, x0 y0 x1 y1) with every box in ``b`` (M×4): N×M."""
    a, b = a.astype(np.float64), b.astype(np.float64)
    width = np.clip(np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0]), 0, None)
    height = np.clip(np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1]), 0, None)
    inter = width * height
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    union = area_a[:, None] + area_b[None, :] - inter
    return np.asarray(np.where(union > 0, inter / np.where(union > 0, union, 1.0), 0.0))


@dataclass(slots=True)
class DetectionScore:
    """Counts over one or more images; add images with :meth:`add`. Truths may leave the
    sideways flag or the orientation unknown (``None``, e.g. a label given as a box): those
    figures then count only the tiles that have them."""

    truths: int = 0
    detections: int = 0
    matched: int = 0
    kind_correct: int = 0  # 34 kinds plus the back; a red five counts as its kind
    label_correct: int = 0
    sideways_truths: int = 0
    sideways_found: int = 0
    upright_truths: int = 0
    upright_called_sideways: int = 0
    red_truths: int = 0
    red_found: int = 0
    plain_fives: int = 0  # found fives that are not red (meaningful where every red five is labelled)
    plain_fives_read_red: int = 0
    angle_truths: int = 0
    angle_within_20: int = 0
    uncertain: int = 0
    confusions: dict[str, int] | None = None
    per_kind: dict[str, list[int]] | None = None  # kind name -> [matched, correct]
    matrix: dict[str, dict[str, int]] | None = None  # true kind name -> found kind name -> count

    def add(
        self,
        truths: Sequence[TruthLike],
        detections: Sequence[DetectionLike],
        tile_width: float,
        min_iou: float | Sequence[float] = 0.0,
    ) -> list[Match]:
        """Score one image; returns the matches (indices into ``truths`` and ``detections``)."""
        if self.confusions is None:
            self.confusions = {}
        if self.per_kind is None:
            self.per_kind = {}
        if self.matrix is None:
            self.matrix = {}
        matches = match_quads([t.corners for t in truths], [d.corners for d in detections], tile_width, min_iou)
        self.truths += len(truths)
        # Every labelled red five counts, found or not: a red five the finder missed is a red
        # five not reported (counting matched ones only said "none labelled" when none was found).
        self.red_truths += sum(1 for t in truths if is_red_label(t.label))
        self.detections += len(detections)
        self.matched += len(matches)
        for m in matches:
            truth, found = truths[m.truth], detections[m.found]
            if found.label == truth.label:
                self.label_correct += 1
            tally = self.per_kind.setdefault(label_name(truth.label), [0, 0])
            tally[0] += 1
            row = self.matrix.setdefault(label_name(truth.label), {})
            row[label_name(found.label)] = row.get(label_name(found.label), 0) + 1
            if kind_of_label(found.label) == kind_of_label(truth.label):
                self.kind_correct += 1
                tally[1] += 1
            else:
                key = f"{label_name(truth.label)}->{label_name(found.label)}"
                self.confusions[key] = self.confusions.get(key, 0) + 1
            if truth.sideways is True:
                self.sideways_truths += 1
                self.sideways_found += found.sideways
            elif truth.sideways is False:
                self.upright_truths += 1
                self.upright_called_sideways += found.sideways
            if is_red_label(truth.label):
                self.red_found += found.label == truth.label
            elif truth.label in _PLAIN_FIVES:
                self.plain_fives += 1
                self.plain_fives_read_red += is_red_label(found.label)
            if truth.angle is not None and found.angle is not None:
                self.angle_truths += 1
                self.angle_within_20 += angle_difference(found.angle, truth.angle) <= 20
            self.uncertain += found.uncertain
        return matches

    @property
    def recall(self) -> float:
        return self.matched / self.truths if self.truths else 0.0

    @property
    def precision(self) -> float:
        return self.matched / self.detections if self.detections else 0.0

    @property
    def kind_accuracy(self) -> float:
        return self.kind_correct / self.matched if self.matched else 0.0

    @property
    def label_accuracy(self) -> float:
        return self.label_correct / self.matched if self.matched else 0.0

    @property
    def red_recall(self) -> float | None:
        return self.red_found / self.red_truths if self.red_truths else None

    @property
    def sideways_recall(self) -> float | None:
        return self.sideways_found / self.sideways_truths if self.sideways_truths else None

    @property
    def orientation_accuracy(self) -> float | None:
        return self.angle_within_20 / self.angle_truths if self.angle_truths else None


class TruthLike(Protocol):
    @property
    def corners(self) -> np.ndarray: ...

    @property
    def label(self) -> int: ...

    @property
    def sideways(self) -> bool | None: ...

    @property
    def angle(self) -> float | None: ...


class DetectionLike(Protocol):
    @property
    def corners(self) -> np.ndarray: ...

    @property
    def sideways(self) -> bool: ...

    @property
    def label(self) -> int: ...

    @property
    def angle(self) -> float | None: ...

    @property
    def uncertain(self) -> bool: ...
