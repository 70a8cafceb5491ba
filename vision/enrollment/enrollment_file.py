"""A table's enrollment on disk: ``NAME.json`` (what it is, which model it belongs to, the
figures measured when it was made), ``NAME.npz`` beside it (the head's arrays) and, where the
enrollment kept them, ``NAME.faces/`` (the tiles' faces, :mod:`vision.enrollment.face_images`).

The head reads one model's features: loading it for a model with another sha256 is refused.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import numpy as np

from vision.enrollment.head import OUTPUTS, EnrolledHead
from vision.json_file import read_json_object

FORMAT: Final = "jantaku-enrollment"
VERSION: Final = 1
_ARRAYS: Final = ("classes", "mean", "scale", "weights", "bias")


class EnrollmentError(ValueError):
    """An enrollment file that is missing, damaged or made for another model."""


def arrays_path(path: Path) -> Path:
    return path.with_suffix(".npz")


def faces_path(path: Path) -> Path:
    """Where an enrollment file's faces are kept: ``NAME.faces`` beside ``NAME.json``."""
    return path.with_suffix(".faces")


def enrolled_faces_folder(path: Path) -> Path:
    """The face folder an enrollment file names (its ``faces`` entry, beside it); refused in
    one line for a file that is no enrollment or kept no faces."""
    document = read_json_object(path, "enrollment file", EnrollmentError)
    if document.get("format") != FORMAT:
        raise EnrollmentError(f"enrollment file {path}: not a {FORMAT} file")
    faces = document.get("faces")
    if not isinstance(faces, str) or not faces:
        raise EnrollmentError(f"enrollment file {path} kept no faces: enroll the tile set again to keep them")
    return path.parent / faces


def save_enrollment(path: Path, head: EnrolledHead, model_sha256: str, details: dict[str, Any]) -> None:
    if path.suffix != ".json":
        raise EnrollmentError(f"enrollment file {path}: name it NAME.json (its arrays go to NAME.npz)")
    np.savez(arrays_path(path), **{name: getattr(head, name) for name in _ARRAYS})
    document = {
        "format": FORMAT,
        "version": VERSION,
        "model_sha256": model_sha256,
        "arrays": arrays_path(path).name,
        "blend": head.blend,
        **details,
    }
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def load_enrollment(path: Path, model_sha256: str) -> EnrolledHead:
    """The head saved at ``path``; refused unless it was made for the model with ``model_sha256``."""
    document = read_json_object(path, "enrollment file", EnrollmentError)
    if document.get("format") != FORMAT or document.get("version") != VERSION:
        raise EnrollmentError(f"enrollment file {path}: not a {FORMAT} version {VERSION} file")
    if document.get("model_sha256") != model_sha256:
        raise EnrollmentError(
            f"enrollment file {path} was made for the model with sha256 {document.get('model_sha256')}, "
            f"not this one ({model_sha256}): enroll the tile set again with this model"
        )
    blend = document.get("blend")
    if not isinstance(blend, int | float) or not 0.0 <= blend <= 1.0:
        raise EnrollmentError(f"enrollment file {path}: blend must be a number 0-1, got {blend!r}")
    arrays = path.parent / str(document.get("arrays", ""))
    try:
        with np.load(arrays) as data:
            values = {name: np.asarray(data[name]) for name in _ARRAYS}
    except (OSError, KeyError, ValueError) as error:
        raise EnrollmentError(f"enrollment file {path}: its arrays {arrays.name} cannot be read: {error}") from error
    classes, weights = values["classes"], values["weights"]
    features = len(values["mean"])
    consistent = (
        classes.ndim == 1
        and np.all((classes >= 0) & (classes < OUTPUTS))
        and weights.shape == (features, len(classes))
        and values["scale"].shape == (features,)
        and values["bias"].shape == (len(classes),)
    )
    if not consistent:
        raise EnrollmentError(f"enrollment file {path}: arrays in {arrays.name} do not fit together")
    return EnrolledHead(
        classes.astype(np.int64),
        values["mean"].astype(np.float32),
        values["scale"].astype(np.float32),
        weights.astype(np.float32),
        values["bias"].astype(np.float32),
        float(blend),
    )
