"""Where the learnt finder looks: the scales it looks at a frame on, with no tile size given.

The detector sees tiles well only about as long as training showed them
(:data:`TYPICAL_TILE_LONG_PX`). A frame is first looked at scaled to the model's own long side;
what that first look finds sets where a pyramid of looks starts (:func:`start_for`), started
coarser where its tiles came out too long (:data:`COARSER_START_ABOVE_PX`), or finer where a look
twice as fine finds many tiles too small for the first (:data:`FINER_LOOK`,
:func:`finer_look_fits`, :func:`finer_look_moves_start`), unless the pyramids found tiles far
larger than the first look sees well (:func:`larger_than_the_first_look_sees`). The looks
themselves are :class:`vision.find.learnt.LearntTileFinder`'s.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from vision.find.finder import FindResult
from vision.find.one_per_tile import surely_a_face
from vision.geometry import long_edge

#: A face's long edge in input pixels in the middle of what training showed (1920-px frames at
#: 1.0-2.9 px/mm scaled to 480: 7-20 px). Frames whose tiles come out outside ``WELL_SEEN_PX``
#: (a close-up, a table far away) are looked at again, scaled so that their tiles are this long.
TYPICAL_TILE_LONG_PX: Final = 15.0
WELL_SEEN_PX: Final = (13.0, 17.5)
#: The long sides, in input pixels, a look may scale a frame to.
LONG_SIDE_RANGE: Final = (64, 2048)
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


def long_side_for(longest: int, tile_height: float) -> int:
    """The long side a frame ``longest`` px long is scaled to for its tiles, ``tile_height`` px
    long in it, to come out as long as training showed most (:data:`TYPICAL_TILE_LONG_PX`)."""
    wanted = round(longest * TYPICAL_TILE_LONG_PX / tile_height)
    return int(np.clip(wanted, *LONG_SIDE_RANGE))


def start_for(model_long_side: int, longest: int, first_look_longs: list[float]) -> int:
    """The long side at which the first look's typical tile (``first_look_longs``: its finds'
    long edges, frame pixels) is as long as training showed most: the first look's own
    (``model_long_side``) when it already is, or when it found nothing."""
    if not first_look_longs:
        return model_long_side
    typical = float(np.median(first_look_longs))
    if WELL_SEEN_PX[0] <= typical * model_long_side / longest <= WELL_SEEN_PX[1]:
        return model_long_side
    return long_side_for(longest, typical)


def finer_look_fits(model_long_side: int, longest: int, start: int) -> bool:
    """Whether a frame ``longest`` px long whose pyramids would start at ``start`` is given
    the finer look."""
    # Not where the frame lacks the pixels; nor where the first look saw tiles larger than
    # training's (it starts coarser), where the finer look's small finds are mostly the
    # glyphs of book spines (they moved 22 of the Japanese source's 67 starts); nor where
    # the pyramids already start that fine.
    finer = round(FINER_LOOK * model_long_side)
    return longest >= finer and model_long_side <= start < finer


def finer_look_moves_start(too_small: int, seen: int) -> bool:
    """Whether the finer look's ``too_small`` sure faces (too small for the first look) are
    many more than the first look's ``seen`` finds, all sizes (:data:`FINER_LOOK_MORE`)."""
    times, plus = FINER_LOOK_MORE
    return too_small > times * seen + plus


def larger_than_the_first_look_sees(found: FindResult, longest: int, model_long_side: int) -> bool:
    """Whether ``found``'s typical tile, and :data:`FINER_LOOK_SKIPPED_FOR_LARGE` or more of
    its faces the verifier is sure of, come out longer than :data:`FINER_LOOK_SKIPPED_ABOVE_PX`
    at the first look (a frame ``longest`` px long scaled to ``model_long_side``)."""
    scale = model_long_side / longest
    if found.tile_size is None or found.tile_size.height * scale <= FINER_LOOK_SKIPPED_ABOVE_PX:
        return False
    large = [
        tile
        for tile in found.tiles
        if surely_a_face(tile, FINER_LOOK_FACE_SCORE) and long_edge(tile.corners) * scale > FINER_LOOK_SKIPPED_ABOVE_PX
    ]
    return len(large) >= FINER_LOOK_SKIPPED_FOR_LARGE
