"""The face styles a training recipe adds to its art mix: a share of tables drawn with thicker
or thinner strokes (:mod:`vision.render.face_strokes`), and a share drawn in a tile set's own
enrolled faces (:mod:`vision.render.enrolled_faces`, ``--faces DIR``).

Each table's draw comes from a generator of its own (the table's seed and a salt), never from
the table's: with neither option (the default), every table is the same as before, pixel for
pixel, and a table that is stroke-varied is otherwise the same table.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np

from vision.enrollment.face_images import face_images_sha256
from vision.render.enrolled_faces import EnrolledFaces, enrolled_faces
from vision.render.face_style import Art

#: How much thicker or thinner a stroke-varied table's strokes are, art pixels on each side, in
#: half pixels (a few stroked arts, each reused while cached).
STROKE_CHANGES_PX: Final = (1.0, 1.5, 2.0)
_STROKE_SALT: Final = 9_000_017
_FACES_SALT: Final = 9_000_029


@dataclass(frozen=True, slots=True)
class FaceMix:
    stroke_share: float = 0.0  # the share of tables whose strokes are thicker or thinner
    faces: EnrolledFaces | None = None  # a tile set's own faces, drawn on ``faces_share`` of the tables
    faces_share: float = 0.25

    def __post_init__(self) -> None:
        for name in ("stroke_share", "faces_share"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name.replace('_', '-')} must be 0-1, got {getattr(self, name)}")

    def art(self, seed: int, art: Art) -> Art:
        """Table ``seed``'s art: the enrolled faces for a ``faces_share`` of tables, else ``art``."""
        if self.faces is None:
            return art
        return self.faces if np.random.default_rng(seed + _FACES_SALT).random() < self.faces_share else art

    def strokes(self, seed: int) -> float:
        """Table ``seed``'s stroke change in art pixels: 0 for most, ±1-2 for a ``stroke_share``."""
        if self.stroke_share <= 0.0:
            return 0.0
        rng = np.random.default_rng(seed + _STROKE_SALT)
        if rng.random() >= self.stroke_share:
            return 0.0
        return float(rng.choice([-1.0, 1.0]) * rng.choice(STROKE_CHANGES_PX))

    def record(self) -> dict[str, Any]:
        """What a model's metadata keeps of the mix (the faces by folder and digest)."""
        faces = None
        if self.faces is not None:
            faces = {
                "folder": str(self.faces.folder),
                "sha256": face_images_sha256(self.faces.folder),
                "share": self.faces_share,
            }
        return {"stroke_share": self.stroke_share, "stroke_changes_px": list(STROKE_CHANGES_PX), "faces": faces}

    def cache_tag(self) -> str:
        """A suffix for cached renders of this mix ("" for the default, whose renders are as before)."""
        if self.stroke_share <= 0.0 and self.faces is None:
            return ""
        faces = "" if self.faces is None else f"-faces{face_images_sha256(self.faces.folder)[:12]}x{self.faces_share:g}"
        return f"-strokes{self.stroke_share:g}{faces}"


#: The default: no face styles added (every table as the recipes drew it before).
NO_FACE_STYLES: Final = FaceMix()


def face_mix_of(stroke_share: float, faces: str, faces_share: float) -> FaceMix:
    """The mix a recipe's fields describe (``faces``: a folder or enrollment file, or "")."""
    return FaceMix(stroke_share, enrolled_faces(Path(faces)) if faces else None, faces_share)
