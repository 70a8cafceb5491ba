"""Which way a found tile lies: the finder's long axis or a quarter turn from it, and so
whether the tile lies across its row (sideways).

A finder's axis can be a quarter turn off: the learnt detector's axis channels follow the
tiles around a cell, so a riichi discard or a called tile comes out with its row's axis, and
an upright tile it wrongly calls sideways is turned across its row. The classifier is the
witness: a face cut across its real axis is squashed and reads badly. Each tile is read as
found and turned a quarter about its centre; when the turned crop reads clearly surer, the
tile's axis was wrong, and so was the finder's sideways call, which is relative to the same
row (turning a tile a quarter turns it between along and across its row). A tile with no
row around it keeps the finder's call: sideways relative to nothing it can see; so does a
tile whose turned reading is a back or a white dragon, faces with no way up. So does every
tile of a finder whose sideways call does not set its axis (the classical one).

Figures (``bench/bench_vision.py``): ``docs/vision.md``; the margin's choice: ``docs/vision-history.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

import numpy as np

from vision.classify.classifier import TileReading
from vision.classify.crops import quarter_turned, shifted_quads
from vision.classify.labels import BACK_LABEL, WHITE_DRAGON_LABEL
from vision.geometry import centres, length

#: The turned crop must read this much surer (summed label probability) to overturn the
#: finder's axis: squashed faces of some kinds still read fairly well (a 4p cut across reads
#: as a 2p at 0.8-0.9), so a small lead is no evidence. 0.3 on 40 held-out tables of each
#: style: fewest sideways errors; 0.1-0.2 called more upright tiles sideways, 0.4-0.5 missed more
#: sideways ones.
TURN_MARGIN: Final = 0.3
#: A tile has a row around it when another found tile's centre lies within this many of its
#: face lengths (a row neighbour lies within 1.25).
ROW_REACH: Final = 2.0
#: How far a doubtful tile's cuts are nudged, in faces along each edge.
NUDGE: Final = 0.25
#: Faces with nothing on them that has a way up: a back, and the white dragon (blank, or a
#: bare frame). A back cut across reads as a white dragon as surely as along, so a turn that
#: reads one of these fixes the crop but is no witness that the tile lies across its row.
PLAIN_LABELS: Final = frozenset({BACK_LABEL, WHITE_DRAGON_LABEL})


class QuadReader(Protocol):
    """A tile classifier that reads the tiles inside quads of an image
    (:meth:`vision.classify.classifier.OnnxTileClassifier.classify_quads`)."""

    def classify_quads(self, image: np.ndarray, quads: list[np.ndarray]) -> tuple[TileReading, ...]: ...


@dataclass(frozen=True, eq=False)
class TileLie:
    """A found tile settled: its face's corners in portrait order (the top may still be
    either short edge, as ``reading.upside_down`` tells), its reading and whether it lies
    across its row."""

    corners: np.ndarray
    reading: TileReading
    sideways: bool


def turn_wanted(as_found: TileReading, turned: TileReading) -> bool:
    """Whether the quarter-turned crop reads clearly surer than the crop as found."""
    return turned.confidence > as_found.confidence + TURN_MARGIN


def in_a_row(quads: Sequence[np.ndarray]) -> np.ndarray:
    """For each quad, whether another quad's centre lies within :data:`ROW_REACH` of its face
    lengths (its longer edge)."""
    return np.asarray(_neighbours(quads).any(axis=1))


def _neighbours(quads: Sequence[np.ndarray]) -> np.ndarray:
    """Which quads are each quad's neighbours ([i, j]: quad j's centre lies within
    :data:`ROW_REACH` of quad i's face length, its longer edge; never itself)."""
    if not quads:
        return np.zeros((0, 0), bool)
    middles = centres(quads)
    longs = np.array([max(length(q[1] - q[0]), length(q[2] - q[1])) for q in quads])
    distances = np.linalg.norm(middles[:, None, :] - middles[None, :, :], axis=2)
    np.fill_diagonal(distances, np.inf)
    return np.asarray(distances <= ROW_REACH * longs[:, None])


def along_their_rows(quads: Sequence[np.ndarray]) -> np.ndarray:
    """For each quad (portrait order: its up runs from the bottom edge to the top), whether it
    lies as its neighbours lie: it has neighbours (the quads whose centres lie within
    :data:`ROW_REACH` of its face length) and its up lies within 45° of the line their ups
    follow, each neighbour counted once (weighed by distance, the two sideways tiles of an
    added kan, each the other's nearest, would outweigh their meld's upright tiles)."""
    if not quads:
        return np.zeros(0, bool)
    near = _neighbours(quads).astype(np.float64)
    ups = np.array([q[0] - q[3] for q in quads], np.float64)
    doubled = 2.0 * np.arctan2(ups[:, 1], ups[:, 0])  # lines, not directions: doubled angles
    line_sin, line_cos = near @ np.sin(doubled), near @ np.cos(doubled)
    # Within 45° of the neighbours' line is within 90° once doubled: a positive dot product.
    return np.asarray(near.any(axis=1) & (np.cos(doubled) * line_cos + np.sin(doubled) * line_sin > 0.0))


