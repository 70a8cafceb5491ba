"""The command-line options the training recipes share (``train`` and ``train_detector``):
the run's size and seed, its threads, fine-tuning from a shipped model, real photographs, and
the face styles added to the rendered tables' art (:mod:`vision.training.face_mix`)."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol, TypeVar


class SharedRecipe(Protocol):
    """The fields both recipes have (frozen dataclasses: read-only here)."""

    @property
    def seed(self) -> int: ...
    @property
    def train_tables(self) -> int: ...
    @property
    def steps(self) -> int: ...
    @property
    def threads(self) -> int: ...
    @property
    def learning_rate(self) -> float: ...
    @property
    def init(self) -> str: ...
    @property
    def stroke_share(self) -> float: ...
    @property
    def faces(self) -> str: ...
    @property
    def faces_share(self) -> float: ...


RecipeT = TypeVar("RecipeT", bound=SharedRecipe)


def add_recipe_options(parser: argparse.ArgumentParser, defaults: SharedRecipe, network: str, photos_help: str) -> None:
    parser.add_argument("--train-tables", type=int, default=defaults.train_tables)
    parser.add_argument("--steps", type=int, default=defaults.steps)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument(
        "--threads", type=int, default=defaults.threads, help="CPU threads (the same count gives the same weights)"
    )
    parser.add_argument(
        "--learning-rate", type=float, default=defaults.learning_rate, help="peak of the one-cycle schedule"
    )
    parser.add_argument("--init", default="", metavar="ONNX", help=f"start from this {network}'s weights (fine-tune)")
    parser.add_argument("--photos", type=Path, action="append", default=[], metavar="LABELS", help=photos_help)
    parser.add_argument(
        "--stroke-share",
        type=float,
        default=defaults.stroke_share,
        metavar="X",
        help="the share of rendered tables whose symbols' strokes are drawn 1-2 art pixels thicker or thinner",
    )
    parser.add_argument(
        "--faces",
        default=defaults.faces,
        metavar="DIR",
        help="a tile set's own faces (a folder of face images, 1m.png .., or an enrollment file that kept them), "
        "drawn on --faces-share of the rendered tables",
    )
    parser.add_argument("--faces-share", type=float, default=defaults.faces_share, metavar="X", help="with --faces")


def recipe_from(args: argparse.Namespace, defaults: RecipeT, **more: Any) -> RecipeT:
    """``defaults`` with the shared options (and ``more`` fields) as given on the command line."""
    names = (
        "seed",
        "train_tables",
        "steps",
        "threads",
        "learning_rate",
        "init",
        "stroke_share",
        "faces",
        "faces_share",
    )
    shared = {name: getattr(args, name) for name in names}
    return replace(defaults, **shared, **more)  # type: ignore[type-var]  # a frozen dataclass by contract
