"""The recipes' data drawn by several processes: each item's result depends on the item alone,
so the data are the same whatever the number of processes."""

from __future__ import annotations

import logging
import multiprocessing
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

log = logging.getLogger(__name__)

ResultT = TypeVar("ResultT")


def starmap_jobs(
    function: Callable[..., ResultT],
    work: Sequence[tuple[Any, ...]],
    jobs: int,
    *,
    chunksize: int = 1,
    progress: str = "",
    every: int = 50,
) -> list[ResultT]:
    """``function(*item)`` for each item of ``work``, in order: by ``jobs`` forked processes
    (they inherit what the caller holds, an onnxruntime session too), or here when ``jobs`` is
    1, saying ``progress`` every ``every`` items."""
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(min(jobs, len(work)) or 1) as pool:
            return pool.starmap(function, work, chunksize=chunksize)
    results = []
    for index, item in enumerate(work):
        results.append(function(*item))
        if progress and index % every == every - 1:
            log.info("%s: %d/%d", progress, index + 1, len(work))
    return results
