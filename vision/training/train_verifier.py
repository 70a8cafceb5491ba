"""Train the tile verifier and export it to ``models/`` (needs the ``train`` extra).

    .venv/bin/python -m vision.training.train_verifier --out models --cache DIR \\
        --photos real/alanchoi/labels.json --photos seat-view/labels.json --photos seat-negatives/labels.json

The examples are the shipped detector's finds (:mod:`vision.training.verifier_data`) on the
training split of each label set and on rendered tables, each called a tile or not against
the labels. One photograph group in seven (by a hash of its name) is kept apart: there the
threshold ``keep_above`` is chosen, the highest that still keeps :data:`KEEP_TILES` of the
true tiles found. Reproducible: fixed seeds, one CPU thread, a fixed number of steps.
``--cache`` keeps the mined crops (the slow part) for a rerun.
"""

from __future__ import annotations

import argparse
import logging
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Final

import numpy as np
import torch
from torch import nn

from table_app.progress import progress
from vision.classify.crops import CROP_SIZE
from vision.classify.verifier import CONTEXT
from vision.find.learnt import DEFAULT_DETECTOR, LearntTileFinder
from vision.onnx_models.cpu_session import nchw_input
from vision.training.batches import reexposed
from vision.training.crop_changes import blurred, recoloured
from vision.training.export import code_version, export_crop_model, write_model_metadata
from vision.training.model import conv_block
from vision.training.onnx_weights import freeze_batch_norm, load_folded_weights
from vision.training.real_photos import checked_label_sets
from vision.training.verifier_data import RENDERED_PX_PER_MM, VerifierCrops, mine_label_set, mine_rendered

log = logging.getLogger(__name__)

MODEL_NAME: Final = "tile-verifier"
MEAN: Final = 0.5
STD: Final = 0.25
#: The share of true finds the chosen threshold keeps on the validation groups, of the
#: photographs and of the rendered tables (the product's own view: a referee must not lose tiles).
KEEP_PHOTO_TILES: Final = 0.985
KEEP_RENDERED_TILES: Final = 0.998
RENDERED_SEEDS: Final = range(800_000, 801_000)  # apart from the detector's training and check seeds
_DATA_VERSION: Final = "v3"  # in cached file names: v2 calls finds by size and adds pieces of faces; v3 smaller tiles


@dataclass(frozen=True, slots=True)
class Recipe:
    seed: int = 5
    steps: int = 4000
    batch: int = 128
    learning_rate: float = 3e-3
    copies: int = 2  # crops of each called find (the first as found, the rest jittered)
    parts: int = 1  # pieces of each labelled face, as negatives
    rendered_tables: int = 150
    threads: int = 1
    init: str = ""  # a verifier's ONNX to start from (fine-tuning), its batch norms kept
    blurred: float = 0.0  # the share of each batch's crops blurred as a camera blurs (crop_changes.blurred)
    recoloured: float = 0.0  # the share of each batch's crops lit by another light (crop_changes.recoloured)


