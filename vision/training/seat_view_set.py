"""Seat-view scenes (:mod:`vision.render.seat_view`) written as a label set that the detector
recipe reads like a real-photo source (``train_detector --photos DIR/labels.json``).

    .venv/bin/python -m vision.training.seat_view_set --out seat-view --scenes 600

Every scene is its own group in the train split; faces are written as boxes (what a real
source gives), with their tile. ``--negatives`` draws the same scenes without their tiles
(felt, wood, sticks, dice, a hand, shelves of lettered spines) and lists them as
``negatives``: the detector learns to find nothing there, at every scale. ``--scattered`` stands
the tiles apart, nearer and farther, not in a row (``render_seat_view(scattered=True)``).
``--table-things`` lays a keyboard, a score display or a stick tray on the felt too
(:mod:`vision.render.table_things`). The
art follows the detector's mix
(:func:`vision.training.detector_data.detector_training_art`): the ``black`` style, kept for
evaluation, is never drawn. ``--stroke-share X`` draws that share of the scenes with thicker or
thinner strokes, ``--faces DIR`` a share in a tile set's own faces (:mod:`vision.training.face_mix`);
both are recorded in the label file's ``face_styles``.
"""

from __future__ import annotations

import argparse
import json
import logging
from dataclasses import dataclass
from pathlib import Path

import cv2

from vision.classify.labels import is_red_label, label_name
from vision.render.seat_view import render_seat_view
from vision.training.detector_data import detector_training_art
from vision.training.face_mix import NO_FACE_STYLES, FaceMix, face_mix_of
from vision.training.processes import starmap_jobs

log = logging.getLogger(__name__)

FIRST_SEED = 5_000_000  # apart from every other recipe's seeds


@dataclass(frozen=True)
class SceneKind:
    """What a set's scenes hold besides the felt and the room (``render_seat_view``'s switches)."""

    negatives: bool = False  # no tiles
    scattered: bool = False  # tiles standing apart
    table_things: bool = False  # a keyboard, a score display or a stick tray on the felt
    spine_glyphs: bool = False  # book spines titled in the tile art's characters


def write_set(
    out: Path,
    scenes: int,
    first_seed: int = FIRST_SEED,
    *,
    kind: SceneKind = SceneKind(),
    jobs: int = 1,
    mix: FaceMix = NO_FACE_STYLES,
) -> dict[str, int]:
    """Render ``scenes`` scenes into ``out/images`` (by ``jobs`` processes; the same scenes
    whatever the count) and write ``out/labels.json``; the counts. With ``kind.negatives`` the
    scenes are drawn without their tiles and listed as ``negatives``; ``mix`` adds face styles
    (thicker and thinner strokes, enrolled faces) to the art; ``kind.scattered`` stands the tiles
    apart; ``kind.table_things`` lays things that are no tiles on the felt."""
    (out / "images").mkdir(parents=True, exist_ok=True)
    work = [(out, first_seed + index, kind, mix) for index in range(scenes)]
    written = starmap_jobs(_write_scene, work, jobs, chunksize=4, progress="seat views", every=100)
    images = dict(written)
    document = {
        "format": "jantaku-labels",
        "version": 1,
        "source": f"vision.render.seat_view seeds {first_seed}-{first_seed + scenes - 1}"
        + (", scattered" if kind.scattered else "")
        + (", table things" if kind.table_things else "")
        + (", spines in the tiles' characters" if kind.spine_glyphs else ""),
        "face_styles": mix.record(),
        "images": images,
        "ignore": {},
        "groups": {name: name for name in images},
        "augmented": [],
        "negatives": sorted(images) if kind.negatives else [],
        # Every tile stands in the hand's row or lies loose in none: the detector learns that
        # none of them lies sideways (vision.training.photo_frames).
        "upright": True,
        "split": dict.fromkeys(images, "train"),
    }
    (out / "labels.json").write_text(json.dumps(document) + "\n", encoding="utf-8")
    return {"images": len(images), "boxes": sum(len(t) for t in images.values())}


def _write_scene(out: Path, seed: int, kind: SceneKind, mix: FaceMix) -> tuple[str, list[dict[str, object]]]:
    art = mix.art(seed, detector_training_art(seed))
    scene = render_seat_view(
        seed,
        style=art,
        tiles=not kind.negatives,
        strokes=mix.strokes(seed),
        scattered=kind.scattered,
        table_things=kind.table_things,
        spine_glyphs=kind.spine_glyphs,
    )
    name = f"images/seat-view-{seed}.jpg"
    if not cv2.imwrite(str(out / name), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92]):
        raise OSError(f"{out / name}: could not be written")
    boxes: list[dict[str, object]] = [
        {
            "box": [round(float(v), 1) for v in (*truth.corners.min(axis=0), *truth.corners.max(axis=0))],
            # As `vision eval` reads a label (vision.eval.label_file): a red five is "5m" and red.
            "tile": label_name(truth.label),
            "red": is_red_label(truth.label),
        }
        for truth in scene.truths
    ]
    return name, boxes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, help="folder for images/ and labels.json")
    parser.add_argument("--scenes", type=int, default=600)
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED)
    parser.add_argument("--negatives", action="store_true", help="the scenes without their tiles: hard negatives")
    parser.add_argument("--scattered", action="store_true", help="tiles standing apart, not in a row")
    parser.add_argument(
        "--table-things", action="store_true", help="a keyboard, a score display or a stick tray on the felt"
    )
    parser.add_argument(
        "--spine-glyphs", action="store_true", help="book spines titled in the tile art's characters, not letters"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes drawing scenes")
    parser.add_argument(
        "--stroke-share", type=float, default=0.0, metavar="X", help="share of scenes with thicker or thinner strokes"
    )
    parser.add_argument("--faces", default="", metavar="DIR", help="a tile set's own faces (folder or enrollment file)")
    parser.add_argument("--faces-share", type=float, default=0.25, metavar="X", help="share of scenes in --faces")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    mix = face_mix_of(args.stroke_share, args.faces, args.faces_share)
    counts = write_set(
        args.out,
        args.scenes,
        args.first_seed,
        kind=SceneKind(args.negatives, args.scattered, args.table_things, args.spine_glyphs),
        jobs=args.jobs,
        mix=mix,
    )
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
