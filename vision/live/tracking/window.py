"""A zone's last readings, and the state they agree on.

Each zone (a seat's pond, melds or open hand; the dora and ura rows) keeps its last
``frames_to_confirm`` readings. A frame in which the zone is occluded adds nothing: the zone
holds what it last agreed on. Once the readings all have the same *shape* (how many tiles,
which one is turned...), that run of readings is the zone's settled state, kept until another
run agrees; the tiles' faces are voted over it when a change is reported.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Value = TypeVar("Value")


class ZoneWindow(Generic[Value]):
    def __init__(self, frames: int, shape: Callable[[Value], Hashable], empty: Value) -> None:
        self._recent: deque[Value] = deque(maxlen=frames)
        self._shape = shape
        self.settled: tuple[Value, ...] = (empty,)  # the run of readings the zone last agreed on
        self.ever_settled = False  # a run of readings agreed at least once (not just the empty start)

    def push(self, value: Value) -> None:
        self._recent.append(value)
        if len(self._recent) == self._recent.maxlen and len({self._shape(v) for v in self._recent}) == 1:
            self.settled = tuple(self._recent)
            self.ever_settled = True

    def interrupt(self) -> None:
        """The frames stopped (camera lost): readings before and after are not consecutive."""
        self._recent.clear()

    @property
    def current(self) -> Value:
        return self.settled[-1]