def settle_lies(
    image: np.ndarray,
    classifier: QuadReader,
    quads: Sequence[np.ndarray],
    found_sideways: Sequence[bool],
    *,
    turn_flips_sideways: bool = True,
    lie_known: Sequence[bool] | None = None,
) -> tuple[TileLie, ...]:
    """Each found tile (its portrait quad and the finder's sideways call) read as found and,
    where that reading leaves room for a clear lead (below ``1 - TURN_MARGIN``: a confidence
    is at most 1), turned a quarter; kept the surer way (:func:`turn_wanted`), its sideways
    call flipped with the turn when it has a row around it (:func:`in_a_row`). Without
    ``turn_flips_sideways`` (a finder whose sideways call does not set the axis) the turn
    fixes the crop only. A tile whose lie the caller knows (``lie_known``: a calibrated table's
    hand and wall rows hold no sideways tile) is read as found and never turned: a standing 6s
    cut across reads 9p surer than it reads cut along."""
    if len(quads) != len(found_sideways):
        raise ValueError(f"{len(quads)} quads but {len(found_sideways)} sideways calls: one each")
    if lie_known is not None and len(lie_known) != len(quads):
        raise ValueError(f"{len(quads)} quads but {len(lie_known)} known lies: one each")
    if not quads:
        return ()
    as_found = classifier.classify_quads(image, list(quads))
    # Most faces read far above 1 - TURN_MARGIN as found: only the rest are cut again, which
    # keeps the second batch to a few tiles a frame.
    doubtful = [
        i
        for i, reading in enumerate(as_found)
        if reading.confidence + TURN_MARGIN < 1.0 and not (lie_known is not None and lie_known[i])
    ]
    turned = _surest_cuts(image, classifier, [(quarter_turned(quads[i]), None) for i in doubtful])
    # The turn is wanted when the turned cut reads clearly surer than the find's surest cut,
    # which reads at least as surely as the find as found: where the turned cut does not beat
    # that, no nudge of the find can make the turn wanted, and its nudged cuts are not read
    # (5-8 of a table frame's 140-180 classifier crops spared, the same decisions).
    contested = [k for k, i in enumerate(doubtful) if turn_wanted(as_found[i], turned[k][1])]
    kept = _surest_cuts(image, classifier, [(quads[doubtful[k]], as_found[doubtful[k]]) for k in contested])
    turn_to = {
        doubtful[k]: turned[k] for k, best in zip(contested, kept, strict=True) if turn_wanted(best[1], turned[k][1])
    }
    flips = in_a_row(quads) & turn_flips_sideways
    lies = []
    for i, (quad, reading) in enumerate(zip(quads, as_found, strict=True)):
        if i in turn_to:
            cut, turned_reading = turn_to[i]
            flip = bool(flips[i]) and turned_reading.label not in PLAIN_LABELS
            lies.append(TileLie(cut, turned_reading, bool(found_sideways[i]) != flip))
        else:
            # Kept as found, not nudged: a tile cut on the seam between two stays uncertain
            # and so is re-cut half a face either way afterwards (vision.detect.tile_phase).
            lies.append(TileLie(quad, reading, bool(found_sideways[i])))
    return tuple(lies)


def _surest_cuts(
    image: np.ndarray, classifier: QuadReader, quads: Sequence[tuple[np.ndarray, TileReading | None]]
) -> list[tuple[np.ndarray, TileReading]]:
    """Of each quad and its cuts nudged a quarter face along each edge (a finder that got the
    axis wrong often got the centre a little wrong too: it placed a face of the wrong shape),
    the cut that reads surest and its reading, the first of equals. A quad's reading, when
    already known, is not read again. All in one batch."""
    cuts = [[quad, *shifted_quads(quad, NUDGE)] for quad, _ in quads]
    unread = [
        quad_cuts[1:] if known is not None else quad_cuts for (_, known), quad_cuts in zip(quads, cuts, strict=True)
    ]
    wanted = [cut for quad_cuts in unread for cut in quad_cuts]
    read = iter(classifier.classify_quads(image, wanted) if wanted else ())
    surest = []
    for (_, known), quad_cuts in zip(quads, cuts, strict=True):
        readings = [known if known is not None else next(read)] + [next(read) for _ in quad_cuts[1:]]
        best = max(range(len(quad_cuts)), key=lambda k: readings[k].confidence)  # the first of equals
        surest.append((quad_cuts[best], readings[best]))
    return surest
