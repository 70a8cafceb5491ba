"""Comparisons of data drawn by one process and by two forked ones, run by
:func:`tests.fresh_process.in_a_fresh_process`; each returns what its test asserts."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np


def detector_frames_drawn_twice() -> dict[str, bool]:
    from vision.training.detector_data import render_frames

    one = render_frames(range(5, 7))
    two = render_frames(range(5, 7), jobs=2)
    return {
        "inputs": np.array_equal(one.inputs, two.inputs),
        "targets": np.array_equal(one.targets, two.targets),
        "sideways": one.sideways == two.sideways,
        "truths": all(
            all(np.array_equal(a, b) for a, b in zip(faces, again, strict=True))
            for faces, again in zip(one.truths, two.truths, strict=True)
        ),
    }


def verifier_crops_mined_twice() -> dict[str, object]:
    from vision.find.learnt import LearntTileFinder
    from vision.training.verifier_data import mine_rendered

    finder = LearntTileFinder(verifier=None)
    one = mine_rendered(range(800_500, 800_502), finder, seed=1, copies=1)
    two = mine_rendered(range(800_500, 800_502), finder, seed=1, copies=1, jobs=2)
    return {
        "tiles": int(one.tiles.sum()),
        "not_tiles": int((~one.tiles).sum()),
        "images": np.array_equal(one.images, two.images),
        "labels": np.array_equal(one.tiles, two.tiles),
        "validation": np.array_equal(one.validation, two.validation),
    }


def seat_view_sets_written_twice(folder: str) -> dict[str, bool]:
    from vision.training.seat_view_set import write_set

    root = Path(folder)
    write_set(root / "one", 3, first_seed=70)
    write_set(root / "two", 3, first_seed=70, jobs=2)
    one, two = ((root / f / "labels.json").read_text(encoding="utf-8") for f in ("one", "two"))
    return {
        "labels": one == two,
        "images": all(
            (root / "one" / name).read_bytes() == (root / "two" / name).read_bytes()
            for name in json.loads(one)["images"]
        ),
    }
