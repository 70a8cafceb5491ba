"""Train the tile-centre detector and export it to ``models/`` (needs the ``train`` extra).

    .venv/bin/python -m vision.training.train_detector --out models [--cache DIR]

Reproducible: fixed seeds, one CPU thread, a fixed number of steps. Training frames are
rendered tables: half in the lightness-inverted ``regular-dark`` variation of the regular art,
a quarter ``regular``, a quarter in random palettes of it, 1920×1080, scaled to the
network's input as the run time scales them; the
network learns on random 128×128 windows of them (flipped, transposed, re-exposed). The
held-out check is the ``black`` art, never used in training, on tables from another seed
range. ``--cache`` keeps the rendered frames (the slow part) for a rerun.
"""

from __future__ import annotations

import argparse
import logging
import time
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from table_app.progress import progress
from vision.eval.matching import match_quads
from vision.find.centres import CHANNELS, INPUT_LONG_SIDE, MEAN, PAD_TO, STD, STRIDE, decode_peaks, portrait_corners
from vision.render.tile_art import ArtStyle
from vision.training.batches import reexposed, to_tensor
from vision.training.detector_data import (
    FRAME_SIZE,
    TRAIN_PX_PER_MM,
    FrameSet,
    cached_frames,
    render_frames,
    sideways_cells_of,
    window_around,
)
from vision.training.detector_model import TileCentreNet
from vision.training.export import code_version, write_model_metadata
from vision.training.onnx_weights import detector_from_onnx, freeze_batch_norm
from vision.training.photo_frames import PhotoFrames, cached_photo_frames
from vision.training.recipe_options import add_recipe_options, recipe_from

log = logging.getLogger(__name__)

MODEL_NAME = "tile-detector"
HELD_OUT_SEEDS = range(1_000_000, 1_000_016)  # black style, as the classifier's check
VALIDATION_SEEDS = range(900_000, 900_010)  # the training styles, unseen tables: picks the peak threshold
SIDEWAYS_WEIGHT = 10.0
THRESHOLDS = (0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)


@dataclass(frozen=True, slots=True)
class Recipe:
    seed: int = 11
    train_tables: int = 220
    steps: int = 7000
    batch: int = 24
    window: int = 128
    learning_rate: float = 4e-3
    sideways_windows: float = 0.3  # the share of windows drawn around a sideways tile (they are ~3% of tiles)
    photo_share: float = 0.5  # the share of each batch cut from real photographs (with --photos)
    threads: int = 1
    init: str = ""  # an ONNX detector to start from (fine-tuning; batch norm statistics stay fixed)


