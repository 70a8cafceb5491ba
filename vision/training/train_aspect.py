"""Train the aspect judge (:mod:`vision.detect.aspect_judge`) and export it to ``models/``
(needs the ``train`` extra).

    .venv/bin/python -m vision.training.train_aspect --out models \\
        --sets seat-view/labels.json --sets seat-scattered/labels.json [--cache DIR]

Reproducible: fixed seeds, one CPU thread, a fixed number of steps. Training crops
(:mod:`vision.training.aspect_data`) are tiles of rendered pictures shown stretched by a known
factor: the seat-view label sets given (``vision.training.seat_view_set``, the detector's
recipe builds them too) and overhead tables drawn here. The network learns them mirrored
either way and re-exposed (a mirror does not change a stretch). Checks: the crops of unseen
tables (error of the log stretch), and the choice itself on seat views and tables drawn at
common frame shapes and squeezed to a square, read by the shipped models at each common
squeeze: how often the true squeeze is kept with and without the judge. ``--cache`` keeps the
training crops (the slow part).
"""

from __future__ import annotations

import argparse
import logging
import time
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from table_app.progress import progress
from vision.classify.classifier import OnnxTileClassifier
from vision.detect.aspect_judge import CONTEXT, INPUT_SIZE, OnnxAspectJudge
from vision.detect.pixel_aspect import COMMON_PIXEL_ASPECTS, chosen_reading, readings_at
from vision.detect.still_photo import detect_tiles, make_finder
from vision.training.aspect_data import (
    CENTRE_JITTER,
    LENGTH_JITTER,
    STRETCHES,
    AspectSet,
    known_squeezes,
    label_set_crops,
    table_crops,
)
from vision.training.aspect_model import MEAN, STD, AspectNet
from vision.training.batches import reexposed, to_tensor
from vision.training.export import code_version, crop_input, export_crop_model, write_model_metadata
from vision.training.one_output_fit import fit_one_output, outputs_of
from vision.training.real_photos import checked_label_sets

log = logging.getLogger(__name__)

MODEL_NAME = "tile-aspect"
VALIDATION_SEEDS = range(900_000, 900_040)  # unseen tables in the training styles
KNOWN_SQUEEZE_SEEDS = range(5_300_000, 5_300_150)  # apart from the seat-view sets' seeds


@dataclass(frozen=True, slots=True)
class Recipe:
    seed: int = 13
    tables: int = 300
    copies: int = 3  # stretches per seat-view tile
    steps: int = 4000
    batch: int = 96
    learning_rate: float = 3e-3


def main() -> None:
    defaults = Recipe()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="models")
    parser.add_argument("--sets", type=Path, action="append", default=[], help="a seat-view label set (labels.json)")
    parser.add_argument("--cache", type=Path, help="a folder for the training crops (reused by a rerun)")
    parser.add_argument("--tables", type=int, default=defaults.tables)
    parser.add_argument("--steps", type=int, default=defaults.steps)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--known", type=int, default=len(KNOWN_SQUEEZE_SEEDS), help="pictures of the choice check")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    recipe = Recipe(seed=args.seed, tables=args.tables, steps=args.steps)
    run(recipe, args.out, checked_label_sets(args.sets), args.cache, args.known)


def run(recipe: Recipe, out: str, sets: list[Path], cache: Path | None = None, known: int = 150) -> None:
    torch.set_num_threads(1)  # the development machine is shared; one thread keeps it reproducible too
    torch.manual_seed(recipe.seed)
    code = code_version()  # at the start: the tree may change while the recipe runs
    started = time.monotonic()
    train = training_crops(recipe, sets, cache)
    validation = table_crops(VALIDATION_SEEDS)
    rendered = time.monotonic() - started
    log.info("train crops %d, validation %d; rendering %.0f s", len(train), len(validation), rendered)
    model = AspectNet()
    fit(model, train, recipe)
    trained = time.monotonic() - started - rendered
    model.eval()
    metrics = crop_errors(predict(model, validation.crops), validation.log_stretches)
    log.info("validation: %s", metrics)
    onnx_path = export_crop_model(model, Path(out) / f"{MODEL_NAME}.onnx", (INPUT_SIZE, INPUT_SIZE), "log_stretch")
    timings = {"render_s": round(rendered), "train_s": round(trained)}
    metadata = _metadata(recipe, sets, metrics, code=code, timings=timings, crops=len(train))
    write_model_metadata(onnx_path, metadata)
    choice = known_squeeze_choice(OnnxAspectJudge(onnx_path), KNOWN_SQUEEZE_SEEDS[:known])
    log.info("known squeezes: %s", choice)
    write_model_metadata(onnx_path, {**metadata, "known_squeezes": choice})


def training_crops(recipe: Recipe, sets: list[Path], cache: Path | None) -> AspectSet:
    """The seat-view sets' crops and the tables', from ``cache`` when a run with the same
    recipe left them there."""
    key = f"aspect-crops-{recipe.seed}-{recipe.copies}-{recipe.tables}-{len(sets)}.npz"
    if cache is not None and (cache / key).is_file():
        with np.load(cache / key) as saved:
            return AspectSet(saved["crops"], saved["log_stretches"])
    parts = [label_set_crops(path, recipe.seed + index, recipe.copies) for index, path in enumerate(sets)]
    parts.append(table_crops(range(recipe.tables)))
    data = AspectSet.joined(parts)
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        np.savez(cache / key, crops=data.crops, log_stretches=data.log_stretches)
    return data


