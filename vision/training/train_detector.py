"""Train the tile-centre detector and export it to ``models/`` (needs the ``train`` extra).

    .venv/bin/python -m vision.training.train_detector --out models [--cache DIR]

Reproducible: fixed seeds, one CPU thread, a fixed number of steps. Training frames are
rendered tables: half in the lightness-inverted ``regular-dark`` variation of the regular art,
a quarter ``regular``, a quarter in random palettes of it, 1920×1080, scaled to the
network's input as the run time scales them; the
network learns on random 128×128 windows of them (flipped, transposed, re-exposed). The
held-out check is the ``black`` art, never used in training, on tables from another seed
range. ``--cache`` keeps the rendered frames (the slow part) for a rerun.

On a GPU machine (``scripts/train-detector-gpu``): ``--device cuda``, ``--workers N``
processes cutting windows (another count draws other windows; on a GPU the weights are
reproducible only up to its arithmetic), ``--jobs N`` processes drawing frames (the same
frames whatever the count), and ``--seconds S`` in place of ``--steps`` (the steps that fit
are measured first and written in the recipe).
"""

from __future__ import annotations

import argparse
import copy
import functools
import logging
import time
from collections.abc import Iterator
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
from vision.training.crop_changes import blurred
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
from vision.training.face_mix import face_mix_of
from vision.training.onnx_weights import detector_from_onnx, freeze_batch_norm
from vision.training.photo_frames import CONTEXTS, PhotoFrames, cached_photo_frames, context_scenes
from vision.training.processes import starmap_jobs
from vision.training.real_photos import checked_label_sets
from vision.training.recipe_options import add_recipe_options, recipe_from

log = logging.getLogger(__name__)

