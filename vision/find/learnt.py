"""The learnt tile finder: a small ONNX network marks every tile's face centre, size and long
axis on the scaled-down frame; each peak becomes a tile's four corners.

Trained on rendered tables and real photographs (``vision/training/train_detector.py``); the
conventions of its input and output are in :mod:`vision.find.centres`. Like the classical
finder it gives corners in portrait order and leaves which short edge is the top to the
classifier. Where it looks, with no tile size given, is chosen by the rules of
:mod:`vision.find.look_scales`; the tile verifier (:mod:`vision.classify.verifier`) looks again
at each look's finds before they are merged into one find per tile
(:mod:`vision.find.one_per_tile`). Last, the finds the picture's own edge cuts inside the frame
are dropped (:mod:`vision.find.picture_edge`), after every choice the finder made from its finds.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

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
from vision.find.look_scales import (
    COARSER_START_ABOVE_PX,
    FINER_LOOK,
    FINER_LOOK_FACE_SCORE,
    FINER_LOOK_TILES_PX,
    HALF_OCTAVE,
    LONG_SIDE_RANGE,
    PYRAMID_KEEP_PX,
    finer_look_fits,
    finer_look_moves_start,
    larger_than_the_first_look_sees,
    long_side_for,
    start_for,
)
from vision.find.one_per_tile import Look, alone_if_sure, one_per_tile, surely_a_face, tiles_found
from vision.find.picture_edge import clear_of_picture_edge
from vision.onnx_models.cpu_session import cpu_session
from vision.onnx_models.model_file import ModelFileError, load_model_metadata

log = logging.getLogger(__name__)

DEFAULT_DETECTOR: Final = MODELS_DIR / "tile-detector.onnx"
_MIN_SIDE_PX: Final = 32  # a frame smaller than this on either side holds no readable tile
_BORDER_PX: Final = 2.0  # tiles cut by the frame's edge are dropped, as the classical finder does
#: A find of the second pyramid where the first found nothing must be this sure a face (the
#: verifier's score): the second pyramid's own finds on a table's clutter (a keyboard's keys,
#: a tray of sticks) are mostly unsure ones. Chosen on training material (150 `alanchoi`
#: training photographs, 60 rendered tile-free scenes and 60 with the table's things, seeds
#: 5 100 000+ and 5 600 000+): the two gates together drop 89% of the clutter's extra finds
#: and keep 75% of the real tiles only the second pyramid finds (docs/vision-history.md).
HALF_OCTAVE_ALONE_FACE_SCORE: Final = 0.3
#: ... and must read at least this surely (the classifier's confidence; ``still_photo.read_found``).
HALF_OCTAVE_ALONE_CONFIDENCE: Final = 0.3
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
        return clear_of_picture_edge(image, self._find_all(image))

    def _find_all(self, image: np.ndarray) -> FindResult:
        longest = max(image.shape[:2])
        if self.tile_height is not None:
            return self._find_at(image, long_side_for(longest, self.tile_height))
        initial, first_scaled = self._look(image, self.long_side, (0.0, float("inf")))
        initial = self._verified(image, initial)
        start = start_for(self.long_side, longest, [t.long for t in initial])  # frame pixels
        if self.pyramid:
            taken: dict[int, tuple[list[Look], _Scaled]] = {}  # each look's finds, all sizes, taken once
            found = self._find_on_pyramid(image, start, initial, first_scaled, taken)
            if not self.half_octaves or not finer_look_fits(self.long_side, longest, start):
                return found
            if larger_than_the_first_look_sees(found, longest, self.long_side):
                return found
            finer_start = self._finer_start(image, initial, start, taken)
            if finer_start == start:
                return found
            # (the pyramids from the first look's start were read for nothing: a far hand's
            # frame, rare, pays their coarse looks, ~a first look's time)
            return self._find_on_pyramid(image, finer_start, initial, first_scaled, taken)
        if start == self.long_side:
            return tiles_found(initial)
        return tiles_found(self._verified(image, self._look(image, start, (0.0, float("inf")))[0]))

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
        long_side = long_side_for(max(height, width), self.tile_height)
        looked, _ = self._look(image, long_side, (0.0, float("inf")), region=region)
        return clear_of_picture_edge(image, tiles_found(one_per_tile(self._verified(image, looked))))

    def _verified(self, image: np.ndarray, looks: list[Look]) -> list[Look]:
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
            Look(FoundTile(look.tile.corners, look.tile.sideways, score), look.long, look.short, look.score)
            for look, score in zip(looks, scores, strict=True)
            if self.verifier.keeps(score)
        ]

    def _finer_start(
        self, image: np.ndarray, initial: list[Look], start: int, taken: dict[int, tuple[list[Look], _Scaled]]
    ) -> int:
        """Where the pyramids start when a look twice as fine as the first (:data:`FINER_LOOK`)
        sees many more tiles too small for the first look than the first look found at all;
        else ``start``. The finer look is kept in ``taken`` for the pyramids."""
        longest = max(image.shape[:2])
        finer = round(FINER_LOOK * self.long_side)
        if not finer_look_fits(self.long_side, longest, start):
            return start
        low, high = FINER_LOOK_TILES_PX
        # Every find of the first look counts against the finer look's, whatever its size:
        # standing tiles a first look sees whole or in pieces are the frame's tiles, and a
        # shelf's small glyphs beside them must not outnumber them.
        seen = len(initial)
        taken[finer] = self._look(image, finer, (0.0, float("inf")))
        found, scaled = taken[finer]
        small = [t for t in found if low <= t.long * scaled.scale < high and t.long * self.long_side / longest < low]
        too_small = [t for t in self._verified(image, small) if surely_a_face(t.tile, FINER_LOOK_FACE_SCORE)]
        if not finer_look_moves_start(len(too_small), seen):
            return start
        log.debug("a look at %d px sees %d small tiles, the first %d: starting finer", finer, len(too_small), seen)
        return long_side_for(longest, float(np.median([t.long for t in too_small])))

    def _find_at(self, image: np.ndarray, long_side: int) -> FindResult:
        # One look can fire twice on one tile too (two peaks a few cells apart on a face a
        # little longer than training's): one find per tile, as the pyramid's looks are merged.
        return tiles_found(one_per_tile(self._verified(image, self._look(image, long_side, (0.0, float("inf")))[0])))

    def _find_on_pyramid(
        self,
        image: np.ndarray,
        first: int,
        initial: list[Look],
        first_scaled: _Scaled,
        taken: dict[int, tuple[list[Look], _Scaled]],
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
            if not self.half_octaves or second < LONG_SIDE_RANGE[0]:
                return tiles_found(one_per_tile(tiles))
            extra = self._pyramid_tiles(image, second, [], None, taken)
            result = tiles_found(one_per_tile(tiles + alone_if_sure(extra, tiles, HALF_OCTAVE_ALONE_FACE_SCORE)))
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
        initial: list[Look],
        first_scaled: _Scaled | None,
        taken: dict[int, tuple[list[Look], _Scaled]],
    ) -> list[Look]:
        """One pyramid's tiles from ``first`` down; ``taken``: the frame's looks so far (all
        sizes), each look this pyramid takes added to it."""
        longest = max(image.shape[:2])
        source: _Scaled | None = None
        looks = [first]
        while looks[-1] // 2 >= LONG_SIDE_RANGE[0]:
            looks.append(looks[-1] // 2)
        tiles: list[Look] = []
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
    ) -> tuple[list[Look], _Scaled]:
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
            Look(
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


@dataclass(frozen=True, slots=True)
class _Scaled:
    """The frame scaled down (unpadded) and its scale from frame pixels."""

    pixels: np.ndarray
    scale: float


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
