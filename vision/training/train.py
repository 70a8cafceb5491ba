"""Train the tile classifier and export it to ``models/`` (needs the ``train`` extra).

    .venv/bin/python -m vision.training.train --out models

Reproducible: fixed seeds, one CPU thread, a fixed number of steps. Training tables use the
``regular`` art, its lightness-inverted ``regular-dark`` variation, and (half of them) the
regular art in random palettes (:mod:`vision.render.tile_palette`: the classifier must read shapes,
not colours); the evaluation uses the ``black`` art, never seen in training, on tables from a
separate seed range.
"""

from __future__ import annotations

import argparse
import logging
import math
import time
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np
import torch
from torch import nn

from table_app.progress import progress
from vision.classify.labels import LABEL_COUNT, kind_of_label
from vision.render.tile_art import ArtStyle
from vision.training.batches import to_tensor
from vision.training.dataset import CropSet, render_crops, training_art
from vision.training.export import code_version, export_model
from vision.training.face_mix import face_mix_of
from vision.training.finder_crops import load_crops
from vision.training.metrics import evaluate, outliers_read_as_sure
from vision.training.model import MEAN, STD, TileNet
from vision.training.onnx_weights import classifier_from_onnx, freeze_batch_norm
from vision.training.photo_crops import PhotoCrops, photo_crops
from vision.training.real_photos import checked_label_sets
from vision.training.recipe_options import add_recipe_options, recipe_from

log = logging.getLogger(__name__)

HELD_OUT_SEEDS = range(1_000_000, 1_000_080)


@dataclass(frozen=True, slots=True)
class Recipe:
    seed: int = 7
    train_tables: int = 1000
    steps: int = 4800
    batch: int = 128
    learning_rate: float = 3e-3
    outliers_per_batch: int = 16
    outlier_weight: float = 0.5
    photos_per_batch: int = 32  # crops of real photographs in each batch (with --photos)
    threads: int = 1
    init: str = ""  # an ONNX classifier to start from (fine-tuning; batch norm statistics stay fixed)
    stroke_share: float = 0.0  # the share of tables drawn with thicker or thinner strokes (vision.training.face_mix)
    faces: str = ""  # a tile set's enrolled faces (a folder or an enrollment file), drawn on faces_share of tables
    faces_share: float = 0.25
    #: Crops cut where the shipped pipeline finds labelled tiles (vision.training.finder_crops),
    #: drawn into the photo crops' share of each batch.
    finder_crops: tuple[str, ...] = ()


