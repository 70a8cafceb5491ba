"""Still-photo detection: find the tiles, settle which way each lies (:mod:`vision.detect.tile_lie`),
read each, and turn its corners the way its face reads."""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Protocol

import cv2
import numpy as np

from vision.classify.classifier import TileReading
from vision.classify.crops import turned_half
from vision.classify.verifier import DEFAULT_VERIFIER
from vision.detect.sideways_judge import OnnxSidewaysJudge
from vision.detect.tile_inset import read_inset
from vision.detect.tile_lie import QuadReader, TileLie, settle_lies
from vision.detect.tile_phase import rephase
from vision.detect.tile_skew import unskew
from vision.find.finder import FindResult, FoundTile, find_tiles
from vision.find.learnt import DEFAULT_DETECTOR, HALF_OCTAVE_ALONE_CONFIDENCE, LearntTileFinder
from vision.find.seams import TileSize
from vision.geometry import angle_of_corners, bounding_box, centre
from vision.image_size import oversize

log = logging.getLogger(__name__)


class ImageReadError(ValueError):
    """An image file that cannot be read as a picture."""


@dataclass(frozen=True, eq=False)
class Detection:
    corners: np.ndarray  # 4×2 image pixels in face order: top-left, top-right, bottom-right, bottom-left
    reading: TileReading
    sideways: bool  # lies across its row
    #: The tile verifier's belief (0..1) that the find this reading came from is a tile's face;
    #: None where no verifier looked (the classic finder, a finder built without one).
    face_score: float | None = None

    @property
    def label(self) -> int:
        return self.reading.label

    @property
    def uncertain(self) -> bool:
        return self.reading.uncertain

    @property
    def box(self) -> tuple[int, int, int, int]:
        return bounding_box(self.corners)

    @property
    def angle(self) -> int:
        """Degrees (0-359) the face's top is turned clockwise from the image's up."""
        return round(angle_of_corners(self.corners)) % 360

    def as_json(self) -> dict[str, object]:
        return {
            "box": list(self.box),
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
            "tile": self.reading.name,
            "red": self.reading.red,
            "angle": self.angle,
            "confidence": round(self.reading.confidence, 4),
            "uncertain": self.reading.uncertain,
            "sideways": self.sideways,
        }


def read_image(path: Path) -> np.ndarray:
    """A BGR image from a file; a missing, unreadable, corrupt or oversized file (its header
    declaring more than :data:`vision.image_size.MAX_PIXELS`) is an :class:`ImageReadError`."""
    if path.is_dir():
        raise ImageReadError(f"image {path} is a folder, not a picture")
    if not path.is_file():
        raise ImageReadError(f"image {path} does not exist")
    data = np.fromfile(str(path), dtype=np.uint8)
    refused = oversize(data.tobytes())
    if refused is not None:
        raise ImageReadError(f"image {path} {refused}")
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise ImageReadError(f"image {path} is not a readable picture (corrupt or unsupported format)")
    return np.asarray(image)


class TileFinder(Protocol):
    """Something that finds tiles' corners in a frame (:class:`vision.find.learnt.LearntTileFinder`)."""

    @property
    def sideways_sets_axis(self) -> bool:
        """Whether a tile's axis follows the finder's sideways call (turned across its row when
        called sideways), so that a tile whose axis was a quarter off had its call wrong too."""
        ...

    def find(self, image: np.ndarray) -> FindResult: ...


@dataclass(frozen=True, slots=True)
class ClassicTileFinder:
    """The classical finder (:func:`vision.find.finder.find_tiles`): felt mask, rows, seams."""

    tile_size: TileSize | None = None
    # Its row cutter calls sideways from the notch a tile leaves in its row; the quad's axis
    # is a separate guess (a tile's side can make it look squarer than it is).
    sideways_sets_axis: ClassVar[bool] = False

    def find(self, image: np.ndarray) -> FindResult:
        return find_tiles(image, self.tile_size)


FINDERS = ("learnt", "classic")


def make_finder(
    name: str,
    tile_size: TileSize | None = None,
    model: Path | None = None,
    verifier: Path | None = DEFAULT_VERIFIER,
    *,
    half_octaves: bool = True,
) -> TileFinder:
    """The finder called ``name`` (one of :data:`FINDERS`) with a known ``tile_size`` if given;
    ``model``: another detector model for the learnt one, ``verifier`` its tile verifier (None: none).
    ``half_octaves``: a photograph of unknown tile size is looked at on a second pyramid a half
    octave off the first (``LearntTileFinder``); the training recipes of the shipped models ran
    without it and ask for that, so that a rebuild reads what they read."""
    if name == "classic":
        return ClassicTileFinder(tile_size)
    if name == "learnt":
        height = tile_size.height if tile_size else None
        return LearntTileFinder(
            model or DEFAULT_DETECTOR, tile_height=height, verifier=verifier, half_octaves=half_octaves
        )
    raise ValueError(f"no tile finder called {name!r}: choose one of {', '.join(FINDERS)}")


@functools.lru_cache(maxsize=4)
def shipped_learnt_finder(tile_size: TileSize | None = None, *, half_octaves: bool = True) -> TileFinder:
    """The shipped learnt detector (at ``tile_size``'s scale when given), loaded once, not per frame."""
    return make_finder("learnt", tile_size, half_octaves=half_octaves)


@functools.lru_cache(maxsize=1)
def shipped_judge() -> OnnxSidewaysJudge:
    return OnnxSidewaysJudge()  # loaded once, not per frame


