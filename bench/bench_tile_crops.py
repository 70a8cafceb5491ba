"""The tile classifier on crops of single real tiles, per source: 34-kind accuracy and red fives.

    .venv/bin/python bench/bench_tile_crops.py --repo DIR [--source mleague-crops] [--model ONNX]

``DIR`` is a checkout of the source's repository at the commit ``vision.eval.crop_set.CROP_SOURCES``
names (``models/DATA.md``: ``mleague-crops`` is takahasiyouhei/majon-tile-detection, tiles of a
Japanese set with red fives cut from broadcast frames; measured on, never trained on). Every
crop is read as the classifier reads a found tile, the whole crop its quad (no detector).
Prints 34-kind accuracy, red-five recall per suit (red fives read red), plain fives read red,
readings marked uncertain, the commonest confusions and the time a crop.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.classify.classifier import DEFAULT_MODEL, OnnxTileClassifier
from vision.eval.crop_set import CROP_SOURCES, CropSetError, score_crops, source_crops
from vision.onnx_models.model_file import ModelFileError


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", type=Path, required=True, help="checkout of the source's repository")
    parser.add_argument("--source", choices=sorted(CROP_SOURCES), default="mleague-crops")
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL, help="classifier model (default: shipped)")
    parser.add_argument("--confusions", type=int, default=8, help="how many of the commonest confusions to print")
    args = parser.parse_args()
    try:
        classifier = OnnxTileClassifier(args.model)
        source = CROP_SOURCES[args.source]
        crops = source_crops(source, args.repo)
        started = time.perf_counter()
        score = score_crops(crops, classifier.classify_quads)
        elapsed = time.perf_counter() - started
    except (CropSetError, ModelFileError) as error:
        raise SystemExit(f"bench_tile_crops: {error}") from None
    reds = ", ".join(f"{name} {found}/{count}" for name, (found, count) in sorted(score.reds_by_suit.items()))
    print(f"{source.name} ({source.repo} @ {source.commit}): {score.crops} crops, classifier {args.model.name}")
    print(f"34-kind {score.kind_accuracy:.3f} ({score.kind_right}/{score.crops}); uncertain {score.uncertain}")
    print(f"red fives read red {score.reds_read_red}/{score.reds} ({reds}); plain fives read red "
          f"{score.plain_fives_read_red}/{score.plain_fives}")  # fmt: skip
    common = ", ".join(f"{truth} → {read} ×{n}" for (truth, read), n in score.confusions.most_common(args.confusions))
    print(f"commonest confusions: {common or 'none'}")
    print(f"{elapsed * 1000 / max(score.crops, 1):.1f} ms a crop (read one at a time)")


if __name__ == "__main__":
    main()
