"""A labelled set of still photos drawn by the renderer: images and a label file
(:mod:`vision.eval.label_file`) with the exact ground truth, for ``jantaku vision eval``."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import cv2

from vision.eval.label_file import LabelledTile, save_labels
from vision.render.renderer import RenderOptions, render_table

LABELS_NAME = "labels.json"


def write_rendered_set(out: Path, seeds: Iterable[int], options: RenderOptions) -> Path:
    """One JPEG per seed (``table-SEED.jpg``) and ``labels.json`` in ``out``; returns the label file."""
    out.mkdir(parents=True, exist_ok=True)
    images: dict[str, list[LabelledTile]] = {}
    for seed in seeds:
        table = render_table(seed, options)
        name = f"table-{seed}.jpg"
        if not cv2.imwrite(str(out / name), table.image, [cv2.IMWRITE_JPEG_QUALITY, 95]):
            raise ValueError(f"cannot write {out / name}")
        images[name] = [LabelledTile(t.label, t.corners, t.sideways) for t in table.truths]
    path = out / LABELS_NAME
    save_labels(path, images)
    return path
