"""Run a test's multi-process comparison in a fresh, spawned process, with a time limit.

The recipes draw their data by forked processes (``vision.training.processes.starmap_jobs``).
Forking the test runner itself, which by then holds the threads of other tests (onnxruntime
sessions, OpenCV's pool, brokers, browsers), can leave a child stuck on a lock another thread
held at the fork, and the whole run hangs. A spawned process holds none of them; and a time
limit turns a stuck fork into a failure that names it, not a hung CI.
"""

from __future__ import annotations

import multiprocessing
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

ResultT = TypeVar("ResultT")


def in_a_fresh_process(function: Callable[..., ResultT], *args: Any, timeout: float = 300.0) -> ResultT:
    """``function(*args)`` in a spawned process, which may fork its own (``function`` must be a
    module-level function of an importable module, such as :mod:`tests.forked_comparisons`)."""
    context = multiprocessing.get_context("spawn")
    receiving, sending = context.Pipe(duplex=False)
    process = context.Process(target=_run, args=(sending, function, args))
    process.start()
    sending.close()
    try:
        if not receiving.poll(timeout):
            raise AssertionError(f"{function.__qualname__} did not finish in {timeout:.0f} s (a stuck fork?)")
        failed, outcome = receiving.recv()
    finally:
        process.kill()
        process.join()
    if failed:
        raise AssertionError(f"{function.__qualname__} failed in its own process:\n{outcome}")
    return outcome  # type: ignore[no-any-return]


def _run(sending: Connection, function: Callable[..., Any], args: tuple[Any, ...]) -> None:
    try:
        sending.send((False, function(*args)))
    except Exception:  # handed to the test, which fails naming it
        sending.send((True, traceback.format_exc()))
