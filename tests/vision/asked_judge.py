"""A sideways judge that records what it is asked (the judge's and the table reader's tests)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.detect.still_photo import SidewaysJudge


class AskedJudge:
    """A judge (the shipped one, say) that keeps every quad it was asked about."""

    def __init__(self, judge: SidewaysJudge) -> None:
        self.judge_itself = judge
        self.asked: list[np.ndarray] = []

    def judge(
        self,
        image: np.ndarray,
        quads: list[np.ndarray],
        calls: list[bool],
        known_axes: Sequence[float] | None = None,
    ) -> tuple[list[np.ndarray], list[bool]]:
        self.asked += list(quads)
        return self.judge_itself.judge(image, quads, calls, known_axes)
