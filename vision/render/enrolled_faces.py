"""Tables in a tile set's own faces: the faces ``jantaku vision enroll`` cut from a photo of the
user's tiles (or any folder of face images, one per label: :mod:`vision.enrollment.face_images`)
drawn in place of the vendored art, so that a table can be rendered in the user's own set.

Every one of the 34 kinds must have its face; the red fives may be there (all three) or not at
all: a set without them draws a red five's place as its plain five, and the ground truth says so
(:meth:`TileArt.drawn_label`). Each face is scaled to the art's size and given the vendored
body's rounded corners. Backs are the regular back, given each table's hue, as in every style.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from table_app.domain.tile import KIND_COUNT
from vision.classify.labels import BACK_LABEL, LABEL_COUNT, WHITE_DRAGON_LABEL, is_red_label, kind_of_label
from vision.enrollment.enrollment_file import enrolled_faces_folder
from vision.enrollment.face_images import FaceImagesError, face_file_name, read_face_images
from vision.render.tile_art import ART_SIZE, ArtStyle, TileArt, load_tile_art

log = logging.getLogger(__name__)

_RED_LABELS = tuple(label for label in range(LABEL_COUNT) if label != BACK_LABEL and is_red_label(label))


@dataclass(frozen=True, slots=True)
class EnrolledFaces:
    """A folder of face images, one per label (:mod:`vision.enrollment.face_images`)."""

    folder: Path


def enrolled_faces(path: Path) -> EnrolledFaces:
    """The faces at ``path``: a folder of face images, or an enrollment file (``NAME.json``)
    that kept its faces."""
    if path.is_dir():
        return EnrolledFaces(path)
    if path.suffix == ".json":
        return EnrolledFaces(enrolled_faces_folder(path))
    raise FaceImagesError(f"faces {path}: give a folder of face images (1m.png ..) or an enrollment file NAME.json")


@functools.lru_cache(maxsize=4)
def enrolled_art(faces: EnrolledFaces) -> TileArt:
    """The art of every label drawn from ``faces`` (cached: the renderer asks per table)."""
    images = read_face_images(faces.folder)
    missing = [face_file_name(label) for label in range(KIND_COUNT) if label not in images]
    if missing:
        raise FaceImagesError(f"face folder {faces.folder} lacks {', '.join(missing)}: every kind needs its face")
    reds = [label in images for label in _RED_LABELS]
    if any(reds) and not all(reds):
        names = ", ".join(face_file_name(label) for label in _RED_LABELS)
        raise FaceImagesError(f"face folder {faces.folder}: keep all of {names} or none (a set without red fives)")
    regular = load_tile_art(ArtStyle.REGULAR)
    corners = regular.image(WHITE_DRAGON_LABEL)[..., 3]  # the body's rounded corners
    art: list[np.ndarray] = []
    for label in range(LABEL_COUNT):
        if label == BACK_LABEL:
            art.append(regular.images[BACK_LABEL])
            continue
        face = images[label] if label in images else images[kind_of_label(label)]
        art.append(np.dstack([cv2.resize(face, ART_SIZE, interpolation=cv2.INTER_AREA), corners]))
    log.debug("loaded enrolled faces from %s (red fives: %s)", faces.folder, all(reds))
    return TileArt(None, tuple(art), red_fives=all(reds))