class SidewaysJudge(Protocol):
    """Something that settles which found tiles lie across their rows
    (:class:`vision.detect.sideways_judge.OnnxSidewaysJudge`)."""

    def judge(
        self,
        image: np.ndarray,
        quads: list[np.ndarray],
        calls: list[bool],
        known_axes: Sequence[float] | None = None,
    ) -> tuple[list[np.ndarray], list[bool]]: ...


def detect_tiles(
    image: np.ndarray,
    classifier: QuadReader,
    tile_size: TileSize | None = None,
    finder: TileFinder | None = None,
    judge: SidewaysJudge | None = None,
    *,
    recut_doubtful: bool = True,
) -> tuple[Detection, ...]:
    """Find and read every tile: with ``finder``, else with the shipped learnt detector
    (looking at the frame at ``tile_size``'s scale when given). Which tiles lie sideways is
    settled by ``judge`` (default: the shipped one). Each tile is read along its axis and a
    quarter turned, and kept the way it reads surer; ``recut_doubtful``: a tile still uncertain
    is cut again turned a little (:mod:`vision.detect.tile_skew`), and one read unsurely cut
    again tighter (:mod:`vision.detect.tile_inset`). (A still photograph is read by
    :func:`vision.detect.photo_reading.read_photo`, which calls this.)"""
    finder = finder or shipped_learnt_finder(tile_size)
    return read_found(
        image,
        classifier,
        finder.find(image).tiles,
        judge,
        turn_flips_sideways=finder.sideways_sets_axis,
        recut_doubtful=recut_doubtful,
    )


def read_found(
    image: np.ndarray,
    classifier: QuadReader,
    found: Sequence[FoundTile],
    judge: SidewaysJudge | None = None,
    *,
    turn_flips_sideways: bool = True,
    row_axes: Sequence[float] | None = None,
    lie_known: Sequence[bool] | None = None,
    recut_doubtful: bool = True,
) -> tuple[Detection, ...]:
    """Found tiles (corners in ``image``) judged, settled and read: what :func:`detect_tiles`
    does after finding, for a caller with a finder of its own. A caller that knows each tile's
    row axis (a calibrated table: ``row_axes``, degrees clockwise from the image's up of an
    upright tile's long axis) gives it; the judge otherwise takes it from the tile's neighbours.
    ``lie_known``: the tiles whose lie the caller knows, their corners cut and their sideways
    call set to it (a calibrated table's hand and wall rows hold no sideways tile): the judge
    looks at the rest only. ``recut_doubtful``: each tile still uncertain is cut again turned a
    little about its centre (:mod:`vision.detect.tile_skew`), then each tile read unsurely cut
    again tighter (:mod:`vision.detect.tile_inset`); never with ``row_axes``: a calibrated
    table gives every tile's axis, and its finds fit their faces (cut tighter, its tiles read
    wrong and sure more often on the table reader's bench)."""
    judge = judge or shipped_judge()
    quads, calls = _judged(image, found, judge, row_axes, lie_known)
    lies = settle_lies(image, classifier, quads, calls, turn_flips_sideways=turn_flips_sideways, lie_known=lie_known)
    lies = rephase(image, classifier, lies)
    if recut_doubtful and row_axes is None:
        lies = read_inset(image, classifier, unskew(image, classifier, lies))
    detections = []
    for lie, find in zip(lies, _finds_of(found, lies), strict=True):
        if find.second_look_only and lie.reading.confidence < HALF_OCTAVE_ALONE_CONFIDENCE:
            continue  # a second look's find where the first saw nothing, read unsurely: clutter
        corners = turned_half(lie.corners) if lie.reading.upside_down else lie.corners
        detections.append(Detection(corners, lie.reading, lie.sideways, find.face_score))
    log.debug("detected %d tiles", len(detections))
    return tuple(detections)


def _judged(
    image: np.ndarray,
    found: Sequence[FoundTile],
    judge: SidewaysJudge,
    row_axes: Sequence[float] | None,
    lie_known: Sequence[bool] | None,
) -> tuple[list[np.ndarray], list[bool]]:
    """Every found tile's quad and sideways call, as the judge settles them where the lie is
    not known (``read_found``)."""
    quads, calls = [t.corners for t in found], [t.sideways for t in found]
    if lie_known is None:
        return judge.judge(image, quads, calls, row_axes)
    if len(lie_known) != len(found):
        raise ValueError(f"{len(found)} found tiles but {len(lie_known)} known lies: one each")
    asked = [i for i, known in enumerate(lie_known) if not known]
    axes = None if row_axes is None else [row_axes[i] for i in asked]
    judged_quads, judged_calls = judge.judge(image, [quads[i] for i in asked], [calls[i] for i in asked], axes)
    for i, quad, call in zip(asked, judged_quads, judged_calls, strict=True):
        quads[i], calls[i] = quad, call
    return quads, calls


def _finds_of(found: Sequence[FoundTile], lies: Sequence[TileLie]) -> list[FoundTile]:
    """Each lie's find (its verifier score, how it was found). Settling turns and nudges a
    find's quad, and a doubtful one may be cut again a little aside, so a lie is matched to the
    find nearest its centre."""
    if not lies:
        return []
    found_centres = np.array([centre(tile.corners) for tile in found])
    lie_centres = np.array([centre(lie.corners) for lie in lies])
    nearest = np.linalg.norm(lie_centres[:, None, :] - found_centres[None, :, :], axis=2).argmin(axis=1)
    return [found[at] for at in nearest.tolist()]
