"""``RenderedSource``: the fake camera. Frames drawn by ``vision.render`` from seeds, deterministic.

``dropped`` lists positions in the sequence where the fake camera delivers nothing, so tests
see the same lost/restored reports a real camera gives.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from vision.render.layout import TableLayout
from vision.render.renderer import RenderedTable, RenderOptions, render_table
from vision.sources.frame import CameraFrame, CameraHealth, Clock, FrameStamper, HealthReport


class RenderedSource:
    def __init__(
        self,
        seeds: Sequence[int],
        options: RenderOptions | None = None,
        *,
        layout: TableLayout | None = None,
        dropped: frozenset[int] = frozenset(),
        report: HealthReport | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        if not seeds:
            raise ValueError("a rendered source needs at least one seed")
        self._seeds = tuple(seeds)
        self._options = options if options is not None else RenderOptions()
        self._layout = layout
        self._dropped = dropped
        self._next = 0
        self._stamper = FrameStamper(clock)
        self._health = CameraHealth(self.name, report)
        self.last_table: RenderedTable | None = None  # the ground truth of the last frame delivered

    @property
    def name(self) -> str:
        return f"rendered:{self._seeds[0]}+{len(self._seeds)}"

    @property
    def ended(self) -> bool:
        return self._next >= len(self._seeds)

    def read(self) -> CameraFrame | None:
        if self.ended:
            return None
        position = self._next
        self._next += 1
        if position in self._dropped:
            self._health.missed(self._stamper.now(), f"frame {position} dropped")
            return None
        self.last_table = render_table(self._seeds[position], self._options, self._layout)
        frame = self._stamper.frame(self.last_table.image)
        self._health.delivered(frame.timestamp)
        return frame

    def close(self) -> None:
        self._next = len(self._seeds)
