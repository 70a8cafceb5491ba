"""Train the sideways judge (:mod:`vision.detect.sideways_judge`) and export it to ``models/`` (needs
the ``train`` extra).

    .venv/bin/python -m vision.training.train_sideways --out models [--cache DIR]

Reproducible: fixed seeds, one CPU thread, a fixed number of steps. Training crops come from
rendered tables in the detector's art mix (:mod:`vision.training.sideways_data`), cut where
the shipped detector found each tile and, jittered, where each true tile lies; the network
learns them turned half round and mirrored at random (none of which changes whether a tile
lies across its row), re-exposed. The decision threshold is chosen on unseen tables in the
training styles; the held-out check is the ``black`` art, never used in training, cut as
found only, as the run time cuts it. ``--cache`` keeps the rendered crops (the slow part).
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

from vision.detect.sideways_judge import CONTEXT, INPUT_SIZE, ROW_REACH
from vision.render.tile_art import ArtStyle
from vision.training.batches import reexposed, to_tensor
from vision.training.detector_data import TRAIN_PX_PER_MM
from vision.training.export import code_version, crop_input, export_crop_model, write_model_metadata
from vision.training.one_output_fit import fit_one_output, outputs_of
from vision.training.sideways_data import (
    AXIS_JITTER_DEG,
    CENTRE_JITTER,
    SCALE_JITTER,
    SIDEWAYS_COPIES,
    UPRIGHT_SHARE,
    SidewaysSet,
    sideways_crops,
    table_crops,
)
from vision.training.sideways_model import MEAN, STD, SidewaysNet

log = logging.getLogger(__name__)

MODEL_NAME = "tile-sideways"
HELD_OUT_SEEDS = range(1_000_000, 1_000_040)  # black style, as the classifier's and detector's checks
VALIDATION_SEEDS = range(900_000, 900_040)  # the training styles, unseen tables: picks the threshold
THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)


@dataclass(frozen=True, slots=True)
class Recipe:
    seed: int = 5
    train_tables: int = 1000
    steps: int = 5000
    batch: int = 128
    sideways_share: float = 0.25  # of each batch: sideways crops are ~8% of the set
    learning_rate: float = 3e-3


def main() -> None:
    defaults = Recipe()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="models")
    parser.add_argument("--cache", help="a folder for the rendered crops (reused by a rerun)")
    parser.add_argument("--train-tables", type=int, default=defaults.train_tables)
    parser.add_argument("--steps", type=int, default=defaults.steps)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    recipe = Recipe(seed=args.seed, train_tables=args.train_tables, steps=args.steps)
    run(recipe, args.out, args.cache)


def run(recipe: Recipe, out: str, cache: str | None = None) -> None:
    torch.set_num_threads(1)  # the development machine is shared; one thread keeps it reproducible too
    torch.manual_seed(recipe.seed)
    code = code_version()  # at the start: the tree may change while the recipe runs
    started = time.monotonic()
    train = sideways_crops(range(recipe.train_tables), cache)
    validation = _as_found(VALIDATION_SEEDS, None)
    held_out = _as_found(HELD_OUT_SEEDS, ArtStyle.BLACK)
    rendered = time.monotonic() - started
    log.info(
        "train crops %d (%d sideways), validation %d, held-out %d; rendering %.0f s",
        len(train),
        int(train.sideways.sum()),
        len(validation),
        len(held_out),
        rendered,
    )
    model = SidewaysNet()
    fit(model, train, recipe)
    trained = time.monotonic() - started - rendered
    model.eval()
    probabilities = predict(model, validation.crops)
    scores = [score(probabilities, validation.sideways, threshold) for threshold in THRESHOLDS]
    best = min(scores, key=lambda s: (s["sideways_missed"] + s["upright_called_sideways"], abs(s["threshold"] - 0.5)))
    log.info("validation: %s", scores)
    metrics = score(predict(model, held_out.crops), held_out.sideways, best["threshold"])
    log.info("held-out metrics: %s", metrics)
    export_judge(
        model,
        out,
        threshold=best["threshold"],
        metrics=metrics,
        validation=best,
        recipe={field.name: getattr(recipe, field.name) for field in fields(recipe)},
        timings={"render_s": round(rendered), "train_s": round(trained)},
        counts={"train_crops": len(train), "train_sideways": int(train.sideways.sum())},
        code=code,
    )


def _as_found(seeds: range, style: ArtStyle | None) -> SidewaysSet:
    return SidewaysSet.joined([table_crops(seed, style, px_per_mm=(1.3, 2.6), jittered=False) for seed in seeds])


def batch_of(data: SidewaysSet, recipe: Recipe, rng: np.random.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """A batch with ``sideways_share`` sideways crops, each turned half round and mirrored at
    random and re-exposed."""
    sideways = np.flatnonzero(data.sideways)
    upright = np.flatnonzero(~data.sideways)
    count = round(recipe.batch * recipe.sideways_share)
    picks = np.concatenate([rng.choice(sideways, count), rng.choice(upright, recipe.batch - count)])
    crops = data.crops[picks].copy()
    for i in range(len(crops)):
        if rng.random() < 0.5:
            crops[i] = crops[i, ::-1]
        if rng.random() < 0.5:
            crops[i] = crops[i, :, ::-1]
    return reexposed(to_tensor(crops, MEAN, STD), rng), torch.from_numpy(data.sideways[picks].astype(np.float32))


def fit(model: nn.Module, data: SidewaysSet, recipe: Recipe) -> None:
    fit_one_output(
        model,
        lambda rng: batch_of(data, recipe, rng),
        nn.functional.binary_cross_entropy_with_logits,
        seed=recipe.seed,
        steps=recipe.steps,
        learning_rate=recipe.learning_rate,
        log_every=200,
    )


def predict(model: nn.Module, crops: np.ndarray) -> np.ndarray:
    return np.asarray(torch.sigmoid(torch.from_numpy(outputs_of(model, crops, MEAN, STD))).numpy())


def score(probabilities: np.ndarray, sideways: np.ndarray, threshold: float) -> dict[str, Any]:
    called = probabilities > threshold
    return {
        "threshold": threshold,
        "crops": len(sideways),
        "sideways": int(sideways.sum()),
        "sideways_missed": int((sideways & ~called).sum()),
        "upright_called_sideways": int((~sideways & called).sum()),
        "sideways_recall": round(float((sideways & called).sum() / max(int(sideways.sum()), 1)), 4),
    }


def export_judge(
    model: nn.Module,
    out: str,
    *,
    threshold: float,
    metrics: dict[str, Any],
    validation: dict[str, Any],
    recipe: dict[str, Any],
    timings: dict[str, int],
    counts: dict[str, int],
    code: str,
) -> Path:
    onnx_path = export_crop_model(model, Path(out) / f"{MODEL_NAME}.onnx", (INPUT_SIZE, INPUT_SIZE), "sideways_logit")
    metadata = {
        "input": crop_input(
            {"size": INPUT_SIZE},
            CONTEXT,
            MEAN,
            STD,
            "a square CONTEXT tile lengths across about the tile's centre, turned so that its row's "
            "upright axis points up (vision.detect.sideways_judge.row_crop, row_axes)",
        ),
        "output": "one logit: the tile at the crop's centre lies across its row (sideways)",
        "sideways_above": threshold,
        "training": {
            "command": ".venv/bin/python -m vision.training.train_sideways --out models",
            "code": code,
            "recipe": recipe,
            "data": (
                f"tables drawn by vision.render at {TRAIN_PX_PER_MM[0]}-{TRAIN_PX_PER_MM[1]} px/mm in the detector's "
                "art mix (vision.training.detector_data.detector_training_art), seeds 0..train_tables-1; crops "
                f"where the shipped detector found each tile (row axis from neighbours within {ROW_REACH} tile "
                f"lengths), and true tiles with the centre moved up to {CENTRE_JITTER} face widths, the axis "
                f"turned by N(0, {AXIS_JITTER_DEG} deg), the scale by up to {SCALE_JITTER}: sideways ones "
                f"{SIDEWAYS_COPIES} times, upright ones with probability {UPRIGHT_SHARE}; half turns, mirrors, "
                "contrast/brightness/white balance"
            ),
            "validation": f"seeds {VALIDATION_SEEDS.start}-{VALIDATION_SEEDS.stop - 1} in the training styles, "
            "1.3-2.6 px/mm, crops as found: picks sideways_above (fewest errors)",
            "held_out": f"the 'black' art style (never in training), seeds {HELD_OUT_SEEDS.start}-"
            f"{HELD_OUT_SEEDS.stop - 1}, 1.3-2.6 px/mm, crops as found",
            "timings_s": timings,
            "counts": counts,
        },
        "metrics_validation": validation,
        "metrics_held_out": metrics,
    }
    write_model_metadata(onnx_path, metadata)
    return onnx_path


if __name__ == "__main__":
    main()
