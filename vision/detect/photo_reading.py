"""A still photograph read end to end (``jantaku vision detect`` and ``eval``, the real-photo
bench): its tiles found and read at the photograph's pixel aspect (given, or chosen by
:mod:`vision.detect.pixel_aspect`; by :func:`photo_reader`, read again turned upright when its
rows run askew, :mod:`vision.detect.picture_turn`), then those far off its typical tile size dropped
(:mod:`vision.detect.tile_sizes`), then its unsure finds when most of its finds are unsure
(:mod:`vision.detect.sure_share`), then its finds when all of them are blank faces
(:mod:`vision.detect.blank_faces`). Last, :func:`photo_reader` calls upright each tile called
sideways that lies as its neighbours lie (:func:`upright_in_their_rows`).

The size rule comes after the aspect is chosen: the aspect is chosen by how surely all the
finds read, and the finds the rule drops are what tells a wrong aspect (glyphs and misread
faces read unsurely). For the same reason the aspect may be chosen on the finds read as found
(``choose_with``), before single faces are rescued by second cuts (a face askew re-cut turned,
:mod:`vision.detect.tile_skew`): a rescue that reads surely at a wrong squeeze would count for
it, and a near tie between two squeezes would flip on a few rescued faces."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final

import numpy as np

from vision.detect.blank_faces import without_blanks_alone
from vision.detect.camera_shake import UNSHAKEN
from vision.detect.face_white import LIGHT_SET_RIGHT
from vision.detect.picture_turn import upright_reader
from vision.detect.pixel_aspect import (
    AspectJudge,
    AspectReading,
    detect_any_pixel_aspect,
    detect_at_pixel_aspect,
    pixel_aspects_to_try,
)
from vision.detect.second_looks import with_second_looks
from vision.detect.soft_focus import SHARPENED
from vision.detect.still_photo import Detection, TileFinder, detect_tiles
from vision.detect.sure_share import without_unsure_noise
from vision.detect.tile_lie import QuadReader, along_their_rows
from vision.detect.tile_sizes import of_one_size

Detect = Callable[[np.ndarray], Sequence[Detection]]


def read_photo(
    image: np.ndarray,
    detect: Detect,
    pixel_aspect: float | None = None,
    choose_with: Detect | None = None,
    judge: AspectJudge | None = None,
) -> AspectReading:
    """``detect`` (e.g. :func:`~vision.detect.still_photo.detect_tiles` with its models) run at
    ``pixel_aspect`` (None: the squeezes the picture may have, :func:`pixel_aspects_to_try`,
    tried and the surest reading of ``choose_with``, else of ``detect``, chosen, a near tie
    broken by the aspect ``judge`` when given), and the finds of one size kept (its unsure
    ones only when enough of them read surely; none when all are blank faces)."""
    if pixel_aspect is None:
        tried = pixel_aspects_to_try(image)
        if len(tried) == 1:
            pixel_aspect = tried[0]
        elif choose_with is not None:
            pixel_aspect = detect_any_pixel_aspect(image, choose_with, tried, judge).pixel_aspect
        else:
            chosen = detect_any_pixel_aspect(image, detect, tried, judge)
            return _kept(chosen.pixel_aspect, chosen.detections)
    return _kept(pixel_aspect, detect_at_pixel_aspect(image, detect, pixel_aspect))


#: A photograph's rules in order, each with why it sets finds aside (as ``vision detect`` says it).
PHOTOGRAPH_RULES: Final[tuple[tuple[str, Callable[[Sequence[Detection]], tuple[Detection, ...]]], ...]] = (
    ("far off the photograph's tile size", of_one_size),
    ("read unsurely where most finds are", without_unsure_noise),
    ("blank faces alone (a white box or paper reads as a white dragon)", without_blanks_alone),
)


def _kept(pixel_aspect: float, found: Sequence[Detection]) -> AspectReading:
    """A photograph's finds of one size, less its unsure ones when most are unsure, and none
    when all that is left are blank faces; with how many each rule set aside."""
    kept = tuple(found)
    set_aside = []
    for why, rule in PHOTOGRAPH_RULES:
        before, kept = len(kept), rule(kept)
        if len(kept) < before:
            set_aside.append((why, before - len(kept)))
    return AspectReading(pixel_aspect, kept, tuple(set_aside))


def photo_reader(
    classifier: QuadReader,
    finder: TileFinder,
    pixel_aspect: float | None = None,
    judge: AspectJudge | None = None,
) -> Callable[[np.ndarray], AspectReading]:
    """A still photograph read as ``vision detect`` reads it with these models: :func:`read_photo`
    of :func:`~vision.detect.still_photo.detect_tiles`, the squeeze (when not given) chosen on the
    finds as found, before a doubtful find's second cuts, each squeeze's reading turned upright
    where its rows run askew; at that squeeze a picture whose rows run askew, or most of whose
    finds lie across, is read again turned (:func:`~vision.detect.picture_turn.upright_reader`);
    then a picture under a coloured light is read again with its colours set right, a shaken
    one with its shake undone, and a soft one sharpened (:mod:`vision.detect.second_looks`).
    Last, with a finder whose sideways call sets the axis (the learnt one),
    :func:`upright_in_their_rows`."""

    def settled(image: np.ndarray) -> Sequence[Detection]:
        return detect_tiles(image, classifier, finder=finder)

    upright = upright_reader(settled)

    def as_found(image: np.ndarray) -> Sequence[Detection]:
        return detect_tiles(image, classifier, finder=finder, recut_doubtful=False)

    # The squeeze is chosen on readings turned upright where their rows run askew: a picture
    # turned 20° read unturned finds few tiles at any squeeze, and the squeeze they chose was
    # often not the one the turned picture reads best at (a turn read at a wrong squeeze is no
    # longer a turn). Every 14th `alanchoi` training photograph (mostly the export's copies
    # turned 25-45°): 3 913 → 3 989 tiles found in 4 942 → 5 038 finds.
    choose_upright = upright_reader(as_found)

    def read(image: np.ndarray) -> AspectReading:
        return read_photo(image, upright, pixel_aspect, choose_with=choose_upright, judge=judge)

    looked = with_second_looks(read, (LIGHT_SET_RIGHT, UNSHAKEN, SHARPENED))
    if not finder.sideways_sets_axis:
        return looked

    def read_in_rows(image: np.ndarray) -> AspectReading:
        reading = looked(image)
        return replace(reading, detections=upright_in_their_rows(reading.detections))

    return read_in_rows


def upright_in_their_rows(found: Sequence[Detection]) -> tuple[Detection, ...]:
    """``found`` with each tile called sideways that lies as its neighbours lie
    (:func:`~vision.detect.tile_lie.along_their_rows`) called upright.

    A photograph's rows are known only from its finds: the finder's axes set the row axis the
    sideways judge looks along, and in a grid of near-square faces (a tray of tiles, a picture
    squeezed by its export) they come out a quarter off for whole patches. The judge and the
    classifier's turn then call tiles sideways that lie exactly as the tiles around them
    (``alanchoi``'s held-out photographs turned a quarter: 118 of 2 103 upright tiles). A riichi
    discard or a called tile lies across its neighbours and keeps its call. Done last: whether
    most finds lie across is what tells :func:`~vision.detect.picture_turn.upright_reader` that
    the whole picture is turned a quarter. A calibrated table knows its rows, and its reader
    does not need this."""
    along = along_their_rows([d.corners for d in found])
    return tuple(replace(d, sideways=False) if d.sideways and a else d for d, a in zip(found, along, strict=True))
