"""Shared helpers for table-link tests: collecting observations without sleeping."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable

from firmware_bridge.observations import LinkState, LinkStatus, TrayReading
from firmware_bridge.serial_link import LinkOutput
from firmware_bridge.sim_script import TableState

Outputs = "queue.Queue[LinkOutput]"


def collect_until(
    outputs: queue.Queue[LinkOutput], done: Callable[[list[LinkOutput]], bool], timeout_s: float
) -> list[LinkOutput]:
    """Take outputs until ``done`` holds; fail after ``timeout_s`` of real time."""
    seen: list[LinkOutput] = []
    deadline = time.monotonic() + timeout_s
    while not done(seen):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"gave up after {timeout_s} s; saw {summary(seen)}")
        try:
            seen.append(outputs.get(timeout=min(remaining, 0.2)))
        except queue.Empty:
            continue
    return seen


def readings(seen: list[LinkOutput]) -> list[TrayReading]:
    return [o for o in seen if isinstance(o, TrayReading)]


def states(seen: list[LinkOutput]) -> list[LinkState]:
    return [o.state for o in seen if isinstance(o, LinkStatus)]


def physical(reading: TrayReading) -> tuple[object, ...]:
    return (reading.points, reading.deposit, reading.wall, reading.kans)


def table_key(table: TableState) -> tuple[object, ...]:
    return (table.points, table.deposit, table.wall, table.kans)


def summary(seen: list[LinkOutput]) -> str:
    lines = [
        f"{o.state.value}: {o.detail}" if isinstance(o, LinkStatus) else f"reading {physical(o)} {o.flags}"
        for o in seen
        if isinstance(o, LinkStatus | TrayReading)
    ]
    return "\n".join(lines[-30:])