def batch_of(data: AspectSet, recipe: Recipe, rng: np.random.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """A batch mirrored left-right and upside down at random, re-exposed, a fifth in grey and
    with sensor noise."""
    picks = rng.integers(0, len(data), recipe.batch)
    crops = data.crops[picks].copy()
    for i in range(len(crops)):
        if rng.random() < 0.5:
            crops[i] = crops[i, :, ::-1]
        if rng.random() < 0.5:
            crops[i] = crops[i, ::-1]
        if rng.random() < 0.2:
            crops[i] = crops[i].mean(axis=2, keepdims=True).astype(np.uint8)
    x = reexposed(to_tensor(crops, MEAN, STD), rng)
    noise = torch.from_numpy(rng.uniform(0.0, 0.2, (len(crops), 1, 1, 1))).float()
    x = x + torch.from_numpy(rng.standard_normal(x.shape)).float() * noise
    return x, torch.from_numpy(data.log_stretches[picks].astype(np.float32))


def fit(model: nn.Module, data: AspectSet, recipe: Recipe) -> None:
    fit_one_output(
        model,
        lambda rng: batch_of(data, recipe, rng),
        lambda out, target: nn.functional.smooth_l1_loss(out, target, beta=0.1),
        seed=recipe.seed,
        steps=recipe.steps,
        learning_rate=recipe.learning_rate,
        log_every=250,
    )


def predict(model: nn.Module, crops: np.ndarray) -> np.ndarray:
    return outputs_of(model, crops, MEAN, STD)


def crop_errors(predicted: np.ndarray, truth: np.ndarray) -> dict[str, Any]:
    error = np.abs(predicted - truth)
    return {
        "crops": len(truth),
        "mean_abs_log_error": round(float(error.mean()), 4),
        "median_abs_log_error": round(float(np.median(error)), 4),
        "within_15_percent": round(float(np.mean(error < np.log(1.15))), 4),
    }


def known_squeeze_choice(judge: OnnxAspectJudge, seeds: range = KNOWN_SQUEEZE_SEEDS) -> dict[str, Any]:
    """How often the true squeeze of :func:`~vision.training.aspect_data.known_squeezes` is kept,
    with the shipped detector and classifier, by the surest reading alone and with the judge."""
    classifier = OnnxTileClassifier()
    finder = make_finder("learnt", half_octaves=False)
    pictures = known_squeezes(seeds)
    right = {"sureness": 0, "judge": 0}

    def as_found(image: np.ndarray) -> Any:
        return detect_tiles(image, classifier, finder=finder, recut_doubtful=False)

    for picture in progress(pictures, "known squeezes"):
        readings = readings_at(picture.image, as_found, COMMON_PIXEL_ASPECTS)
        for rule, used in (("sureness", None), ("judge", judge)):
            chosen = chosen_reading(picture.image, readings, used).pixel_aspect
            right[rule] += abs(chosen - picture.pixel_aspect) < 1e-6
    return {"pictures": len(pictures), "true_squeeze_kept": right}


def _metadata(
    recipe: Recipe, sets: list[Path], metrics: dict[str, Any], *, code: str, timings: dict[str, int], crops: int
) -> dict[str, Any]:
    return {
        "input": crop_input(
            {"size": INPUT_SIZE},
            CONTEXT,
            MEAN,
            STD,
            "a square CONTEXT tile lengths across about the tile's centre, the picture's width scaled by "
            "the pixel aspect tried (vision.detect.aspect_judge.aspect_crop)",
        ),
        "output": "the natural log of how much wider than true the crop shows its tile",
        "training": {
            "command": ".venv/bin/python -m vision.training.train_aspect --out models "
            + " ".join(f"--sets {path.parent.name}/{path.name}" for path in sets),
            "code": code,
            "recipe": {field.name: getattr(recipe, field.name) for field in fields(recipe)},
            "data": (
                "tiles of the seat-view label sets given and of tables drawn by vision.render at 1.0-2.9 px/mm in "
                "the detector's art mix (seeds 0..tables-1), each shown stretched by a factor drawn log-uniformly "
                f"from {STRETCHES[0]}-{STRETCHES[1]}, the centre moved by N(0, {CENTRE_JITTER}) tile lengths and "
                f"the length scaled by up to {LENGTH_JITTER}; mirrors, re-exposure, grey, sensor noise"
            ),
            "validation": f"tables {VALIDATION_SEEDS.start}-{VALIDATION_SEEDS.stop - 1} in the training styles",
            "known_squeezes": f"seat views and tables {KNOWN_SQUEEZE_SEEDS.start}-{KNOWN_SQUEEZE_SEEDS.stop - 1} drawn "
            "at 16:9, 4:3, 3:4, 1:1 and 9:16 and squeezed to 640x640, read at each common squeeze",
            "timings_s": timings,
            "counts": {"train_crops": crops},
        },
        "metrics_validation": metrics,
    }


if __name__ == "__main__":
    main()
