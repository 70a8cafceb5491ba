"""A photograph whose rows run askew: read again turned so that they run along its sides.

The detector learnt its tiles' axes from renders and photographs whose rows run mostly along
the picture's sides. On a picture turned 20° (a phone held askew) it finds half the tiles and
puts their axes within a few degrees of upright, so every crop holds its face turned and reads
unsurely: recall on the held-out Japanese photographs so turned fell from 0.98 to 0.40
(``bench/bench_photo_changes.py``).

A tile's outline and its face's strokes run along its axes, so around each find the image's
gradients point mostly along them. Four times a gradient's angle folds the four directions of a
rectangle's edges into one; the finds' windows averaged so (each gradient weighted by its
squared strength) give each find's edge turn modulo a quarter turn, and their median, weighted
by how well each window agrees and how surely its find reads, the picture's rows' turn
(:func:`rows_turn`). A picture of :data:`ROW_FINDS_AT_LEAST` finds or more turned
:data:`TURNED_AT_LEAST` or more is read again turned upright, on a canvas large enough to keep
all of it, and the finds mapped back; the turned reading is kept when it reads surer
(:func:`vision.detect.pixel_aspect.sureness`) and surely enough to be tiles
(:data:`TURNED_SURE_AT_LEAST`), so a heap of tiles lying every way, whose median says little,
keeps its first reading unless the turned one reads better, and a shelf of book spines
photographed askew is not read again into more false finds.

Four times an angle cannot tell a quarter turn: a picture turned a quarter (a phone held across
the rows) measures upright, and the detector, which learnt that a tile whose long side runs
across the picture lies across its row, calls most of its finds sideways. A picture with more
than :data:`ACROSS_SHARE_OVER` of its finds lying across is read again a quarter further turned
(from the turn measured), and that reading kept when fewer of its finds lie across and it reads
surer. Which way the quarter goes does not matter: the classifier reads a face upside down as
surely as upright.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final

import cv2
import numpy as np

from vision.detect.pixel_aspect import sureness, tile_belief
from vision.detect.still_photo import Detection
from vision.geometry import mapped_points
from vision.weighting import weighted_median

Detect = Callable[[np.ndarray], Sequence[Detection]]

#: The window around a find whose gradients are averaged: this share of its long side each way
#: (its neighbours in a row lie the same way and add to the window's agreement).
REACH: Final = 0.75
#: A picture whose rows turn this many degrees or more from its sides is read again turned
#: upright. The classifier reads faces within a few degrees of upright as surely as upright
#: ones; the held-out photographs as stored measure under 3 (their rows' median).
TURNED_AT_LEAST: Final = 6.0
#: A picture with fewer finds than this has no rows to measure: it is read once. (Tile-free
#: pictures give a find or two on book spines or a keyboard's keys, whose edges can say
#: "turned"; read again turned, a shelf of spines gave more finds, some of them sure.)
ROW_FINDS_AT_LEAST: Final = 3
#: The turned reading is kept only when it reads at least this surely (the mean belief of
#: :func:`vision.detect.pixel_aspect.sureness`) as well as surer than the first. The held-out
#: Japanese photographs turned 20° read 0.06-0.70 once and 0.36-0.98 turned; the tile-free
#: shelves of book spines behind them, photographed 8-15° askew, 0.01-0.14 once and at most
#: 0.29 turned, with more finds.
TURNED_SURE_AT_LEAST: Final = 0.35


#: A picture whose finds lie across their rows more than this share of the time is read again
#: turned a quarter. In play at most one tile in three lies across (a called tile in its meld, a
#: riichi discard in its row); the held-out photographs as stored read up to half their finds
#: across (loose tiles lying every way), and keep their reading as it is surer. Turned a
#: quarter, their rows' upright tiles were called across 61 times in 341 (``leo-miura``), 25 with
#: a half here, 23 with a third.
ACROSS_SHARE_OVER: Final = 1 / 3


def across_share(found: Sequence[Detection]) -> float:
    """The share of ``found`` called lying across its row (0 with no finds)."""
    return sum(d.sideways for d in found) / len(found) if found else 0.0


def edge_turns(image: np.ndarray, quads: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Each quad's window's edge turn in degrees clockwise from the picture's axes, -45 to 45
    (an axis modulo a quarter turn), and how well its gradients agree on it (0-1: the length of
    their strength-weighted mean folded direction)."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    height, width = gray.shape[:2]
    turns, agreement = np.zeros(len(quads)), np.zeros(len(quads))
    for index, quad in enumerate(quads):
        corners = np.asarray(quad, np.float64)
        x, y = corners.mean(axis=0)
        long_side = max(np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[3] - corners[0]))
        reach = max(round(REACH * long_side), 2)
        window = gray[max(int(y) - reach, 0) : min(int(y) + reach + 1, height),
                      max(int(x) - reach, 0) : min(int(x) + reach + 1, width)].astype(np.float32)  # fmt: skip
        if min(window.shape) < 3:
            continue
        gx = cv2.Sobel(window, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(window, cv2.CV_32F, 0, 1, ksize=3)
        # With g = |g|(cos a, sin a): |g|² cos 2a = gx² - gy², |g|² sin 2a = 2 gx gy, and
        # |g|² cos 4a, |g|² sin 4a from those by the double angle once more (over |g|²).
        strength = gx * gx + gy * gy
        cos2, sin2 = gx * gx - gy * gy, 2.0 * gx * gy
        safe = np.where(strength > 0, strength, 1.0)
        c = float(((cos2 * cos2 - sin2 * sin2) / safe).sum())
        s = float((2.0 * cos2 * sin2 / safe).sum())
        total = float(strength.sum())
        if total > 0:
            # Image y grows downwards, so the gradient's angle, and so the turn, is clockwise.
            turns[index] = np.degrees(np.arctan2(s, c)) / 4.0
            agreement[index] = np.hypot(c, s) / total
    return turns, agreement


def rows_turn(image: np.ndarray, found: Sequence[Detection]) -> float:
    """How far the picture's rows of tiles turn clockwise from its sides, -45 to 45 degrees:
    the median of its finds' edge turns, each weighted by how well its window agrees and how
    surely its find is a tile read right (0 with no finds)."""
    if not found:
        return 0.0
    turns, agreement = edge_turns(image, [d.corners for d in found])
    weights = agreement * np.array([tile_belief(d) for d in found])
    if weights.sum() <= 0.0:
        return 0.0
    return weighted_median(turns, weights)


def upright_reader(detect: Detect) -> Detect:
    """``detect`` that reads a picture whose rows turn :data:`TURNED_AT_LEAST` or more from its
    sides again turned upright, and keeps the turned reading when it reads surer and surely
    enough; then, when more than :data:`ACROSS_SHARE_OVER` of its finds lie across, again turned
    a quarter more, kept when fewer lie across and it reads surer (see the module's doc)."""

    def read(image: np.ndarray) -> Sequence[Detection]:
        found = tuple(detect(image))
        if len(found) < ROW_FINDS_AT_LEAST:
            return found
        turn = rows_turn(image, found)
        if abs(turn) < TURNED_AT_LEAST:
            turn = 0.0
        else:
            again = read_turned(image, detect, turn)
            surer = sureness(again)
            if surer >= TURNED_SURE_AT_LEAST and surer > sureness(found):
                found = again
        if across_share(found) > ACROSS_SHARE_OVER:
            # The rows' turn is measured modulo a quarter: from the turn measured (kept or not),
            # a quarter more.
            again = read_turned(image, detect, turn + 90.0)
            if across_share(again) < across_share(found) and sureness(again) > sureness(found):
                found = again
        return found

    return read


def read_turned(image: np.ndarray, detect: Detect, turn: float) -> tuple[Detection, ...]:
    """``detect`` run on ``image`` turned ``turn`` degrees anticlockwise (so that rows turned that
    far clockwise run upright), on a canvas that keeps all of it; the finds' corners mapped back
    to ``image``'s pixels."""
    height, width = image.shape[:2]
    # getRotationMatrix2D turns anticlockwise on screen for a positive angle.
    matrix = cv2.getRotationMatrix2D(((width - 1) / 2.0, (height - 1) / 2.0), turn, 1.0)
    cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
    new_width, new_height = int(np.ceil(width * cos + height * sin)), int(np.ceil(width * sin + height * cos))
    matrix[0, 2] += (new_width - width) / 2.0
    matrix[1, 2] += (new_height - height) / 2.0
    turned = cv2.warpAffine(image, matrix, (new_width, new_height), flags=cv2.INTER_LINEAR)
    back = np.vstack([cv2.invertAffineTransform(matrix), [0.0, 0.0, 1.0]])
    return tuple(replace(d, corners=mapped_points(back, np.asarray(d.corners))) for d in detect(turned))