class VerifierNet(nn.Module):
    """A small CNN over the widened crop, one logit: about 2 M multiply-adds a crop."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv_block(3, 16, stride=2),  # 21×16
            conv_block(16, 32, stride=2),  # 11×8
            conv_block(32, 32),
            conv_block(32, 64, stride=2),  # 6×4
            conv_block(64, 64),
            nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(64, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.head(self.features(x))
        return out


def main() -> None:
    defaults = Recipe()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="models", help="folder for the ONNX model and its metadata")
    parser.add_argument("--cache", help="folder to keep the mined crops in (reused when present)")
    parser.add_argument("--photos", type=Path, action="append", default=[], metavar="LABELS", help="a label set")
    parser.add_argument("--detector", type=Path, default=DEFAULT_DETECTOR, help="the detector whose finds are used")
    parser.add_argument("--steps", type=int, default=defaults.steps)
    parser.add_argument("--learning-rate", type=float, default=defaults.learning_rate, help="the one-cycle peak")
    parser.add_argument("--init", default="", metavar="ONNX", help="start from this verifier's weights (fine-tune)")
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--blurred", type=float, default=defaults.blurred, help="share of crops blurred at random")
    parser.add_argument("--recoloured", type=float, default=defaults.recoloured, help="share of crops lit otherwise")
    parser.add_argument("--rendered-tables", type=int, default=defaults.rendered_tables)
    parser.add_argument("--jobs", type=int, default=1, help="processes drawing and mining the rendered tables")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    recipe = replace(
        defaults,
        steps=args.steps,
        seed=args.seed,
        rendered_tables=args.rendered_tables,
        learning_rate=args.learning_rate,
        init=args.init,
        blurred=args.blurred,
        recoloured=args.recoloured,
    )
    run(recipe, args.out, checked_label_sets(args.photos), args.detector, args.cache, jobs=args.jobs)


def mined(
    recipe: Recipe, sources: list[Path], detector: Path, cache: str | None, jobs: int = 1
) -> dict[str, VerifierCrops]:
    """Every source's called finds (and the rendered tables', named ``rendered``), each kept
    in ``cache`` when given."""
    finder = LearntTileFinder(detector, verifier=None)
    parts: dict[str, VerifierCrops] = {}
    named: list[tuple[str, Any]] = [(path.parent.name, path) for path in sources]
    named.append(("rendered", None))
    for name, path in named:
        size = f"-{recipe.rendered_tables}" if path is None else ""
        stem = (
            f"verifier-{_DATA_VERSION}-{name}{size}-{finder.sha256[:12]}-{recipe.seed}x{recipe.copies}p{recipe.parts}"
        )
        file = Path(cache) / f"{stem}.npz" if cache else None
        if file is not None and file.is_file():
            stored = np.load(file)
            part = VerifierCrops(stored["images"], stored["tiles"], stored["validation"])
        else:
            if path is None:
                seeds = range(RENDERED_SEEDS.start, RENDERED_SEEDS.start + recipe.rendered_tables)
                part = mine_rendered(seeds, finder, recipe.seed, recipe.copies, recipe.parts, jobs=jobs)
            else:
                part = mine_label_set(path, finder, recipe.seed, recipe.copies, recipe.parts)
            if file is not None:
                file.parent.mkdir(parents=True, exist_ok=True)
                np.savez(file, images=part.images, tiles=part.tiles, validation=part.validation)
        log.info("%s: %d tiles, %d not tiles", name, int(part.tiles.sum()), int((~part.tiles).sum()))
        parts[name] = part
    return parts


def run(
    recipe: Recipe, out: str, sources: list[Path], detector: Path, cache: str | None = None, *, jobs: int = 1
) -> None:
    torch.set_num_threads(recipe.threads)
    torch.manual_seed(recipe.seed)
    code = code_version()
    started = time.monotonic()
    parts = mined(recipe, sources, detector, cache, jobs)
    crops = VerifierCrops.joined(parts.values())
    mining = time.monotonic() - started
    train = VerifierCrops(crops.images[~crops.validation], crops.tiles[~crops.validation], crops.validation[:0])
    check = VerifierCrops(crops.images[crops.validation], crops.tiles[crops.validation], crops.validation[:0])
    log.info("training crops %d (%d tiles), validation %d", len(train.tiles), int(train.tiles.sum()), len(check.tiles))
    model = VerifierNet()
    if recipe.init:
        load_folded_weights(model, Path(recipe.init))
    fit(model, train, recipe)
    model.eval()
    photos = VerifierCrops.joined(part for name, part in parts.items() if name != "rendered")
    rendered = parts["rendered"]
    photo_scores = predict(model, photos.images[photos.validation])
    rendered_scores = predict(model, rendered.images[rendered.validation])
    keep_above = min(
        threshold_keeping(photo_scores[photos.tiles[photos.validation]], KEEP_PHOTO_TILES),
        threshold_keeping(rendered_scores[rendered.tiles[rendered.validation]], KEEP_RENDERED_TILES),
    )
    metrics = {
        "photos": rates(photo_scores, photos.tiles[photos.validation], keep_above),
        "rendered": rates(rendered_scores, rendered.tiles[rendered.validation], keep_above),
    }
    log.info("validation: %s", metrics)
    export(
        model,
        out,
        keep_above=keep_above,
        metrics=metrics,
        recipe=asdict(recipe),
        counts={"train": len(train.tiles), "train_tiles": int(train.tiles.sum()), "validation": len(check.tiles)},
        sources=[str(p) for p in sources],
        detector=str(detector),
        timings={"mining_s": round(mining), "train_s": round(time.monotonic() - started - mining)},
        code=code,
    )


def fit(model: nn.Module, crops: VerifierCrops, recipe: Recipe) -> None:
    """Balanced batches (half tiles, half not), flipped and re-exposed at random."""
    rng = np.random.default_rng(recipe.seed)
    positives, negatives = np.flatnonzero(crops.tiles), np.flatnonzero(~crops.tiles)
    if not len(positives) or not len(negatives):
        raise ValueError("the verifier needs finds of both kinds: tiles and not tiles")
    optimiser = torch.optim.AdamW(model.parameters(), lr=recipe.learning_rate, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=recipe.learning_rate, total_steps=recipe.steps)
    model.train()
    if recipe.init:  # fine-tuning: new batches must not rescale what the network learnt to read
        freeze_batch_norm(model)
    half = recipe.batch // 2
    target = torch.cat([torch.ones(half), torch.zeros(recipe.batch - half)]).view(-1, 1)
    for step in progress(range(recipe.steps), "train"):
        chosen = np.concatenate([rng.choice(positives, half), rng.choice(negatives, recipe.batch - half)])
        images = crops.images[chosen]
        flips = rng.random((len(chosen), 2)) < 0.5  # a tile upside down or mirrored is still a tile
        images = np.stack([i[::-1] if f[0] else i for i, f in zip(images, flips, strict=True)])  # top-bottom
        images = np.stack([i[:, ::-1] if f[1] else i for i, f in zip(images, flips, strict=True)])
        images = recoloured(blurred(images, rng, recipe.blurred), rng, recipe.recoloured)
        x = reexposed(torch.from_numpy(nchw_input(images, MEAN, STD)), rng)
        loss = nn.functional.binary_cross_entropy_with_logits(model(x), target)
        optimiser.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call,unused-ignore]  # typed only where torch is installed
        optimiser.step()
        schedule.step()
        if step % 200 == 0:
            log.info("step %d/%d loss %.3f", step, recipe.steps, loss.item())


def predict(model: nn.Module, images: np.ndarray) -> np.ndarray:
    with torch.no_grad():
        out = [
            torch.sigmoid(model(torch.from_numpy(nchw_input(images[i : i + 512], MEAN, STD)))).numpy().ravel()
            for i in range(0, len(images), 512)
        ]
    return np.concatenate(out) if out else np.zeros(0, np.float32)


def threshold_keeping(tile_scores: np.ndarray, share: float) -> float:
    """The highest threshold that keeps at least ``share`` of ``tile_scores`` above it."""
    if not len(tile_scores):
        raise ValueError("no true tile among the validation finds: cannot choose a threshold")
    return float(np.quantile(tile_scores, 1.0 - share)) - 1e-6


def rates(scores: np.ndarray, tiles: np.ndarray, keep_above: float) -> dict[str, float]:
    kept = scores > keep_above
    return {
        "tiles": int(tiles.sum()),
        "not_tiles": int((~tiles).sum()),
        "tiles_kept": round(float(kept[tiles].mean()), 4) if tiles.any() else 0.0,
        "not_tiles_dropped": round(float((~kept[~tiles]).mean()), 4) if (~tiles).any() else 0.0,
        "keep_above": round(keep_above, 4),
    }


def export(
    model: nn.Module,
    out: str,
    *,
    keep_above: float,
    metrics: dict[str, dict[str, float]],
    recipe: dict[str, Any],
    counts: dict[str, int],
    sources: list[str],
    detector: str,
    timings: dict[str, int],
    code: str,
) -> Path:
    width, height = CROP_SIZE
    onnx_path = export_crop_model(model, Path(out) / f"{MODEL_NAME}.onnx", (height, width), "logit")
    metadata = {
        "input": {
            "width": width,
            "height": height,
            "context": CONTEXT,
            "layout": "NCHW",
            "channels": "BGR",
            "scale": 1 / 255,
            "mean": MEAN,
            "std": STD,
            "crop": "the find's quad widened CONTEXT times about its centre, warped upright (vision.classify.verifier)",
        },
        "output": "one logit: a tile's face (sigmoid > keep_above keeps the find)",
        "keep_above": round(keep_above, 4),
        "training": {
            "command": ".venv/bin/python -m vision.training.train_verifier --out models --photos LABELS ...",
            "code": code,
            "recipe": recipe,
            "data": "finds of the detector (with no verifier) on the training split of each label set and on "
            f"{recipe['rendered_tables']} rendered tables (seeds {RENDERED_SEEDS.start}+, "
            f"{RENDERED_PX_PER_MM} px/mm), called a tile when "
            "matched to a label (centre within 0.4 widths, IoU >= 0.3), not a tile when farther than 0.4 widths "
            "from every label or near one but under 0.65 or over 1.6 times its length; a piece of each labelled "
            "face (a third to two thirds of it) not a tile; balanced batches, flips, re-exposure",
            "photos": sources,
            "detector": detector,
            "validation": f"one photograph group and rendered table in seven (by hash): keep_above keeps "
            f"{KEEP_PHOTO_TILES} of the photos' true finds and {KEEP_RENDERED_TILES} of the rendered tables'",
            "timings_s": timings,
            "counts": counts,
        },
        "metrics_validation": metrics,
    }
    write_model_metadata(onnx_path, metadata)
    return onnx_path


if __name__ == "__main__":
    main()
