"""Counting a tile finder's finds against rendered tables' truth (the finder tests share it)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from vision.eval.matching import match_quads
from vision.render.renderer import RenderedTable


def count_finds(finder, tables: Iterable[RenderedTable]) -> tuple[int, int, int]:
    """(true tiles, finds, finds matching a true tile) over ``tables``: the bench's matcher,
    a centre within 0.4 face widths."""
    truths = found = matched = 0
    for table in tables:
        tiles = finder.find(table.image).tiles
        width = float(np.median([np.linalg.norm(t.corners[1] - t.corners[0]) for t in table.truths]))
        matches = match_quads([t.corners for t in table.truths], [t.corners for t in tiles], width)
        truths, found, matched = truths + len(table.truths), found + len(tiles), matched + len(matches)
    return truths, found, matched
