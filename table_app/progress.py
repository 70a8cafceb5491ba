"""A one-line progress bar on stderr for long work: replaying many logs, scoring labelled photos,
enrolling a tile set, training.

It is drawn only where a person is watching: stderr is a terminal and the command was not asked
for machine output (``--json``). Anywhere else (a pipe, a file, CI, systemd) it writes nothing at
all. Lines printed meanwhile go through :meth:`Progress.echo`, and log records are let through
by clearing the bar first, so nothing is torn.
"""

from __future__ import annotations

import logging
import shutil
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sized
from types import TracebackType
from typing import TextIO, TypeVar

T = TypeVar("T")

_REDRAW_S = 0.1  # at most ten redraws a second: a terminal is slow, the work is not
_BAR_CELLS = 24


class Progress:
    def __init__(
        self,
        total: int,
        label: str,
        *,
        enabled: bool = True,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = total
        self.label = label
        self.done = 0
        self._stream = stream if stream is not None else sys.stderr
        self._clock = clock
        self._started = clock()
        self._drawn_at: float | None = None
        self._note = ""
        self.shown = enabled and total > 0 and _is_terminal(self._stream)
        self._filter = _ClearBeforeLogging(self)
        self._guarded: list[logging.Handler] = []
        if self.shown:
            for handler in logging.getLogger().handlers:
                handler.addFilter(self._filter)
                self._guarded.append(handler)
            self._draw()

    def advance(self, count: int = 1, note: str = "") -> None:
        self.done += count
        self._note = note
        now = self._clock()
        if self.shown and (self._drawn_at is None or now - self._drawn_at >= _REDRAW_S or self.done >= self.total):
            self._draw()

    def echo(self, text: str, file: TextIO | None = None) -> None:
        """Print ``text`` (a whole line, to stdout unless ``file`` says) without tearing the bar."""
        self.clear()
        print(text, file=file if file is not None else sys.stdout, flush=True)
        if self.shown:
            self._draw()

    def clear(self) -> None:
        if self._drawn_at is not None:
            self._stream.write("\r\x1b[K")
            self._stream.flush()
            self._drawn_at = None

    def close(self) -> None:
        self.clear()
        for handler in self._guarded:
            handler.removeFilter(self._filter)
        self._guarded.clear()
        self.shown = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def line(self) -> str:
        """The bar as drawn: ``replay [#######-----] 12/40  0:03 left 0:07  game.mjlog``."""
        fraction = min(1.0, self.done / self.total) if self.total else 1.0
        filled = round(fraction * _BAR_CELLS)
        elapsed = self._clock() - self._started
        left = ""
        if 0 < self.done < self.total:
            left = f" left {_clock_time(elapsed * (self.total - self.done) / self.done)}"
        note = f"  {self._note}" if self._note else ""
        bar = "#" * filled + "-" * (_BAR_CELLS - filled)
        return f"{self.label} [{bar}] {self.done}/{self.total}  {_clock_time(elapsed)}{left}{note}"

    def _draw(self) -> None:
        width = shutil.get_terminal_size((80, 24)).columns
        self._stream.write("\r" + self.line()[: max(10, width - 1)] + "\x1b[K")
        self._stream.flush()
        self._drawn_at = self._clock()


def progress(items: Iterable[T], label: str, *, enabled: bool = True, total: int | None = None) -> Iterator[T]:
    """``items``, one at a time, with a bar that advances as each is finished."""
    count = total if total is not None else (len(items) if isinstance(items, Sized) else 0)
    with Progress(count, label, enabled=enabled) as bar:
        for item in items:
            yield item
            bar.advance()


class _ClearBeforeLogging(logging.Filter):
    def __init__(self, bar: Progress) -> None:
        super().__init__()
        self._bar = bar

    def filter(self, record: logging.LogRecord) -> bool:  # noqa: ARG002 (every record)
        self._bar.clear()  # the record is written on a clean line; the next advance redraws the bar
        return True


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # closed, or not a real stream
        return False


def _clock_time(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