def main() -> None:
    defaults = Recipe()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="models", help="folder for the ONNX model, metadata and card data")
    add_recipe_options(
        parser,
        defaults,
        "classifier",
        "labels.json of a real-photo source built by vision.training.real_photos: its train split's boxes "
        "are trained on, its held-out split (if any) is reported (repeatable)",
    )
    parser.add_argument(
        "--photos-per-batch", type=int, default=defaults.photos_per_batch, help="photo crops in each batch (--photos)"
    )
    parser.add_argument(
        "--finder-crops",
        type=Path,
        action="append",
        default=[],
        metavar="NPZ",
        help="crops cut where the shipped pipeline finds labelled tiles (vision.training.finder_crops), "
        "trained on with the photo crops (repeatable)",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    for path in args.finder_crops:
        try:
            load_crops(path)  # before anything is drawn: a broken file ends the run in one line
        except ValueError as error:
            parser.exit(1, f"{error}\n")
    recipe = recipe_from(
        args,
        defaults,
        photos_per_batch=args.photos_per_batch,
        finder_crops=tuple(str(path) for path in args.finder_crops),
    )
    run(recipe, args.out, checked_label_sets(args.photos))


def run(recipe: Recipe, out: str, photo_sources: list[Path] | None = None) -> None:
    # The development machine is shared; a fixed thread count keeps the weights reproducible.
    torch.set_num_threads(recipe.threads)
    torch.manual_seed(recipe.seed)
    code = code_version()  # at the start: the tree may change while the recipe runs
    started = time.monotonic()
    mix = face_mix_of(recipe.stroke_share, recipe.faces, recipe.faces_share)
    train = render_crops(range(recipe.train_tables), training_art, finder_crops=True, outliers=True, mix=mix)
    held_out = render_crops(HELD_OUT_SEEDS, lambda _: ArtStyle.BLACK, back_keep=1.0, red_copies=1, outliers=True)
    photos = None
    photo_checks: dict[str, PhotoCrops] = {}
    sets = [photo_crops(path, "train", recipe.seed) for path in photo_sources or ()]
    sets += [load_crops(Path(path)) for path in recipe.finder_crops]
    if sets:
        photos = PhotoCrops(np.concatenate([c.images for c in sets]), np.concatenate([c.labels for c in sets]))
    if photo_sources:
        for path in photo_sources:
            check = photo_crops(path, "held-out", recipe.seed + 1, copies=1, jitter=0.0)
            if len(check.labels):
                photo_checks[path.parent.name] = check
    rendered = time.monotonic() - started
    log.info("train crops %d, held-out crops %d, rendering %.0f s", len(train.labels), len(held_out.labels), rendered)
    model = classifier_from_onnx(Path(recipe.init)) if recipe.init else TileNet()
    fit(model, train, recipe, photos)
    trained = time.monotonic() - started - rendered
    model.eval()
    metrics = evaluate(lambda x: predict(model, x), held_out)
    metrics["outliers_read_as_sure"] = outliers_read_as_sure(predict(model, held_out.outliers))
    for name, check in photo_checks.items():
        metrics[f"photos_{name}_kind_accuracy"] = photo_kind_accuracy(predict(model, check.images), check.labels)
        metrics[f"photos_{name}_crops"] = len(check.labels)
    log.info("held-out metrics: %s", {k: v for k, v in metrics.items() if not isinstance(v, dict)})
    export_model(
        model,
        out,
        metrics=metrics,
        recipe={**_recipe_dict(recipe), "face_styles": mix.record()},
        timings={"render_s": round(rendered), "train_s": round(trained)},
        counts={
            "train_crops": len(train.labels),
            "photo_crops": 0 if photos is None else len(photos.labels),
            "held_out_crops": len(held_out.labels),
        },
        code=code,
    )


def _recipe_dict(recipe: Recipe) -> dict[str, object]:
    return {field.name: getattr(recipe, field.name) for field in fields(recipe)}


def augment(x: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """Cheap per-sample photometric changes on top of the renderer's: contrast, brightness,
    white balance, and a shift of up to two pixels."""
    n = x.shape[0]
    contrast = torch.empty(n, 1, 1, 1).uniform_(0.7, 1.3, generator=generator)
    brightness = torch.empty(n, 1, 1, 1).uniform_(-0.4, 0.4, generator=generator)
    balance = torch.empty(n, 3, 1, 1).uniform_(-0.15, 0.15, generator=generator)
    x = x * contrast + brightness + balance
    dx, dy = (int(v) for v in torch.randint(-2, 3, (2,), generator=generator))
    return torch.roll(x, shifts=(dy, dx), dims=(2, 3))


def photo_kind_accuracy(probabilities: np.ndarray, labels: np.ndarray) -> float:
    """34-kind accuracy (red fives fold onto their kind) of crops whose way up is unknown."""
    read = (probabilities[:, :LABEL_COUNT] + probabilities[:, LABEL_COUNT:]).argmax(axis=1)
    kinds = np.array([kind_of_label(int(label)) for label in read])
    truths = np.array([kind_of_label(int(label)) for label in labels])
    return round(float((kinds == truths).mean()), 4)


def either_way_up_loss(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """Negative log of the label's probability read either way up (a photo box does not say which)."""
    both = torch.stack(
        [logits[torch.arange(len(labels)), labels], logits[torch.arange(len(labels)), labels + LABEL_COUNT]]
    )
    return (torch.logsumexp(logits, dim=1) - torch.logsumexp(both, dim=0)).mean()


def fit(model: nn.Module, data: CropSet, recipe: Recipe, photos: PhotoCrops | None = None) -> None:
    generator = torch.Generator().manual_seed(recipe.seed)
    images = to_tensor(data.images, MEAN, STD)
    targets = torch.from_numpy(data.labels + LABEL_COUNT * data.flipped.astype(np.int64))
    outliers = to_tensor(data.outliers, MEAN, STD)
    stray_count = recipe.outliers_per_batch if len(outliers) else 0
    photo_images = to_tensor(photos.images, MEAN, STD) if photos is not None else None
    photo_labels = torch.from_numpy(photos.labels) if photos is not None else None
    photo_count = recipe.photos_per_batch if photo_images is not None and len(photo_images) else 0
    optimiser = torch.optim.AdamW(model.parameters(), lr=recipe.learning_rate, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=recipe.learning_rate, total_steps=recipe.steps)
    loss_of = nn.CrossEntropyLoss(label_smoothing=0.05)
    model.train()
    if recipe.init:
        freeze_batch_norm(model)
    started = time.monotonic()
    for step in progress(range(recipe.steps), "train"):  # a bar on a terminal; the log lines stay
        batch = torch.randint(0, len(targets), (recipe.batch,), generator=generator)
        strays = torch.randint(0, max(len(outliers), 1), (stray_count,), generator=generator)
        parts = [images[batch], outliers[strays]]
        real = torch.zeros(0, dtype=torch.int64)
        if photo_count and photo_images is not None:  # drawn only with photos: the rendered-only recipe is unchanged
            real = torch.randint(0, len(photo_images), (photo_count,), generator=generator)
            parts.append(photo_images[real])
        # Tiles, outliers and photo crops go through in one batch: batch norm's running statistics
        # must describe the mix the model sees, not whichever of several batches came last.
        logits = model(augment(torch.cat(parts), generator))
        tile_logits = logits[: len(batch)]
        stray_logits = logits[len(batch) : len(batch) + stray_count]
        loss = loss_of(tile_logits, targets[batch])
        if photo_count and photo_labels is not None:
            loss = loss + either_way_up_loss(logits[len(batch) + stray_count :], photo_labels[real])
        if len(strays):
            # KL divergence from the uniform distribution (0 when no label is any surer).
            uniform = torch.logsumexp(stray_logits, dim=1) - stray_logits.mean(dim=1) - math.log(logits.shape[1])
            loss = loss + recipe.outlier_weight * uniform.mean()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        if step % 100 == 0:
            log.info("step %d/%d loss %.3f (%.0f s)", step, recipe.steps, loss.item(), time.monotonic() - started)


def predict(model: nn.Module, images: np.ndarray) -> np.ndarray:
    """76 probabilities per crop, as the ONNX model's softmax would give."""
    with torch.no_grad():
        out = [
            torch.softmax(model(to_tensor(images[i : i + 512], MEAN, STD)), dim=1) for i in range(0, len(images), 512)
        ]
    return np.asarray(torch.cat(out).numpy())


if __name__ == "__main__":
    main()