def main() -> None:
    defaults = Recipe()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="models", help="folder for the ONNX model and its metadata")
    parser.add_argument("--cache", help="folder to keep rendered training frames in (reused when present)")
    add_recipe_options(
        parser,
        defaults,
        "detector",
        "labels.json of a real-photo source built by vision.training.real_photos (its train split; repeatable)",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    recipe = recipe_from(args, defaults)
    run(recipe, args.out, args.cache, args.photos)


def run(recipe: Recipe, out: str, cache: str | None = None, photo_sources: list[Path] | None = None) -> None:
    # The development machine is shared; a fixed thread count keeps the weights reproducible.
    torch.set_num_threads(recipe.threads)
    torch.manual_seed(recipe.seed)
    code = code_version()  # at the start: the tree may change while the recipe runs
    started = time.monotonic()
    inputs, targets = cached_frames(range(recipe.train_tables), cache)
    photos = None
    if photo_sources:
        sets = [cached_photo_frames(path, recipe.seed, cache) for path in photo_sources]
        photos = PhotoFrames(np.concatenate([p.inputs for p in sets]), np.concatenate([p.targets for p in sets]))
        log.info("photo frames %d from %s", len(photos.inputs), ", ".join(str(p) for p in photo_sources))
    validation = render_frames(VALIDATION_SEEDS, px_per_mm=(1.3, 2.6))
    held_out = render_frames(HELD_OUT_SEEDS, ArtStyle.BLACK, px_per_mm=(1.3, 2.6))
    rendered = time.monotonic() - started
    log.info("training frames %d, held-out frames %d, rendering %.0f s", len(inputs), len(held_out.inputs), rendered)
    model = detector_from_onnx(Path(recipe.init)) if recipe.init else TileCentreNet()
    fit(model, inputs, targets, recipe, photos)
    trained = time.monotonic() - started - rendered
    model.eval()
    # The threshold is chosen on the training styles (best F1), never on the held-out style.
    scores = [evaluate(model, validation, threshold) for threshold in THRESHOLDS]
    best = max(scores, key=lambda s: 2 * s["recall"] * s["precision"] / max(s["recall"] + s["precision"], 1e-9))
    log.info("validation: %s", scores)
    metrics = evaluate(model, held_out, best["peak_threshold"])
    log.info("held-out metrics: %s", metrics)
    export_detector(
        model,
        out,
        metrics=metrics,
        validation=best,
        recipe={field.name: getattr(recipe, field.name) for field in fields(recipe)},
        timings={"render_s": round(rendered), "train_s": round(trained)},
        counts={
            "train_frames": len(inputs),
            "photo_frames": 0 if photos is None else len(photos.inputs),
            "held_out_frames": len(held_out.inputs),
        },
        photo_sources=[str(p) for p in photo_sources or ()],
        code=code,
    )


def windows(
    inputs: np.ndarray,
    targets: np.ndarray,
    recipe: Recipe,
    rng: np.random.Generator,
    sideways_cells: list[np.ndarray] | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """A batch of random windows, each flipped and transposed at random (targets changed to match)."""
    size, cells = recipe.window, recipe.window // STRIDE
    frames = rng.integers(0, len(inputs), recipe.batch)
    pixels = np.empty((recipe.batch, size, size, 3), np.uint8)
    maps = np.empty((recipe.batch, targets.shape[1], cells, cells), np.float32)
    for i, frame in enumerate(frames):
        y = int(rng.integers(0, (inputs.shape[1] - size) // STRIDE + 1)) * STRIDE
        x = int(rng.integers(0, (inputs.shape[2] - size) // STRIDE + 1)) * STRIDE
        if sideways_cells is not None and rng.random() < recipe.sideways_windows:
            y, x = window_around(sideways_cells, frame, inputs.shape[1:3], size, rng=rng, fallback=(y, x))
        image = inputs[frame, y : y + size, x : x + size]
        target = targets[frame, :, y // STRIDE : y // STRIDE + cells, x // STRIDE : x // STRIDE + cells].astype(
            np.float32
        )
        if rng.random() < 0.5:  # mirror left-right: the centre's offset mirrors, the axis turns the other way
            image, target = image[:, ::-1], target[:, :, ::-1].copy()
            target[1], target[6] = 1.0 - target[1], -target[6]
        if rng.random() < 0.5:  # mirror top-bottom
            image, target = image[::-1], target[:, ::-1].copy()
            target[2], target[6] = 1.0 - target[2], -target[6]
        if rng.random() < 0.5:  # transpose: x and y swap, the axis φ becomes -90° - φ
            image, target = image.transpose(1, 0, 2), target.transpose(0, 2, 1).copy()
            target[[1, 2]] = target[[2, 1]]
            target[5] = -target[5]
        pixels[i] = image
        maps[i] = target
    return reexposed(to_tensor(pixels, MEAN, STD), rng), torch.from_numpy(maps)


def loss_of(output: torch.Tensor, target: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """CenterNet's focal loss on the heat map, and the bump-weighted regression losses."""
    heat = torch.sigmoid(output[:, 0]).clamp(1e-4, 1 - 1e-4)
    truth = target[:, 0]
    positive = (truth >= 0.999).float()
    negative_weight = (1 - truth) ** 4
    focal = -(
        positive * (1 - heat) ** 2 * torch.log(heat) + (1 - positive) * negative_weight * heat**2 * torch.log(1 - heat)
    )
    heat_loss = focal.sum() / positive.sum().clamp(min=1.0)
    weight = target[:, 8]
    total = weight.sum().clamp(min=1.0)
    # A photograph's box does not say everything (vision/training/photo_frames.py): its unknown
    # targets are NaN and cost nothing.
    known = ~torch.isnan(target)
    target = torch.nan_to_num(target)
    regression = (output[:, 1:7] - target[:, 1:7]).abs() * known[:, 1:7]
    regression = regression * torch.tensor([1.0, 1.0, 2.0, 2.0, 1.0, 1.0]).view(1, 6, 1, 1)
    # Few tiles lie sideways (riichi discards, called tiles): their cells weigh more, or the
    # head learns to say "upright" everywhere.
    sideways = (
        nn.functional.binary_cross_entropy_with_logits(
            output[:, 7], target[:, 7], reduction="none", pos_weight=torch.tensor(SIDEWAYS_WEIGHT)
        )
        * known[:, 7]
    )
    other = ((regression.sum(dim=1) + sideways) * weight).sum() / total
    return heat_loss, other


def fit(
    model: nn.Module, inputs: np.ndarray, targets: np.ndarray, recipe: Recipe, photos: PhotoFrames | None = None
) -> None:
    """Train on windows of the rendered frames and, with ``photos``, a ``recipe.photo_share``
    of each batch from the photographs' frames."""
    rng = np.random.default_rng(recipe.seed)
    optimiser = torch.optim.AdamW(model.parameters(), lr=recipe.learning_rate, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=recipe.learning_rate, total_steps=recipe.steps)
    model.train()
    if recipe.init:
        freeze_batch_norm(model)
    started = time.monotonic()
    sideways = sideways_cells_of(targets)
    photo_batch = round(recipe.batch * recipe.photo_share) if photos is not None else 0
    rendered_recipe = replace(recipe, batch=recipe.batch - photo_batch)
    photo_recipe = replace(recipe, batch=photo_batch, sideways_windows=0.0)
    for step in progress(range(recipe.steps), "train"):  # a bar on a terminal; the log lines stay
        x, target = windows(inputs, targets, rendered_recipe, rng, sideways)
        if photos is not None and photo_batch:
            x_photo, target_photo = windows(photos.inputs, photos.targets, photo_recipe, rng)
            x, target = torch.cat([x, x_photo]), torch.cat([target, target_photo])
        heat_loss, other = loss_of(model(x), target)
        loss = heat_loss + other
        optimiser.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call,unused-ignore]  # typed only where torch is installed
        optimiser.step()
        schedule.step()
        if step % 100 == 0:
            log.info(
                "step %d/%d heat %.3f other %.3f (%.0f s)",
                step,
                recipe.steps,
                heat_loss.item(),
                other.item(),
                time.monotonic() - started,
            )


def evaluate(model: nn.Module, frames: FrameSet, threshold: float) -> dict[str, Any]:
    """Recall and precision of decoded centres (the bench's matcher), sideways accuracy and
    the mean corner error of matched tiles in face short edges, on whole frames."""
    truths = found = matched = sideways_truths = sideways_found = upright_called_sideways = 0
    corner_errors: list[float] = []
    with torch.no_grad():
        for pixels, corners, sideways in zip(frames.inputs, frames.truths, frames.sideways, strict=True):
            output = model(to_tensor(pixels[None], MEAN, STD))[0].numpy()
            peaks = decode_peaks(output, threshold)
            quads = [portrait_corners(peak, 1.0) for peak in peaks]
            width = float(np.median([np.linalg.norm(c[1] - c[0]) for c in corners])) if corners else 1.0
            matches = match_quads(list(corners), quads, width)
            truths, found, matched = truths + len(corners), found + len(quads), matched + len(matches)
            for match in matches:
                called = peaks[match.found].sideways > 0.5
                sideways_truths += sideways[match.truth]
                sideways_found += called and sideways[match.truth]
                upright_called_sideways += called and not sideways[match.truth]
                error = _portrait_error(corners[match.truth], quads[match.found])
                corner_errors.append(error / width)
    return {
        "frames": len(frames.inputs),
        "tiles": truths,
        "recall": round(matched / max(truths, 1), 4),
        "precision": round(matched / max(found, 1), 4),
        "sideways_recall": round(sideways_found / max(sideways_truths, 1), 4),
        "upright_called_sideways": upright_called_sideways,
        "mean_corner_error_widths": round(float(np.mean(corner_errors)) if corner_errors else 0.0, 4),
        "peak_threshold": threshold,
    }


def _portrait_error(truth: np.ndarray, quad: np.ndarray) -> float:
    """Mean corner distance between a true face and a portrait quad, whichever short edge is its top."""
    return min(float(np.linalg.norm(truth - np.roll(quad, k, axis=0), axis=1).mean()) for k in (0, 2))


def export_detector(
    model: nn.Module,
    out: str,
    *,
    metrics: dict[str, Any],
    validation: dict[str, Any],
    recipe: dict[str, Any],
    timings: dict[str, int],
    counts: dict[str, int],
    code: str,
    photo_sources: list[str] | None = None,
) -> Path:
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    onnx_path = folder / f"{MODEL_NAME}.onnx"
    model.eval()
    torch.onnx.export(
        model,
        (torch.zeros(1, 3, 272, 480),),
        str(onnx_path),
        dynamo=False,
        input_names=["frame"],
        output_names=["maps"],
        dynamic_axes={"frame": {2: "height", 3: "width"}, "maps": {2: "rows", 3: "columns"}},
        opset_version=17,
    )
    metadata = {
        "input": {
            "long_side": INPUT_LONG_SIDE,
            "pad_to": PAD_TO,
            "layout": "NCHW",
            "channels": "BGR",
            "scale": 1 / 255,
            "mean": MEAN,
            "std": STD,
            "frame": "the whole frame scaled (area averaging) so its longer side is long_side, zero-padded "
            "bottom and right to a multiple of pad_to (vision.find.centres.net_input)",
        },
        "output": {
            "stride": STRIDE,
            "channels": list(CHANNELS),
            "meaning": "see vision/find/centres.py: heat and sideways are logits; offsets in cells; sizes are "
            "log input pixels; cos2/sin2 of twice the long axis' clockwise turn from the image's up",
        },
        "peak_threshold": validation["peak_threshold"],
        # Trained with zoomed-in photo frames, the model ignores tiles much longer than it
        # learnt: the run time may look at a pyramid of scales (vision.find.learnt).
        "looks": "pyramid" if photo_sources else "single",
        "training": {
            "command": ".venv/bin/python -m vision.training.train_detector --out models",
            "code": code,
            "recipe": recipe,
            "data": (
                f"tables drawn by vision.render (FluffyStuff CC0 art) at {FRAME_SIZE[0]}x{FRAME_SIZE[1]}, "
                f"{TRAIN_PX_PER_MM[0]}-{TRAIN_PX_PER_MM[1]} px/mm, 'regular' style (1 in 4), its lightness-inverted "
                "'regular-dark' variation (2 in 4) and random palettes of the regular art (1 in 4), "
                "seeds 0..train_tables-1; targets from the exact "
                "face corners; random 128x128 windows, flips, transposes, contrast/brightness/white balance"
            ),
            "photos": (
                "real photographs, the train split of each source built by vision.training.real_photos "
                "(models/DATA.md): " + ", ".join(photo_sources)
                if photo_sources
                else "none"
            ),
            "validation": f"seeds {VALIDATION_SEEDS.start}-{VALIDATION_SEEDS.stop - 1} in the training styles, "
            "1.3-2.6 px/mm: picks peak_threshold (best F1)",
            "held_out": f"the 'black' art style (never in training), seeds {HELD_OUT_SEEDS.start}-"
            f"{HELD_OUT_SEEDS.stop - 1}, 1.3-2.6 px/mm",
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
