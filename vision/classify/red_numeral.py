"""A character tile whose numeral is drawn red is the red 5m: found from colour.

Every character (man) tile carries its numeral above a 萬 that most sets print red; only the
red five prints its numeral red too. The classifier learnt that from the art, but a set drawn
in another hand can fool it: on real broadcast frames of one Japanese set (``mleague-crops``,
``bench/bench_tile_crops.py``) 17 of its 40 red 5m read as 6m and 9 more as a plain 5m, while
the share of red among the numeral half's ink parts the two cleanly (red 5m 0.41-0.51, every
other man tile 0.00-0.12). Rendered tables agree: over 16 tables of each art (regular, its
dark variation, the held-out black, random training palettes; glare and blur included) no
plain man tile is above 0.28, and most red 5m are above 0.5.

So a reading of a plain 5m or a 6m is settled by colour: a numeral part (the crop's top
:data:`NUMERAL_PART` when read upright) whose ink is at least :data:`RED_NUMERAL_SHARE` red,
with a 萬 half at least :data:`RED_CHARACTER_SHARE` red, makes it the red 5m, at its
confidence. The rule only ever makes a tile red, never a red one plain: a red 5m whose numeral
looks dull keeps the classifier's word.
"""

from __future__ import annotations

from typing import Final

import cv2
import numpy as np

from table_app.domain.tile import KIND_COUNT

RED_FIVE_MAN: Final = KIND_COUNT  # the label of the red 5m (vision.classify.labels)
#: The faces a red 伍 was seen read as: the plain 5m and the 6m (六 and 伍 alike at ~18 px).
#: Only they are settled by colour. Applied to every man tile, the rule misread the held-out
#: photographs of Chinese sets (34-kind 0.975 -> 0.969): their loose cuts (a find shifted half
#: a face, a tile askew) often show red 萬 strokes at both ends. Limited to these two, it made
#: two of their detections red 5m: a five printed all in red, and a blue-numeral five cut low.
_READ_FOR_RED_FIVE: Final = (4, 5)
#: The least share of the numeral part's ink that must be red: between every plain man tile
#: seen (measured on the top half: rendered up to 0.28, real at most 0.12) and every red 5m on
#: real tiles (0.40 and up).
RED_NUMERAL_SHARE: Final = 0.35
#: The numeral part is the crop's top 40%, not its half: a plain 5m cut a little low (the live
#: table reader's cut of a hand tile under glare) shows the top of its red 萬 in the top half,
#: 0.42 of the half's ink, and read red; in its top 40% 0.31. On the broadcast crops the top
#: 40% of a red 5m is 0.40-0.55 red, of every other man tile at most 0.03 (the half: 0.41 and
#: 0.12).
NUMERAL_PART: Final = 0.4
#: ... and of the other half's, the 萬's: a red five is red all over (real: 0.29 and up), while a
#: plain man tile read the wrong way up shows its 萬 where the numeral should be and its black
#: numeral in the other half (rendered up to 0.24, real up to 0.12), and stays plain.
RED_CHARACTER_SHARE: Final = 0.25
#: Ink: a pixel this far (summed over B, G, R) from the half's median colour, the tile's body,
#: light or dark.
_INK_DISTANCE: Final = 90
#: Red: an OpenCV hue (0-179) within this of pure red, at least this saturated and bright.
_RED_HUE: Final = 12
_RED_SATURATION: Final = 70
_RED_VALUE: Final = 60


def red_numeral_share(crop: np.ndarray, numeral_on_top: bool = True, part: float = NUMERAL_PART) -> float:
    """The share of red among the ink of a face crop's numeral part, its top ``part`` of the
    height (an H×W×3 BGR uint8 crop, the face upright; ``numeral_on_top`` false for a crop read
    upside down: the bottom ``part``)."""
    rows = max(round(crop.shape[0] * part), 1)
    half = np.ascontiguousarray(crop[:rows] if numeral_on_top else crop[crop.shape[0] - rows :])
    pixels = half.reshape(-1, 3).astype(np.int16)
    body = np.median(pixels, axis=0)
    ink = np.abs(pixels - body).sum(axis=1) >= _INK_DISTANCE
    inked = int(ink.sum())
    if not inked:
        return 0.0
    hsv = cv2.cvtColor(half, cv2.COLOR_BGR2HSV).reshape(-1, 3)
    hue = hsv[:, 0]
    red = ((hue <= _RED_HUE) | (hue >= 180 - _RED_HUE)) & (hsv[:, 1] >= _RED_SATURATION) & (hsv[:, 2] >= _RED_VALUE)
    return float((red & ink).sum()) / inked


def is_red_five_man(crop: np.ndarray, label: int, upside_down: bool) -> bool:
    """Whether a crop read as ``label`` (either way up) is a man tile red all over: its numeral
    and its 萬."""
    return (
        label in _READ_FOR_RED_FIVE
        and red_numeral_share(crop, not upside_down) >= RED_NUMERAL_SHARE
        and red_numeral_share(crop, upside_down, part=0.5) >= RED_CHARACTER_SHARE
    )
