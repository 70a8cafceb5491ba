"""Labelled crops of single real tiles (a folder of pictures per tile kind), read by the tile
classifier as it reads a found tile: the whole crop is the tile's quad.

Such a set measures the classifier alone (no detector), on faces no whole labelled photograph
shows: the red fives of a Japanese set above all (``bench/bench_tile_crops.py``). A source is
described by :class:`CropSource` (its repository, commit, licence, where its class folders lie
and which jantaku label each class is); :data:`CROP_SOURCES` names the ones the project
measures on (``models/DATA.md``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from table_app.domain.tile import KIND_COUNT
from vision.classify.classifier import OnnxTileClassifier, TileReading
from vision.classify.labels import FIVE_KINDS, is_red_label, kind_of_label, label_name
from vision.detect.still_photo import ImageReadError, read_image
from vision.enrollment.enroll import Enrollment, enroll_tiles
from vision.enrollment.rows import ROW_LABELS
from vision.enrollment.sheet import CutTile

#: Pictures a class folder may hold.
_PICTURE_SUFFIXES: Final = (".png", ".jpg", ".jpeg", ".bmp")


class CropSetError(ValueError):
    """A crop source's checkout lacks a class folder, or holds an unreadable crop (the message
    names the folder or the file)."""


@dataclass(frozen=True, slots=True)
class CropSource:
    """A public set of single-tile crops: ``folders`` are paths inside the checkout with
    ``{cls}`` where the class folder's name goes; ``classes`` maps each class name to a
    jantaku classifier label (:mod:`vision.classify.labels`)."""

    name: str
    repo: str
    commit: str
    licence: str
    what: str
    folders: tuple[str, ...]
    classes: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class LabelledCrop:
    path: Path
    label: int


def _mleague_classes() -> dict[str, int]:
    """takahasiyouhei/majon-tile-detection's 37 classes: 1-9 1m..9m, 10 red 5m, 11-19 1p..9p,
    20 red 5p, 21-29 1s..9s, 30 red 5s, 31-37 東南西北白發中 (looked at class by class)."""
    classes: dict[str, int] = {}
    for suit in range(3):
        for number in range(1, 10):
            classes[str(suit * 10 + number)] = suit * 9 + number - 1
        classes[str(suit * 10 + 10)] = KIND_COUNT + suit  # the red five of this suit
    for honour in range(7):
        classes[str(31 + honour)] = 27 + honour
    return classes


#: The crop sources measured on. None is trained on.
CROP_SOURCES: Final = {
    "mleague-crops": CropSource(
        name="mleague-crops",
        repo="takahasiyouhei/majon-tile-detection",
        commit="0df34baf5bde",
        licence="none found: measured on only, never trained on, no picture in this repository",
        what="tiles of a Japanese set with red fives in players' hands, cut from M-League broadcast frames "
        "(about 18×26 px)",
        folders=("images/dataset/test/test_origin/{cls}", "images/dataset/train/train_origin/{cls}-"),
        classes=_mleague_classes(),
    ),
}


def source_crops(source: CropSource, checkout: Path) -> tuple[LabelledCrop, ...]:
    """Every crop of ``source`` in a checkout of its repository, with its label, in class order."""
    crops: list[LabelledCrop] = []
    for name, label in source.classes.items():
        for pattern in source.folders:
            folder = checkout / pattern.format(cls=name)
            if not folder.is_dir():
                raise CropSetError(
                    f"{source.name}: class {name} folder {folder} does not exist "
                    f"(is {checkout} a checkout of {source.repo}?)"
                )
            pictures = sorted(p for p in folder.iterdir() if p.suffix.lower() in _PICTURE_SUFFIXES)
            crops.extend(LabelledCrop(path, label) for path in pictures)
    return tuple(crops)


@dataclass(slots=True)
class CropScore:
    """Counts over read crops. A red five's kind is its five's; a red five is found when it is
    read as that very red five; ``plain_fives_read_red`` counts the fives that are not red but
    were read red (every red five of such a set is labelled)."""

    crops: int = 0
    kind_right: int = 0
    reds: int = 0
    reds_read_red: int = 0
    plain_fives: int = 0
    plain_fives_read_red: int = 0
    uncertain: int = 0
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)
    reds_by_suit: dict[str, list[int]] = field(default_factory=dict)  # "5m" → [read red, red fives]

    def add(self, truth: int, reading: TileReading) -> None:
        self.crops += 1
        self.uncertain += reading.uncertain
        right = kind_of_label(reading.label) == kind_of_label(truth)
        self.kind_right += right
        if not right:
            self.confusions[(_name(truth), _name(reading.label))] += 1
        if is_red_label(truth):
            found = reading.label == truth  # red, and of its own suit
            self.reds += 1
            self.reds_read_red += found
            counts = self.reds_by_suit.setdefault(label_name(truth), [0, 0])
            counts[0] += found
            counts[1] += 1
        elif truth in FIVE_KINDS:
            self.plain_fives += 1
            self.plain_fives_read_red += reading.red

    @property
    def kind_accuracy(self) -> float:
        return self.kind_right / self.crops if self.crops else 0.0


def _name(label: int) -> str:
    return ("red " if is_red_label(label) else "") + label_name(label)


def score_crops(
    crops: Sequence[LabelledCrop],
    classify: Callable[[np.ndarray, list[np.ndarray]], Sequence[TileReading]],
) -> CropScore:
    """Read every crop with ``classify`` (``OnnxTileClassifier.classify_quads``: a picture and
    its tiles' quads), the crop's own corners as its quad, and count."""
    score = CropScore()
    for crop in crops:
        picture = read_crop(crop.path)
        height, width = picture.shape[:2]
        score.add(crop.label, classify(picture, [_upright_box(0, 0, width, height)])[0])
    return score


def split_for_enrollment(
    crops: Sequence[LabelledCrop], per_label: int
) -> tuple[tuple[LabelledCrop, ...], tuple[LabelledCrop, ...]]:
    """The first ``per_label`` crops of each label (to enroll on) and all the others (to measure
    on): a user enrolls their set from one example of each tile and the rest is read after."""
    if per_label < 1:
        raise ValueError(f"enroll on at least one crop of each tile, not {per_label}")
    taken: Counter[int] = Counter()
    enrolled: list[LabelledCrop] = []
    measured: list[LabelledCrop] = []
    for crop in crops:
        taken[crop.label] += 1
        (enrolled if taken[crop.label] <= per_label else measured).append(crop)
    return tuple(enrolled), tuple(measured)


#: Grey around each crop on the enrollment picture: enrollment's varied crops move a tile's
#: corners by up to ~8% of its height, and must not reach the next crop.
_CROP_MARGIN: Final = 6
_MOSAIC_COLUMNS: Final = 20


def enroll_on_crops(crops: Sequence[LabelledCrop], classifier: OnnxTileClassifier, seed: int = 0) -> Enrollment:
    """A tile-set enrollment (:func:`vision.enrollment.enroll.enroll_tiles`) fitted on ``crops``
    laid side by side on one picture, each crop's own corners its tile's."""
    if not crops:
        raise ValueError("no crops to enroll on")
    pictures = [read_crop(crop.path) for crop in crops]
    cell_h = max(p.shape[0] for p in pictures) + 2 * _CROP_MARGIN
    cell_w = max(p.shape[1] for p in pictures) + 2 * _CROP_MARGIN
    rows = -(-len(pictures) // _MOSAIC_COLUMNS)
    mosaic = np.full((rows * cell_h, min(len(pictures), _MOSAIC_COLUMNS) * cell_w, 3), 128, np.uint8)
    tiles = []
    for index, (picture, crop) in enumerate(zip(pictures, crops, strict=True)):
        top = index // _MOSAIC_COLUMNS * cell_h + _CROP_MARGIN
        left = index % _MOSAIC_COLUMNS * cell_w + _CROP_MARGIN
        height, width = picture.shape[:2]
        mosaic[top : top + height, left : left + width] = picture
        tiles.append(CutTile(crop.label, _upright_box(left, top, width, height)))
    return enroll_tiles(mosaic, tiles, classifier, seed=seed)


#: A rows-layout picture (``jantaku vision enroll --layout rows``) made of crops: each crop
#: scaled to this face height, a finger's width apart (as the layout asks), rows further apart,
#: on plain green felt with a little noise.
_ROWS_FACE_HEIGHT: Final = 84
_ROWS_GAP: Final = 0.18  # of the face height, between tiles in a row
_ROWS_SPACING: Final = 0.5  # of the face height, between rows
_ROWS_MARGIN: Final = 120
_FELT_BGR: Final = (60, 110, 40)


def rows_picture(crops: Sequence[LabelledCrop], seed: int = 0) -> tuple[np.ndarray, tuple[CutTile, ...]]:
    """The picture of ``crops`` (one of each label the rows layout wants) laid out in its rows
    (:data:`vision.enrollment.rows.ROW_LABELS`), and where each tile lies: the photo a user
    takes for ``--layout rows``, of real tiles when the crops are."""
    by_label = {crop.label: crop for crop in crops}
    missing = [label_name(label) for row in ROW_LABELS for label in row if label not in by_label]
    if missing:
        raise ValueError(f"a rows picture needs one crop of each tile; none of {', '.join(missing)}")
    pictures = {label: read_crop(by_label[label].path) for row in ROW_LABELS for label in row}
    height = _ROWS_FACE_HEIGHT
    widths = {label: max(1, round(p.shape[1] * height / p.shape[0])) for label, p in pictures.items()}
    gap, spacing = round(_ROWS_GAP * height), round(_ROWS_SPACING * height)
    row_width = max(sum(widths[label] + gap for label in row) for row in ROW_LABELS)
    size = (2 * _ROWS_MARGIN + len(ROW_LABELS) * (height + spacing), 2 * _ROWS_MARGIN + row_width)
    noise = np.random.default_rng(seed).normal(0, 6, (*size, 3))
    picture = np.clip(np.array(_FELT_BGR, np.float64) + noise, 0, 255).astype(np.uint8)
    tiles = []
    top = _ROWS_MARGIN
    for row in ROW_LABELS:
        left = _ROWS_MARGIN
        for label in row:
            width = widths[label]
            picture[top : top + height, left : left + width] = cv2.resize(
                pictures[label], (width, height), interpolation=cv2.INTER_CUBIC
            )
            tiles.append(CutTile(label, _upright_box(left, top, width, height)))
            left += width + gap
        top += height + spacing
    return picture, tuple(tiles)


def read_crop(path: Path) -> np.ndarray:
    """A crop's picture; an unreadable one is a :class:`CropSetError` naming it."""
    try:
        return read_image(path)
    except ImageReadError as error:
        raise CropSetError(str(error)) from error


def _upright_box(left: int, top: int, width: int, height: int) -> np.ndarray:
    """The corners of a crop laid upright at (``left``, ``top``), in face order."""
    return np.array([[left, top], [left + width, top], [left + width, top + height], [left, top + height]], np.float64)
