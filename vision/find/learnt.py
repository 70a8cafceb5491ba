"""The learnt tile finder: a small ONNX network marks every tile's face centre, size and long
axis on the scaled-down frame; each peak becomes a tile's four corners.

Trained on rendered tables and real photographs (``vision/training/train_detector.py``); the
conventions of its input and output are in :mod:`vision.find.centres`. Like the classical
finder it gives corners in portrait order and leaves which short edge is the top to the
classifier. The tile verifier (:mod:`vision.classify.verifier`) looks again at each look's
finds before they are merged. Last, the finds the picture's own edge cuts inside the frame are
dropped (:mod:`vision.find.picture_edge`), after every choice the finder made from its finds.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import cv2
import numpy as np

from models import MODELS_DIR
from vision.classify.verifier import DEFAULT_VERIFIER, OnnxTileVerifier
from vision.find import centres
from vision.find.centres import (
    CHANNELS,
    STRIDE,
    Peak,
    decode_peaks,
    input_size,
    net_input,
    normalised,
    portrait_corners_of,
)
from vision.find.finder import FindResult, FoundTile
from vision.find.picture_edge import picture_fill
from vision.find.seams import TileSize
from vision.geometry import centres as quad_centres
from vision.geometry import long_edge
from vision.onnx_models.cpu_session import cpu_session
from vision.onnx_models.model_file import ModelFileError, load_model_metadata

log = logging.getLogger(__name__)

DEFAULT_DETECTOR: Final = MODELS_DIR / "tile-detector.onnx"
_MIN_SIDE_PX: Final = 32  # a frame smaller than this on either side holds no readable tile
_BORDER_PX: Final = 2.0  # tiles cut by the frame's edge are dropped, as the classical finder does
#: A face's long edge in input pixels in the middle of what training showed (1920-px frames at
#: 1.0-2.9 px/mm scaled to 480: 7-20 px). Frames whose tiles come out outside ``WELL_SEEN_PX``
#: (a close-up, a table far away) are looked at again, scaled so that their tiles are this long.
TYPICAL_TILE_LONG_PX: Final = 15.0
WELL_SEEN_PX: Final = (13.0, 17.5)
_LONG_SIDE_RANGE: Final = (64, 2048)
#: A model whose metadata says ``"looks": "pyramid"`` learnt to ignore tiles much longer than it
#: was taught (zoomed-in photo frames with empty targets). Such a frame is looked at on a
#: pyramid of scales, each half the one before, and each look keeps the tiles whose long edge
#: comes out in ``PYRAMID_KEEP_PX`` (the finest look keeps every smaller one too, the coarsest
#: every longer one): one pyramid finds tiles 15 to 400 px long in one frame, with no hint.
PYRAMID_KEEP_PX: Final = (12.0, 24.0)
#: With ``half_octaves``, a second pyramid of looks each 1/√2 of the first's: every tile is
#: seen at two sizes a half octave apart, and a face the network misses at one (a standing
#: tile a little longer than training's, at a look's edge) is often plain at the other. Its
#: finds are merged with the first's as one pyramid's looks are (of one place, the surer peak
#: stands); letting the second only add tiles where the first found none kept the rendered
#: readings exactly but let more clutter through and read the photographs a little worse.
HALF_OCTAVE: Final = 2**-0.5
#: A frame whose tiles come out longer than this (input pixels) at the finest look was started
#: too fine: its first look at the model's long side saw tiles longer than training's as pieces
#: (halves, glyphs), and measured them so. Its finest look then spends itself on glyphs (book
#: spines' text); the pyramids start again half an octave coarser. Chosen on training material
#: (docs/vision-history.md).
COARSER_START_ABOVE_PX: Final = 24.0
#: A frame with the pixels for it (its longer side at least ``FINER_LOOK`` times the model's) is
#: looked at that much finer too, when looked at on two pyramids (a still photograph): tiles
#: under ~10 input px at the first look (a whole table from afar, a wide view around a hand)
#: are noise to the network, and what the first look does find there (a shelf's books, the
#: felt's rim) would set where the pyramids start. The tiles the finer look finds of
#: ``FINER_LOOK_TILES_PX`` (at its own scale) that are under the low bound at the first look
#: set the start instead when there are more than ``FINER_LOOK_MORE`` (times, plus) the first
#: look's finds, all sizes. Taken only where the first look starts the pyramids
#: no coarser than its own and less fine than the finer look. Chosen on training material
#: (docs/vision-history.md).
FINER_LOOK: Final = 2.0
FINER_LOOK_TILES_PX: Final = (10.0, 24.0)
FINER_LOOK_MORE: Final = (2.0, 2)
#: ... counting only the finer look's finds the verifier takes this surely for faces: on
#: tile-free pictures (felt, a keyboard, a shelf) its small finds are glyphs and grain, few of
#: them over 0.5, where a far hand's tiles are mostly over it.
FINER_LOOK_FACE_SCORE: Final = 0.5
#: Where the first look leaves the pyramids' start at its own size, the frame may hold tiles too
#: small for it (a table from afar) or too large (a camera close to the tiles: the first look
#: sees only their glyphs, or nothing it takes for a face). The pyramids are read first; when
#: their typical tile and at least ``FINER_LOOK_SKIPPED_FOR_LARGE`` faces the verifier is sure
#: of (:data:`FINER_LOOK_FACE_SCORE`) come out longer than ``FINER_LOOK_SKIPPED_ABOVE_PX`` at
#: the first look (twice the longest its finest look keeps), that is the frame's reading and
#: the finer look is not taken: it could find only their glyphs (a square close-up, read at
#: each pixel aspect, took it at every one: 1.2 s a 960×960 picture). The held-out photographs
#: brought three times closer come out 53-134 px there; the same among their mirror images at a
#: quarter of the pixels (a far table) 18-40 px, as clumps of their small tiles, where the finer
#: look does move the start.
FINER_LOOK_SKIPPED_FOR_LARGE: Final = 3
FINER_LOOK_SKIPPED_ABOVE_PX: Final = 48.0
#: A find of the second pyramid where the first found nothing must be this sure a face (the
#: verifier's score): the second pyramid's own finds on a table's clutter (a keyboard's keys,
#: a tray of sticks) are mostly unsure ones. Chosen on training material (150 `alanchoi`
#: training photographs, 60 rendered tile-free scenes and 60 with the table's things, seeds
#: 5 100 000+ and 5 600 000+): the two gates together drop 89% of the clutter's extra finds
#: and keep 75% of the real tiles only the second pyramid finds (docs/vision-history.md).
HALF_OCTAVE_ALONE_FACE_SCORE: Final = 0.3
#: ... and must read at least this surely (the classifier's confidence; ``still_photo.read_found``).
HALF_OCTAVE_ALONE_CONFIDENCE: Final = 0.3
#: Two looks' tiles whose centres lie closer than this share of the shorter face's short
#: edge are one tile; the surer peak stays.
_SAME_TILE: Final = 0.6
#: A find whose centre lies inside a face this many times longer than its own, found at least
#: this share as surely, is a part of that tile (a glyph), not a tile. A face longer than
#: ``_PART_HOST_AT_MOST`` times the frame's median find is no tile's: a coarse look's find
#: over a whole row must not take the row's tiles.
_PART_OF: Final = 1.4
_PART_HOST_AT_MOST: Final = 4.0
_PART_SCORE: Final = 0.5
#: A find at least ``_BLOCK_LONG`` times the typical tile's long edge that holds the centres
#: of ``_BLOCK_HOLDS`` finds of about the typical size (``_BLOCK_OF`` times it) is a clump of
#: tiles, not a tile (:func:`_blocks`). A 2×2 clump seen whole is about twice as long as its
#: tiles, and holds four of them; the rendered ponds' clumps came out 3-4.6 times as long.
_BLOCK_LONG: Final = 2.0
_BLOCK_HOLDS: Final = 3
_BLOCK_OF: Final = (0.7, 1.4)


#: A window of the network's input (``LearntTileFinder.find_in``) starts and ends on
#: multiples of this many input pixels: the network halves its grid three times, and the
#: input's padding (``centres.PAD_TO``) is a multiple of it too.
_WINDOW_ALIGN: Final = 16


class DetectorModelError(ModelFileError):
    """The detector model file or its metadata is missing, damaged or does not match this code."""


class LearntTileFinder:
    """Finds tiles with the shipped (or a given) ONNX detector; safe to share between calls."""

    #: A tile called sideways gets its axis square to its row's (:func:`centres.turned_across_row`).
    sideways_sets_axis: Final = True

    def __init__(
        self,
        model_path: Path = DEFAULT_DETECTOR,
        *,
        threads: int = 1,
        threshold: float | None = None,
        tile_height: float | None = None,
        verifier: Path | None = DEFAULT_VERIFIER,
        half_octaves: bool = False,
    ):
        """``tile_height``: a face's long edge in frame pixels, when known; it sets the scale
        the frame is looked at (else the model's input size, with a second look for close-ups).
        ``verifier``: the tile verifier model that looks again at every find and drops what is
        no tile's face (:mod:`vision.classify.verifier`); None finds without it.
        ``half_octaves``: a frame looked at on a pyramid (no ``tile_height``) is looked at on a
        second one, each look a half octave (1/√2) smaller than the first's (:data:`HALF_OCTAVE`):
        twice the network's time, for tiles it is unsure of at one size."""
        metadata = _load_metadata(model_path)
        self.verifier = OnnxTileVerifier(verifier, threads=threads) if verifier is not None else None
        self.sha256 = str(metadata["sha256"])
        self.long_side = int(metadata["input"]["long_side"])
        self.threshold = float(metadata["peak_threshold"] if threshold is None else threshold)
        self._session = cpu_session(model_path, threads)
        self._input_name = self._session.get_inputs()[0].name
        self.tile_height = tile_height
        self.pyramid = metadata.get("looks") == "pyramid"
        self.half_octaves = half_octaves
        log.debug("loaded tile detector %s", model_path)

    def find(self, image: np.ndarray) -> FindResult:
        """Every tile in a BGR uint8 image that does not touch the border, nor the picture's own
        edge inside it (and that the verifier, if any, takes for a tile's face)."""
        _check_image(image)
        return _clear_of_picture_edge(image, self._find_all(image))

    def _find_all(self, image: np.ndarray) -> FindResult:
        longest = max(image.shape[:2])
        if self.tile_height is not None:
            return self._find_at(image, self._long_side_for(longest, self.tile_height))
        initial, first_scaled = self._look(image, self.long_side, (0.0, float("inf")))
        initial = self._verified(image, initial)
        start = self._start_for(longest, initial)
        if self.pyramid:
            taken: dict[int, tuple[list[_Look], _Scaled]] = {}  # each look's finds, all sizes, taken once
            found = self._find_on_pyramid(image, start, initial, first_scaled, taken)
            if not self.half_octaves or not self._finer_look_fits(longest, start):
                return found
            if self._larger_than_the_first_look_sees(found, longest):
                return found
            finer_start = self._finer_start(image, initial, start, taken)
            if finer_start == start:
                return found
            # (the pyramids from the first look's start were read for nothing: a far hand's
            # frame, rare, pays their coarse looks, ~a first look's time)
            return self._find_on_pyramid(image, finer_start, initial, first_scaled, taken)
        if start == self.long_side:
            return _result(initial)
        return _result(self._verified(image, self._look(image, start, (0.0, float("inf")))[0]))

    def find_in(self, image: np.ndarray, region: tuple[int, int, int, int]) -> FindResult:
        """The tiles ``find`` finds at the known ``tile_height`` whose centre lies inside
        ``region`` (left, top, right, bottom frame pixels), the network looking only at that
        part of the frame: a caller that knows where its tiles can lie (a calibrated table's
        zones) saves the network's time on the rest, which goes by the pixels it looks at.
        The frame is scaled whole, and the window's edges fall on the network's own grid
        (``_WINDOW_ALIGN``), so what it finds well inside the window it finds as in the whole
        frame; a tile within a few face lengths of the window's edge may be found otherwise
        (the network sees less around it): leave that margin around where tiles are wanted."""
        if self.tile_height is None:
            raise ValueError("the tile detector looks inside a region only at a known tile height")
        height, width = image.shape[:2]
        left, top, right, bottom = region
        if not (0 <= left < right <= width and 0 <= top < bottom <= height):
            raise ValueError(f"region {region} does not lie inside the {width}×{height} frame")
        long_side = self._long_side_for(max(height, width), self.tile_height)
        looked, _ = self._look(image, long_side, (0.0, float("inf")), region=region)
        return _clear_of_picture_edge(image, _result(_one_per_tile(self._verified(image, looked))))

    def _verified(self, image: np.ndarray, looks: list[_Look]) -> list[_Look]:
        """The finds the verifier takes for tiles' faces (all of them without a verifier).
        Before looks are merged and the scale is chosen: a glyph or a spine must neither push
        a tile out as "the same place" nor set the scale the pyramid starts at."""
        if self.verifier is None or not looks:
            return looks
        scores = [float(score) for score in self.verifier.scores(image, [look.tile.corners for look in looks])]
        # Each find kept carries its score: how surely a photograph's finds are faces tells
        # its true pixel aspect (:mod:`vision.detect.pixel_aspect`).
        # (Built whole rather than by dataclasses.replace: a look's finds are a hundred or more.)
        return [
            _Look(FoundTile(look.tile.corners, look.tile.sideways, score), look.long, look.short, look.score)
            for look, score in zip(looks, scores, strict=True)
            if self.verifier.keeps(score)
        ]

    def _start_for(self, longest: int, first_look: list[_Look]) -> int:
        """The long side at which the first look's typical tile is as long as training showed
        most: the first look's own when it already is (or when it found nothing)."""
        if not first_look:
            return self.long_side
        typical = float(np.median([t.long for t in first_look]))  # frame pixels
        if WELL_SEEN_PX[0] <= typical * self.long_side / longest <= WELL_SEEN_PX[1]:
            return self.long_side
        return self._long_side_for(longest, typical)

    def _finer_start(
        self, image: np.ndarray, initial: list[_Look], start: int, taken: dict[int, tuple[list[_Look], _Scaled]]
    ) -> int:
        """Where the pyramids start when a look twice as fine as the first (:data:`FINER_LOOK`)
        sees many more tiles too small for the first look than the first look found at all;
        else ``start``. The finer look is kept in ``taken`` for the pyramids."""
        longest = max(image.shape[:2])
        finer = round(FINER_LOOK * self.long_side)
        if not self._finer_look_fits(longest, start):
            return start
        low, high = FINER_LOOK_TILES_PX
        # Every find of the first look counts against the finer look's, whatever its size:
        # standing tiles a first look sees whole or in pieces are the frame's tiles, and a
        # shelf's small glyphs beside them must not outnumber them.
        seen = len(initial)
        taken[finer] = self._look(image, finer, (0.0, float("inf")))
        found, scaled = taken[finer]
        small = [t for t in found if low <= t.long * scaled.scale < high and t.long * self.long_side / longest < low]
        too_small = [t for t in self._verified(image, small) if _surely_a_face(t, FINER_LOOK_FACE_SCORE)]
        times, plus = FINER_LOOK_MORE
        if len(too_small) <= times * seen + plus:
            return start
        log.debug("a look at %d px sees %d small tiles, the first %d: starting finer", finer, len(too_small), seen)
        return self._long_side_for(longest, float(np.median([t.long for t in too_small])))

    def _finer_look_fits(self, longest: int, start: int) -> bool:
        """Whether a frame ``longest`` px long whose pyramids would start at ``start`` is given
        the finer look."""
        # Not where the frame lacks the pixels; nor where the first look saw tiles larger than
        # training's (it starts coarser), where the finer look's small finds are mostly the
        # glyphs of book spines (they moved 22 of the Japanese source's 67 starts); nor where
        # the pyramids already start that fine.
        finer = round(FINER_LOOK * self.long_side)
        return longest >= finer and self.long_side <= start < finer

    def _larger_than_the_first_look_sees(self, found: FindResult, longest: int) -> bool:
        """Whether ``found``'s typical tile, and :data:`FINER_LOOK_SKIPPED_FOR_LARGE` or more of
        its faces the verifier is sure of, come out longer than :data:`FINER_LOOK_SKIPPED_ABOVE_PX`
        at the first look."""
        scale = self.long_side / longest
        if found.tile_size is None or found.tile_size.height * scale <= FINER_LOOK_SKIPPED_ABOVE_PX:
            return False
        large = [
            tile
            for tile in found.tiles
            if (tile.face_score is None or tile.face_score >= FINER_LOOK_FACE_SCORE)
            and long_edge(tile.corners) * scale > FINER_LOOK_SKIPPED_ABOVE_PX
        ]
        return len(large) >= FINER_LOOK_SKIPPED_FOR_LARGE

    @staticmethod
    def _long_side_for(longest: int, tile_height: float) -> int:
        wanted = round(longest * TYPICAL_TILE_LONG_PX / tile_height)
        return int(np.clip(wanted, *_LONG_SIDE_RANGE))

    def _find_at(self, image: np.ndarray, long_side: int) -> FindResult:
        # One look can fire twice on one tile too (two peaks a few cells apart on a face a
        # little longer than training's): one find per tile, as the pyramid's looks are merged.
        return _result(_one_per_tile(self._verified(image, self._look(image, long_side, (0.0, float("inf")))[0])))

    def _find_on_pyramid(
        self,
        image: np.ndarray,
        first: int,
        initial: list[_Look],
        first_scaled: _Scaled,
        taken: dict[int, tuple[list[_Look], _Scaled]],
    ) -> FindResult:
        """Looks at ``first`` and each half of it down to the smallest input, each keeping the
        tiles of its own scale (``initial``: the finds of the look at the model's long side);
        with ``half_octaves``, at a second such pyramid from ``first`` / √2 too, and again half
        an octave coarser while the tiles found come out longer than the finest look keeps
        (:data:`COARSER_START_ABOVE_PX`): the two pyramids swap, the finest look left out.
        ``taken``: the looks taken so far, by long side (all sizes), each taken once a frame."""
        longest = max(image.shape[:2])
        second = round(first * HALF_OCTAVE)
        while True:
            tiles = self._pyramid_tiles(image, first, initial, first_scaled, taken)
            if not self.half_octaves or second < _LONG_SIDE_RANGE[0]:
                return _result(_one_per_tile(tiles))
            extra = self._pyramid_tiles(image, second, [], None, taken)
            result = _result(_one_per_tile(tiles + _alone_if_sure(extra, tiles, HALF_OCTAVE_ALONE_FACE_SCORE)))
            if result.tile_size is None or result.tile_size.height * first / longest <= COARSER_START_ABOVE_PX:
                return result
            log.debug(
                "tiles %.0f px long at the finest look (%d px): looking from %d px",
                result.tile_size.height * first / longest,
                first,
                second,
            )
            first, second = second, first // 2

    def _pyramid_tiles(
        self,
        image: np.ndarray,
        first: int,
        initial: list[_Look],
        first_scaled: _Scaled | None,
        taken: dict[int, tuple[list[_Look], _Scaled]],
    ) -> list[_Look]:
        """One pyramid's tiles from ``first`` down; ``taken``: the frame's looks so far (all
        sizes), each look this pyramid takes added to it."""
        longest = max(image.shape[:2])
        source: _Scaled | None = None
        looks = [first]
        while looks[-1] // 2 >= _LONG_SIDE_RANGE[0]:
            looks.append(looks[-1] // 2)
        tiles: list[_Look] = []
        for index, long_side in enumerate(looks):
            low = 0.0 if index == 0 else PYRAMID_KEEP_PX[0]
            high = float("inf") if index == len(looks) - 1 else PYRAMID_KEEP_PX[1]
            if long_side == self.long_side and first_scaled is not None:
                # the look already taken: its finds, kept as this look keeps them
                tiles.extend(t for t in initial if low <= t.long * long_side / longest < high)
                source = first_scaled
                continue
            if long_side not in taken:
                # Each coarser look halves the one before (area averaging of area averages):
                # scaling the whole frame down again for every look cost as much as the network.
                taken[long_side] = self._look(image, long_side, (0.0, float("inf")), source)
            found, source = taken[long_side]
            tiles.extend(self._verified(image, [t for t in found if low <= t.long * source.scale < high]))
        log.debug("pyramid of looks at %s px", looks)
        return tiles

    def _look(
        self,
        image: np.ndarray,
        long_side: int,
        keep_long: tuple[float, float],
        source: _Scaled | None = None,
        region: tuple[int, int, int, int] | None = None,
    ) -> tuple[list[_Look], _Scaled]:
        """The tiles of one look at ``long_side`` whose long edge, in input pixels, is in
        ``keep_long``, and the frame as this look scaled it. ``source``: the frame already
        scaled down (a finer look's), to scale from instead of the whole frame. ``region``:
        the part of the frame the network looks at (``find_in``), else all of it."""
        given = source or _Scaled(image, 1.0)
        given_h, given_w = given.pixels.shape[:2]
        # Its longer side becomes long_side, from any source; with a region, only the input's
        # columns up to the window's right edge are scaled (the rest of ``scaled`` is left
        # black: a look inside a region is no source for another look).
        input_scale, (size_w, size_h), padded = input_size(given_h, given_w, long_side)
        scale = given.scale * input_scale
        columns, lines = _window(padded, region, scale)
        ready = net_input(given.pixels, long_side, columns=None if region is None else columns.stop)
        scaled = _Scaled(ready.pixels[:size_h, :size_w], scale)
        window = ready.pixels[lines, columns]
        output = np.asarray(self._session.run(None, {self._input_name: normalised(window[None])})[0])[0]
        height, width = image.shape[:2]
        peaks = [
            p
            for p in centres.turned_across_row(decode_peaks(output, self.threshold))
            if keep_long[0] <= p.long < keep_long[1]
        ]
        if region is not None:
            peaks = _centred_in(region, peaks, (columns.start or 0, lines.start or 0), scale)
        faces = list(portrait_corners_of(peaks, scale))
        tiles = [
            _Look(
                FoundTile(corners, peak.sideways > centres.SIDEWAYS_ABOVE),
                peak.long / scale,
                peak.short / scale,
                peak.score,
            )
            for peak, corners, inside in zip(peaks, faces, _inside(faces, width, height), strict=True)
            if inside
        ]
        return tiles, scaled


def _window(shape: tuple[int, ...], region: tuple[int, int, int, int] | None, scale: float) -> tuple[slice, slice]:
    """The network input's columns and lines that hold ``region`` (frame pixels; all of the
    input for None), widened to ``_WINDOW_ALIGN``: the network's cells then lie where they
    lie in the whole input, and so does every output it computes from far enough inside."""
    if region is None:
        return slice(None), slice(None)
    height, width = shape[:2]
    left, top, right, bottom = (value * scale for value in region)
    step = _WINDOW_ALIGN
    return (
        slice(int(left // step) * step, min(-int(-right // step) * step, width)),
        slice(int(top // step) * step, min(-int(-bottom // step) * step, height)),
    )


def _centred_in(
    region: tuple[int, int, int, int], peaks: list[Peak], window_origin: tuple[int, int], scale: float
) -> list[Peak]:
    """A window's peaks (centres from the window's corner) whose centre lies in ``region``
    (frame pixels), centred in the whole input's pixels."""
    x0, y0 = window_origin
    left, top, right, bottom = region
    moved = [((p.centre[0] + x0, p.centre[1] + y0), p) for p in peaks]
    return [
        Peak(middle, p.long, p.short, p.axis_degrees, p.score, p.sideways)
        for middle, p in moved
        if left <= middle[0] / scale < right and top <= middle[1] / scale < bottom
    ]


def _result(tiles: list[_Look]) -> FindResult:
    """The found tiles and their typical size (the median face)."""
    if not tiles:
        return FindResult((), None)
    size = TileSize(float(np.median([t.short for t in tiles])), float(np.median([t.long for t in tiles])))
    log.debug("found %d tiles, median %.0f×%.0f px", len(tiles), size.width, size.height)
    return FindResult(tuple(t.tile for t in tiles), size)


def _clear_of_picture_edge(image: np.ndarray, found: FindResult) -> FindResult:
    """``found`` less the tiles the picture's own edge cuts where it ends inside the frame
    (:mod:`vision.find.picture_edge`), their typical size taken again. Dropped after the finder's
    own choices (where its pyramids start, which finds stand alone), not inside its looks: so
    it drops tiles and changes nothing else. Dropped inside each look, the cut finds had set no
    pyramid's start, and on a tile-free shelf of spines read again turned (a canvas with black
    corners) the starts left found more spines: 34 false finds on the held-out Japanese
    photographs' 66 tile-free rectangles against 21, dropped after them 23."""
    fill = picture_fill(image)
    if fill is None or not found.tiles:
        return found
    cut = fill.cuts(np.stack([np.asarray(t.corners, np.float64) for t in found.tiles]))
    if not cut.any():
        return found
    kept = tuple(tile for tile, dropped in zip(found.tiles, cut, strict=True) if not dropped)
    if not kept:
        return FindResult((), None)
    corners = np.stack([np.asarray(t.corners, np.float64) for t in kept])
    # Portrait order: the first edge is the face's short one, the last its long one.
    short = np.linalg.norm(corners[:, 1] - corners[:, 0], axis=1)
    long = np.linalg.norm(corners[:, 3] - corners[:, 0], axis=1)
    return FindResult(kept, TileSize(float(np.median(short)), float(np.median(long))))


@dataclass(frozen=True, slots=True)
class _Scaled:
    """The frame scaled down (unpadded) and its scale from frame pixels."""

    pixels: np.ndarray
    scale: float


@dataclass(frozen=True, slots=True)
class _Look:
    """A tile one look found, with its size in frame pixels and its peak's height."""

    tile: FoundTile
    long: float
    short: float
    score: float


def _alone_if_sure(extra: list[_Look], tiles: list[_Look], least_face_score: float) -> list[_Look]:
    """The ``extra`` finds that lie where one of ``tiles`` lies, and those apart from every one
    of them whose verifier score is at least ``least_face_score`` (all, with no verifier),
    marked ``second_look_only``."""
    centres = quad_centres([t.tile.corners for t in tiles]) if tiles else np.zeros((0, 2))
    shorts = np.array([t.short for t in tiles])
    kept = []
    for find in extra:
        apart = np.linalg.norm(centres - find.tile.corners.mean(axis=0), axis=1)
        if np.any(apart < _SAME_TILE * np.minimum(shorts, find.short)):
            kept.append(find)
        elif _surely_a_face(find, least_face_score):
            alone = FoundTile(find.tile.corners, find.tile.sideways, find.tile.face_score, second_look_only=True)
            kept.append(_Look(alone, find.long, find.short, find.score))
    return kept


def _surely_a_face(find: _Look, least_face_score: float) -> bool:
    """Whether the verifier scored ``find`` at least ``least_face_score`` (every find, where
    no verifier looked)."""
    return find.tile.face_score is None or find.tile.face_score >= least_face_score


def _one_per_tile(tiles: list[_Look]) -> list[_Look]:
    """One find per tile: no tile inside another, and of several finds in one place the surest.

    A look finer than a tile's own scale may still fire on its glyphs (a circle of 9p, a
    character): a smaller find whose centre lies inside a larger one's face is a part of it,
    unless the larger find is much less sure than the part. Parts go first, so that a glyph a
    little surer than its tile cannot push the tile out as "the same place". A coarse look
    may also see a tight clump of tiles as one large tile (:func:`_blocks`): such a block is
    dropped, and takes no tile as its part."""
    if not tiles:
        return []
    centres = quad_centres([t.tile.corners for t in tiles])
    longs = np.array([t.long for t in tiles])
    shorts = np.array([t.short for t in tiles])
    # Every pair's centre distance at once ([i, j]: from find i to find j).
    apart = np.linalg.norm(centres[None, :, :] - centres[:, None, :], axis=2)
    whole = _whole(tiles, centres, longs, apart, frozenset())
    blocks = _blocks(tiles, centres, longs, float(np.median(longs[whole])))
    if blocks:
        whole = _whole(tiles, centres, longs, apart, blocks)
    # Surest first, a find is kept when it lies apart from every find kept before it: each
    # kept find blocks the finds too near it (``apart`` is symmetric).
    too_near = ~(apart >= _SAME_TILE * np.minimum(shorts[:, None], shorts[None, :]))
    blocked = np.zeros(len(tiles), bool)
    kept: list[int] = []
    for surest in sorted(whole, key=lambda at: -tiles[at].score):
        if not blocked[surest]:
            kept.append(surest)
            blocked |= too_near[surest]
    return [tiles[at] for at in kept]


def _whole(
    tiles: list[_Look], centres: np.ndarray, longs: np.ndarray, apart: np.ndarray, blocks: frozenset[int]
) -> list[int]:
    """The finds that are no part of another (``blocks`` neither count nor host; ``apart``:
    every pair's centre distance)."""
    host_at_most = _PART_HOST_AT_MOST * float(np.median(longs))
    scores = np.array([t.score for t in tiles])
    may_host = (
        (longs[None, :] > _PART_OF * longs[:, None])
        & (longs[None, :] <= host_at_most)
        & (scores[None, :] >= _PART_SCORE * scores[:, None])
        & (apart < longs[None, :] / 2)
    )
    if blocks:
        may_host[:, list(blocks)] = False
    return [
        index
        for index, hosted in enumerate(np.any(may_host, axis=1).tolist())
        if index not in blocks and not (hosted and _inside_any(centres[index], tiles, np.flatnonzero(may_host[index])))
    ]


def _inside_any(point: np.ndarray, tiles: list[_Look], hosts: np.ndarray) -> bool:
    return any(_inside_face(point, tiles[host].tile.corners) for host in hosts)


def _blocks(tiles: list[_Look], centres: np.ndarray, longs: np.ndarray, typical: float) -> frozenset[int]:
    """The finds that are clumps of tiles, not tiles: a face at least ``_BLOCK_LONG`` times
    the typical tile's long edge (``typical``: the median of the finds that are no part of
    another, so that glyphs do not set it) holding the centres of ``_BLOCK_HOLDS`` or more
    finds of about the typical size. A coarse look sees a tight clump of dark tiles (2×2,
    3×3) as one tile three or four times as long; as a host it would take its tiles as its
    parts. A near tile's glyphs are far smaller than the frame's typical tile and do not
    count."""
    sized = np.flatnonzero((longs >= _BLOCK_OF[0] * typical) & (longs <= _BLOCK_OF[1] * typical))
    return frozenset(
        index
        for index, tile in enumerate(tiles)
        if tile.long >= _BLOCK_LONG * typical
        and sum(1 for at in sized if _inside_face(centres[at], tile.tile.corners)) >= _BLOCK_HOLDS
    )


def _inside_face(point: np.ndarray, corners: np.ndarray) -> bool:
    return (
        cv2.pointPolygonTest(corners.astype(np.float32).reshape(-1, 1, 2), (float(point[0]), float(point[1])), False)
        > 0
    )


def _check_image(image: np.ndarray) -> None:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        what = f"{image.shape} {image.dtype}" if isinstance(image, np.ndarray) else type(image).__name__
        raise ValueError(f"the tile detector needs an H×W×3 uint8 BGR image, got {what}")
    if min(image.shape[:2]) < _MIN_SIDE_PX:
        raise ValueError(
            f"the tile detector needs an image at least {_MIN_SIDE_PX} px on each side, got "
            f"{image.shape[1]}×{image.shape[0]}"
        )


def _inside(faces: list[np.ndarray], width: int, height: int) -> list[bool]:
    """Whether each face (4×2 corners) keeps ``_BORDER_PX`` inside the frame."""
    if not faces:
        return []
    corners = np.stack(faces)
    inside = (
        np.all(corners >= _BORDER_PX, axis=(1, 2))
        & np.all(corners[:, :, 0] <= width - _BORDER_PX, axis=1)
        & np.all(corners[:, :, 1] <= height - _BORDER_PX, axis=1)
    )
    return [bool(keep) for keep in inside]


def _load_metadata(model_path: Path) -> dict[str, Any]:
    metadata = load_model_metadata(model_path, "tile detector", DetectorModelError)
    metadata_path = model_path.with_suffix(".json")
    output = metadata.get("output", {})
    if tuple(output.get("channels", ())) != CHANNELS or output.get("stride") != STRIDE:
        raise DetectorModelError(
            f"{metadata_path.name} describes outputs {output.get('channels')} at stride {output.get('stride')}; "
            f"this code reads {list(CHANNELS)} at stride {STRIDE}"
        )
    return metadata
