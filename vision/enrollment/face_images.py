"""An enrolled tile set's own faces as images: each tile cut upright out of the enrollment
photo, one PNG per label, in a folder (``jantaku vision enroll`` writes ``NAME.faces/`` beside
``NAME.json``). The renderer draws tables in them (:mod:`vision.render.enrolled_faces`).

Files are named by label: ``1m.png`` .. ``9s.png``, ``1z.png`` .. ``7z.png`` (east, south,
west, north, white, green, red dragon), ``5m-red.png``, ``5p-red.png``, ``5s-red.png``, and
``back.png`` for a face-down tile where the sheet had one. Any image of a face of about 3:4
will do: a folder may also be filled by hand, from photos of single tiles.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from vision.classify.crops import crop_tile
from vision.classify.labels import LABEL_COUNT, is_red_label, label_name
from vision.enrollment.sheet import CutTile

log = logging.getLogger(__name__)

#: The size (width, height) faces are cut at: the renderer's art size, a 3:4 face.
FACE_IMAGE_SIZE: Final = (150, 200)


class FaceImagesError(ValueError):
    """A face folder that is missing, or holds an image that cannot be read."""


def face_file_name(label: int) -> str:
    """``1m.png``, ``5p-red.png``, ``back.png``: the file a label's face is kept in."""
    return f"{label_name(label)}{'-red' if is_red_label(label) else ''}.png"


def save_face_images(folder: Path, image: np.ndarray, tiles: Sequence[CutTile]) -> int:
    """Each tile of ``image`` cut upright at :data:`FACE_IMAGE_SIZE` into ``folder`` (made if
    need be; a face already there is replaced); returns how many were written."""
    folder.mkdir(parents=True, exist_ok=True)
    for tile in tiles:
        path = folder / face_file_name(tile.label)
        if not cv2.imwrite(str(path), crop_tile(image, tile.corners, FACE_IMAGE_SIZE)):
            raise FaceImagesError(f"face image {path} cannot be written")
    log.info("wrote %d face images to %s", len(tiles), folder)
    return len(tiles)


def read_face_images(folder: Path) -> dict[int, np.ndarray]:
    """The BGR uint8 faces in ``folder`` by label (only those present)."""
    if not folder.is_dir():
        raise FaceImagesError(f"face folder {folder} does not exist (it holds one image per tile, such as 1m.png)")
    faces: dict[int, np.ndarray] = {}
    for label in range(LABEL_COUNT):
        path = folder / face_file_name(label)
        if not path.is_file():
            continue
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise FaceImagesError(f"face image {path} cannot be read as an image")
        faces[label] = np.asarray(image)
    return faces


def face_images_sha256(folder: Path) -> str:
    """One digest of every face file in ``folder`` (names and bytes): what a training recipe
    records of the faces it drew."""
    digest = hashlib.sha256()
    for label in range(LABEL_COUNT):
        path = folder / face_file_name(label)
        if path.is_file():
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()