MODEL_NAME = "tile-detector"
HELD_OUT_SEEDS = range(1_000_000, 1_000_016)  # black style, as the classifier's check
VALIDATION_SEEDS = range(900_000, 900_010)  # the training styles, unseen tables: picks the peak threshold
SIDEWAYS_WEIGHT = 10.0
#: The widest blur ``Recipe.blurred`` draws, in input pixels.
DETECTOR_MOST_SIGMA = 1.0
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
    photo_crops: int = 2  # frames cut from each original photograph (augmented copies: augmented_crops)
    augmented_crops: int = 1
    width: float = 1.0  # the network's channel multiplier (TileCentreNet)
    workers: int = 0  # processes cutting windows (0: in the training loop; another count, other windows)
    device: str = "cpu"  # where the network trains ("cuda" on a GPU machine); windows are cut on the CPU
    stroke_share: float = 0.0  # the share of tables drawn with thicker or thinner strokes (vision.training.face_mix)
    faces: str = ""  # a tile set's enrolled faces (a folder or an enrollment file), drawn on faces_share of tables
    faces_share: float = 0.25
    #: The share of windows blurred a little (a Gaussian, sigma 0.4 to DETECTOR_MOST_SIGMA input
    #: pixels): at the detector's scale a tile is 8-22 px long, so a lens a little off the table
    #: softens its strokes by a fraction of a pixel, and the shipped detector lost a tenth of
    #: a held-out source's finds to a blur of a 25th of a tile (bench_photo_changes' defocus).
    blurred: float = 0.0
    #: What a photo frame shows beyond a scaled photograph's edges (vision.training.photo_frames.CONTEXTS).
    photo_context: str = "black"


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
    parser.add_argument("--batch", type=int, default=defaults.batch, help="windows a step")
    parser.add_argument("--photo-crops", type=int, default=defaults.photo_crops, help="frames cut from each photograph")
    parser.add_argument(
        "--augmented-crops", type=int, default=defaults.augmented_crops, help="frames cut from each augmented copy"
    )
    parser.add_argument(
        "--photo-share", type=float, default=defaults.photo_share, help="share of each batch cut from photographs"
    )
    parser.add_argument("--width", type=float, default=defaults.width, help="the network's channel multiplier")
    parser.add_argument("--blurred", type=float, default=defaults.blurred, help="share of windows blurred a little")
    parser.add_argument(
        "--photo-context",
        choices=CONTEXTS,
        default=defaults.photo_context,
        help="what a photo frame shows beyond the photograph's edges",
    )
    parser.add_argument("--workers", type=int, default=defaults.workers, help="processes cutting windows")
    parser.add_argument("--device", default=defaults.device, help="torch device to train on (cpu, cuda)")
    parser.add_argument("--jobs", type=int, default=1, help="processes drawing the training frames")
    parser.add_argument(
        "--prepare", action="store_true", help="only draw and cut the training frames into --cache, then stop"
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=0.0,
        help="instead of --steps: as many steps as fit in this many seconds, measured on this machine first "
        "(the steps chosen are logged and written in the recipe, so --steps reruns it)",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    recipe = recipe_from(
        args,
        defaults,
        batch=args.batch,
        photo_share=args.photo_share,
        photo_crops=args.photo_crops,
        augmented_crops=args.augmented_crops,
        width=args.width,
        workers=args.workers,
        device=args.device,
        blurred=args.blurred,
        photo_context=args.photo_context,
    )
    photos = checked_label_sets(args.photos)
    context_scenes(recipe.photo_context, photos)  # a context without its scenes stops here
    if args.prepare:
        if not args.cache:
            parser.error("--prepare keeps the frames in --cache: name one")
        training_frames(recipe, args.cache, photos, jobs=args.jobs)
        return
    run(recipe, args.out, args.cache, photos, jobs=args.jobs, seconds=args.seconds)


def training_frames(
    recipe: Recipe, cache: str | None, photo_sources: list[Path] | None, *, jobs: int = 1
) -> tuple[np.ndarray, np.ndarray, PhotoFrames | None]:
    """The rendered frames' inputs and targets, and the photo frames of every source (one
    process a source with ``jobs`` > 1), each kept in ``cache`` when given."""
    mix = face_mix_of(recipe.stroke_share, recipe.faces, recipe.faces_share)
    inputs, targets = cached_frames(range(recipe.train_tables), cache, jobs, mix)
    if not photo_sources:
        return inputs, targets, None
    work = [(path, recipe.seed, cache, recipe.photo_crops, recipe.augmented_crops) for path in photo_sources]
    scenes = context_scenes(recipe.photo_context, photo_sources)
    cut = functools.partial(cached_photo_frames, context=recipe.photo_context, scenes=scenes)
    sets = starmap_jobs(cut, work, jobs)
    photos = PhotoFrames(np.concatenate([p.inputs for p in sets]), np.concatenate([p.targets for p in sets]))
    log.info("photo frames %d from %s", len(photos.inputs), ", ".join(str(p) for p in photo_sources))
    return inputs, targets, photos


def run(
    recipe: Recipe,
    out: str,
    cache: str | None = None,
    photo_sources: list[Path] | None = None,
    *,
    jobs: int = 1,
    seconds: float = 0.0,
) -> None:
    # The development machine is shared; a fixed thread count keeps the weights reproducible.
    torch.set_num_threads(recipe.threads)
    torch.manual_seed(recipe.seed)
    code = code_version()  # at the start: the tree may change while the recipe runs
    started = time.monotonic()
    inputs, targets, photos = training_frames(recipe, cache, photo_sources, jobs=jobs)
    validation = render_frames(VALIDATION_SEEDS, px_per_mm=(1.3, 2.6), jobs=jobs)
    held_out = render_frames(HELD_OUT_SEEDS, ArtStyle.BLACK, px_per_mm=(1.3, 2.6), jobs=jobs)
    rendered = time.monotonic() - started
    log.info("training frames %d, held-out frames %d, rendering %.0f s", len(inputs), len(held_out.inputs), rendered)
    model = detector_from_onnx(Path(recipe.init), recipe.width) if recipe.init else TileCentreNet(recipe.width)
    if seconds > 0:
        recipe = replace(recipe, steps=steps_for(seconds, model, inputs, targets, recipe, photos=photos))
    fit(model, inputs, targets, recipe, photos)
    trained = time.monotonic() - started - rendered
    model.cpu().eval()
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
        recipe={
            **{field.name: getattr(recipe, field.name) for field in fields(recipe)},
            "face_styles": face_mix_of(recipe.stroke_share, recipe.faces, recipe.faces_share).record(),
        },
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
    pixels = blurred(pixels, rng, recipe.blurred, most_sigma=DETECTOR_MOST_SIGMA, most_shake=0)
    return reexposed(to_tensor(pixels, MEAN, STD), rng), torch.from_numpy(maps)


def loss_of(output: torch.Tensor, target: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """CenterNet's focal loss on the heat map, and the bump-weighted regression losses."""
    heat = torch.sigmoid(output[:, 0]).clamp(1e-4, 1 - 1e-4)
    # A photograph's heat is unknown (NaN) where a tile its edge cuts meets its own mirror image
    # (vision/training/photo_frames.py): no cost there either way.
    heat_known = ~torch.isnan(target[:, 0])
    truth = torch.nan_to_num(target[:, 0])
    positive = (truth >= 0.999).float()
    negative_weight = (1 - truth) ** 4
    focal = (
        -(
            positive * (1 - heat) ** 2 * torch.log(heat)
            + (1 - positive) * negative_weight * heat**2 * torch.log(1 - heat)
        )
        * heat_known
    )
    heat_loss = focal.sum() / positive.sum().clamp(min=1.0)
    weight = target[:, 8]
    total = weight.sum().clamp(min=1.0)
    # A photograph's box does not say everything (vision/training/photo_frames.py): its unknown
    # targets are NaN and cost nothing.
    known = ~torch.isnan(target)
    target = torch.nan_to_num(target)
    regression = (output[:, 1:7] - target[:, 1:7]).abs() * known[:, 1:7]
    regression = regression * torch.tensor([1.0, 1.0, 2.0, 2.0, 1.0, 1.0], device=output.device).view(1, 6, 1, 1)
    # Few tiles lie sideways (riichi discards, called tiles): their cells weigh more, or the
    # head learns to say "upright" everywhere.
    sideways = (
        nn.functional.binary_cross_entropy_with_logits(
            output[:, 7], target[:, 7], reduction="none", pos_weight=torch.tensor(SIDEWAYS_WEIGHT, device=output.device)
        )
        * known[:, 7]
    )
    other = ((regression.sum(dim=1) + sideways) * weight).sum() / total
    return heat_loss, other


class WindowStream(torch.utils.data.IterableDataset[tuple[torch.Tensor, torch.Tensor]]):
    """Batches of training windows without end: rendered windows, then (with photos) a
    ``recipe.photo_share`` of photo windows. In the training loop (``recipe.workers`` 0) the
    windows are drawn from ``recipe.seed`` as they always were; each worker process draws
    from its own stream (the seed and its number)."""

    def __init__(
        self, inputs: np.ndarray, targets: np.ndarray, recipe: Recipe, photos: PhotoFrames | None = None
    ) -> None:
        super().__init__()
        self.inputs, self.targets, self.photos = inputs, targets, photos
        self.sideways = sideways_cells_of(targets)
        photo_batch = round(recipe.batch * recipe.photo_share) if photos is not None else 0
        self.rendered_recipe = replace(recipe, batch=recipe.batch - photo_batch)
        self.photo_recipe = replace(recipe, batch=photo_batch, sideways_windows=0.0)
        self.seed = recipe.seed

    def __iter__(self) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
        worker = torch.utils.data.get_worker_info()
        rng = np.random.default_rng(self.seed if worker is None else [self.seed, worker.id])
        while True:
            x, target = windows(self.inputs, self.targets, self.rendered_recipe, rng, self.sideways)
            if self.photos is not None and self.photo_recipe.batch:
                x_photo, target_photo = windows(self.photos.inputs, self.photos.targets, self.photo_recipe, rng)
                x, target = torch.cat([x, x_photo]), torch.cat([target, target_photo])
            yield x, target


def _batches(stream: WindowStream, recipe: Recipe) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
    if recipe.workers == 0:
        return iter(stream)
    loader = torch.utils.data.DataLoader(
        stream, batch_size=None, num_workers=recipe.workers, pin_memory=recipe.device != "cpu", prefetch_factor=4
    )
    return iter(loader)


def fit(
    model: nn.Module, inputs: np.ndarray, targets: np.ndarray, recipe: Recipe, photos: PhotoFrames | None = None
) -> None:
    """Train on windows of the rendered frames and, with ``photos``, a ``recipe.photo_share``
    of each batch from the photographs' frames."""
    device = torch.device(recipe.device)
    model.to(device)
    optimiser = torch.optim.AdamW(model.parameters(), lr=recipe.learning_rate, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=recipe.learning_rate, total_steps=recipe.steps)
    model.train()
    if recipe.init:
        freeze_batch_norm(model)
    started = time.monotonic()
    batches = _batches(WindowStream(inputs, targets, recipe, photos), recipe)
    for step in progress(range(recipe.steps), "train"):  # a bar on a terminal; the log lines stay
        x, target = next(batches)
        heat_loss, other = loss_of(model(x.to(device, non_blocking=True)), target.to(device, non_blocking=True))
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


def steps_for(
    seconds: float,
    model: nn.Module,
    inputs: np.ndarray,
    targets: np.ndarray,
    recipe: Recipe,
    *,
    photos: PhotoFrames | None = None,
    probe_steps: int = 60,
) -> int:
    """How many of ``recipe``'s steps fit in ``seconds`` here: a copy of ``model`` trains
    ``probe_steps`` steps on the same batches, the last two thirds timed."""
    probe = copy.deepcopy(model).to(recipe.device)
    optimiser = torch.optim.AdamW(probe.parameters(), lr=recipe.learning_rate / 25)
    batches = _batches(WindowStream(inputs, targets, recipe, photos), recipe)
    timed_from = probe_steps // 3
    started = time.monotonic()
    for step in range(probe_steps):
        if step == timed_from:
            if recipe.device.startswith("cuda"):
                torch.cuda.synchronize()
            started = time.monotonic()
        x, target = next(batches)
        heat_loss, other = loss_of(probe(x.to(recipe.device)), target.to(recipe.device))
        optimiser.zero_grad()
        (heat_loss + other).backward()  # type: ignore[no-untyped-call,unused-ignore]
        optimiser.step()
    if recipe.device.startswith("cuda"):
        torch.cuda.synchronize()
    per_step = (time.monotonic() - started) / (probe_steps - timed_from)
    steps = max(100, int(seconds / per_step) // 100 * 100)
    log.info("%.1f ms a step here: %d steps fit in %.0f s", per_step * 1000, steps, seconds)
    return steps


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
