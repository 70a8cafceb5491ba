"""Debouncing: a reading is reported once it has held for a number of consecutive samples.

Sticks are moved by hand: a payment passes through states (one tray already lighter, the other
not yet heavier) that last a fraction of a second. Those are not readings of the table.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class Debouncer(Generic[T]):
    """Compares values by a key, so details that jitter (raw ADC codes) do not reset the count."""

    def __init__(self, samples: int) -> None:
        if samples < 1:
            raise ValueError(f"debounce needs at least 1 sample, got {samples}")
        self._samples = samples
        self._candidate: Hashable = None
        self._seen = 0
        self._reported: Hashable = None

    def reset(self) -> None:
        """Forget everything: the next stable value is reported even if it equals the last one."""
        self._candidate = None
        self._seen = 0
        self._reported = None

    def offer(self, key: Hashable, value: T) -> T | None:
        """Return ``value`` the moment its key becomes stable and differs from the last reported key."""
        if key == self._candidate:
            self._seen += 1
        else:
            self._candidate = key
            self._seen = 1
        if self._seen >= self._samples and key != self._reported:
            self._reported = key
            return value
        return None
