"""The tile classifier in 8-bit integers, for a machine that needs the time.

    .venv/bin/python -m vision.training.quantize --photos real/alanchoi/labels-train.json \\
        [--photo-count 40] [--seat-views 15] [--tables 12] [--out models]

The classifier runs on every tile found, a hundred a frame at a table. It is trained in float32;
its 8-bit build (``tile-classifier.int8.onnx``: weights per output channel int8, activations
per tensor uint8, as QDQ nodes that onnxruntime fuses into integer convolutions) takes about
0.12 ms a tile in a batch on the development machine's CPU (AVX-512 VNNI) where the float one
takes 0.22; a Pi's Cortex-A76 has integer dot products too. It reads nearly as the float model
but a few borderline readings differ, so it is not the default (``--model`` gives it;
``models/tile-classifier.md``). The detector was quantized the same way and is not shipped:
its boxes moved enough to cost rendered faces' readings, and its time a frame hardly changed
(``docs/vision-history.md``).

An activation's range is measured, not guessed (static quantization, onnxruntime's MinMax
calibration): the float models read **training material** as the product reads it, and every
crop the classifier is given is recorded — ``vision detect``'s path over ``--photo-count``
pictures of a training label file and ``--seat-views`` rendered seat views (seeds from
:data:`SEAT_VIEW_SEEDS`), and the live table reader over ``--tables`` rendered tables (seeds
from :data:`TABLE_SEEDS`, regular and dark art in turn, the camera's effects on). So the crops
of real and rendered faces, as found and re-cut, set the ranges. No held-out picture is read.

The quantized model is written beside its float one as ``NAME.int8.onnx`` with its own
metadata (``NAME.int8.json``: the float model's, its sha256 replaced, and ``quantized``: the float
model's sha256, the format and the calibration), which the runtime checks like any model's.
The float model stays the default, what training starts from (``--init``) and what this
recipe quantizes again after the classifier is retrained.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np

from models import MODELS_DIR
from vision.json_file import read_json_object
from vision.onnx_models.model_file import load_model_metadata

log = logging.getLogger(__name__)

#: The rendered seat views read for calibration (the seat-view training set's seeds).
SEAT_VIEW_SEEDS: Final = 5_000_000
#: The rendered tables read for calibration (the verifier's training tables' seeds).
TABLE_SEEDS: Final = 810_000
#: Every how many classifier runs one batch is kept, and how many crops of it.
CLASSIFIER_EVERY: Final = 3
CLASSIFIER_CROPS: Final = 64
#: The float model quantized, by its file's stem, and the name of its input.
QUANTIZED: Final = "tile-classifier"
INPUT_NAME: Final = "crops"


class QuantizeError(ValueError):
    """A model or calibration that cannot be quantized (named in the message)."""


class _RecordingSession:
    """An onnxruntime session that keeps a copy of some of its inputs (every ``every``-th run,
    the first ``keep`` rows) before running them."""

    def __init__(self, session: Any, sink: list[np.ndarray], every: int, keep: int | None = None):
        self._session, self._sink, self._every, self._keep = session, sink, every, keep
        self._runs = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)

    def run(self, names: Any, feeds: dict[str, np.ndarray]) -> Any:
        self._runs += 1
        if self._runs % self._every == 0:
            (given,) = feeds.values()
            self._sink.append(np.array(given[: self._keep] if self._keep else given, np.float32))
        return self._session.run(names, feeds)


def record_inputs(photos: Sequence[Path], seat_views: int, tables: int, classifier: Path) -> list[np.ndarray]:
    """Read the calibration material as the product reads it, with the float ``classifier``
    (and the shipped detector), and return the crops the classifier was given."""
    # Loaded when run: the recipe's imports are the product's whole vision stack.
    from vision.classify.classifier import OnnxTileClassifier  # noqa: PLC0415
    from vision.detect.photo_reading import photo_reader  # noqa: PLC0415
    from vision.detect.still_photo import make_finder, read_image  # noqa: PLC0415
    from vision.live.table_reader import TableReader  # noqa: PLC0415
    from vision.live.table_reader.checking import picked_calibration, random_overhead_camera  # noqa: PLC0415
    from vision.render.layout import random_layout  # noqa: PLC0415
    from vision.render.renderer import RenderOptions, render_table  # noqa: PLC0415
    from vision.render.seat_view import render_seat_view  # noqa: PLC0415
    from vision.render.tile_art import ArtStyle  # noqa: PLC0415

    recorded: list[np.ndarray] = []
    reader = OnnxTileClassifier(classifier)
    # The session is the classifier's own (private to its class): wrapped here, the recipe sees
    # exactly the crops the product's code gives it, re-cuts and turned cuts included.
    reader._session = _RecordingSession(reader._session, recorded, CLASSIFIER_EVERY, CLASSIFIER_CROPS)
    read = photo_reader(reader, make_finder("learnt", half_octaves=False))  # as the shipped build was made
    for path in photos:
        read(read_image(path))
    for seed in range(SEAT_VIEW_SEEDS, SEAT_VIEW_SEEDS + seat_views):
        read(render_seat_view(seed).image)
    for index in range(tables):
        seed = TABLE_SEEDS + index
        rng = np.random.default_rng(seed)
        camera = random_overhead_camera(rng)
        layout = random_layout(rng, extras=True)
        style = (ArtStyle.REGULAR, ArtStyle.REGULAR_DARK)[index % 2]
        rendered = render_table(seed, RenderOptions(style=style, effects=True, camera=camera), layout)
        TableReader(picked_calibration(camera), reader).read_image(rendered.image)
    return recorded


def quantized(model: Path, input_name: str, inputs: Sequence[np.ndarray], out: Path) -> None:
    """Write ``model`` quantized (QDQ: int8 weights per channel, uint8 activations per tensor,
    their ranges the MinMax of ``inputs``' activations) to ``out``."""
    from onnxruntime.quantization import (  # noqa: PLC0415
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )

    if not inputs:
        raise QuantizeError(f"no calibration input was recorded for {model.name}")

    class _Given(CalibrationDataReader):  # type: ignore[misc]
        def __init__(self) -> None:
            self._left: Iterator[np.ndarray] = iter(inputs)

        def get_next(self) -> dict[str, np.ndarray] | None:
            given = next(self._left, None)
            return None if given is None else {input_name: given}

    # No pre-processing pass (onnxruntime's quant_pre_process): its symbolic shape inference
    # could not settle the free input sizes (the detector's frame of any shape, when it was
    # tried) and needs sympy; the exported graphs have their batch norms folded already, and
    # the quantized models read the same with it and without.
    quantize_static(
        str(model),
        str(out),
        _Given(),
        quant_format=QuantFormat.QDQ,
        per_channel=True,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        calibrate_method=CalibrationMethod.MinMax,
    )


def int8_path(model: Path) -> Path:
    """Where ``model``'s quantized build lies: ``NAME.int8.onnx`` beside it."""
    return model.with_name(f"{model.stem}.int8.onnx")


def write_metadata(model: Path, built: Path, calibration: dict[str, Any]) -> dict[str, Any]:
    """``built``'s metadata: ``model``'s own, its sha256 that of ``built``, and what was quantized
    how (``quantized``); written beside ``built`` and returned."""
    metadata = load_model_metadata(model, "float model", QuantizeError)
    float_sha = metadata["sha256"]  # the float model's, checked against its file
    metadata["sha256"] = hashlib.sha256(built.read_bytes()).hexdigest()
    metadata["quantized"] = {
        "from": model.name,
        "from_sha256": float_sha,
        "format": "QDQ; weights int8 per output channel, activations uint8 per tensor (onnxruntime quantize_static)",
        "calibration": calibration,
        "recipe": "python -m vision.training.quantize (vision/training/quantize.py)",
    }
    built.with_suffix(".json").write_text(json.dumps(metadata, indent=2) + "\n", encoding="utf-8")
    return metadata


def _photos_from(label_files: Sequence[Path], count: int) -> list[tuple[str, Path]]:
    """``count`` pictures spread evenly over the label files' images (sorted by name), each with
    the name it is recorded by (its source folder's and its own)."""
    every: list[tuple[str, Path]] = []
    for labels in label_files:
        document = read_json_object(labels, "label file", QuantizeError)
        every.extend(
            (f"{labels.parent.name}/{name}", labels.parent / name) for name in sorted(document.get("images", {}))
        )
    if count <= 0 or not every:
        return []
    step = max(len(every) // count, 1)
    return every[::step][:count]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=Path, action="append", default=[], help="a training label file; repeat")
    parser.add_argument("--photo-count", type=int, default=40, help="pictures read from the label files (default 40)")
    parser.add_argument("--seat-views", type=int, default=15, help="rendered seat views read (default 15)")
    parser.add_argument("--tables", type=int, default=12, help="rendered tables read by the table reader (default 12)")
    parser.add_argument("--models", type=Path, default=MODELS_DIR, help="where the float model lies (default: shipped)")
    parser.add_argument("--out", type=Path, help="where the quantized model goes (default: beside the float one)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")

    float_model = args.models / f"{QUANTIZED}.onnx"
    photos = _photos_from(args.photos, args.photo_count)
    recorded = record_inputs([path for _, path in photos], args.seat_views, args.tables, float_model)
    calibration = {
        "photos": [name for name, _ in photos],
        "seat_views": {"count": args.seat_views, "first_seed": SEAT_VIEW_SEEDS},
        "tables": {"count": args.tables, "first_seed": TABLE_SEEDS, "styles": "regular, regular-dark in turn"},
        "method": "MinMax",
    }
    out_dir = args.out or args.models
    out_dir.mkdir(parents=True, exist_ok=True)
    built = out_dir / int8_path(float_model).name
    quantized(float_model, INPUT_NAME, recorded, built)
    write_metadata(float_model, built, {**calibration, "batches": len(recorded)})
    log.info("%s: %d calibration batches -> %s (%d bytes)", QUANTIZED, len(recorded), built, built.stat().st_size)


if __name__ == "__main__":
    main()
