"""Find tiles in a photo of a table: oriented quadrilaterals, touching tiles split apart.

No calibration: the tile size is learnt from the photo itself (the lone tiles in it, or the
thickness of rows), or given. Each tile comes out as four corners in portrait order
(top-left, top-right, bottom-right, bottom-left with the long edges upright); which short edge
is the face's top is left to the classifier, which reads the face both ways up.
"""

from __future__ import annotations

import itertools
import logging
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

from vision.find.foreground import tile_mask
from vision.find.parts import split_directions
from vision.find.seams import TileSize, cut_row, seam_profile

log = logging.getLogger(__name__)

_MARGIN: Final = 3  # pixels of context around a blob's upright crop
# A blob is the top face plus the side a camera sees off-centre (up to ~40% more).
_SINGLE_SLACK: Final = (0.8, 1.45)  # a blob this close to one tile's size is one tile
_ROW_SLACK: Final = 1.5  # a blob no thicker than this many tile heights is one row
_ROW_MISFIT: Final = 2.0  # weight of "rows as high as a tile" against seam strength when cutting a pond
_SIDE_ALLOWANCE: Final = 1.22  # a row's thickness over a face's height, on average over a table
_SHARP_OUTLINE: Final = 9.0  # median grey-level step per pixel along a tile blob's outline
_SIDE_TRIM: Final = 1.1  # a piece longer than this many face lengths has its side trimmed off
_MIN_FILL: Final = 0.3  # a piece's edge rows must be this full to count as the tile's extent
#: A tile's top face is 20 × 27 mm on most automatic-table sets; seen from above with a bit of
#: its side, the blob is a little squarer.
TILE_ASPECT: Final = 0.74
_BORDER_PX: Final = 2.0
_MIN_TILE_EDGE_PX: Final = 12.0  # smaller than this, a face cannot be read anyway


@dataclass(frozen=True, eq=False)
class FoundTile:
    corners: np.ndarray  # 4×2 float, portrait order; the top may be either short edge
    sideways: bool  # lies with its long edge along its row (a riichi discard, a called tile)
    #: The tile verifier's belief (0..1) that this is a tile's face; None where no verifier looked.
    face_score: float | None = None
    #: Found by a second look alone, where the first found nothing (the learnt finder's half-octave
    #: pyramid): its reading must be surer to stand (``still_photo.read_found``).
    second_look_only: bool = False


@dataclass(frozen=True, eq=False)
class FindResult:
    tiles: tuple[FoundTile, ...]
    tile_size: TileSize | None


def find_tiles(image: np.ndarray, tile_size: TileSize | None = None) -> FindResult:
    """Every tile in a BGR image that does not touch the border."""
    foreground = tile_mask(image)
    contours, _ = cv2.findContours(foreground.mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    height, width = image.shape[:2]
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    contours = [c for c in contours if cv2.contourArea(c) > 60 and _has_sharp_outline(gray, c)]
    size = tile_size or estimate_tile_size(contours)  # a row cut by the frame is still a row's thickness
    if size is None:
        log.info("no tile-shaped blobs found")
        return FindResult((), None)
    centre = np.array([width / 2, height / 2], np.float32)
    found: list[FoundTile] = []
    for contour in contours:
        if cv2.contourArea(contour) < 0.35 * size.width * size.height:
            continue
        for part in split_directions(image, contour, size):
            pieces = [_trim_side(t, size, centre) for t in _split_blob(gray, part, size)]
            found += [t for t in pieces if _inside(t.corners, width, height)]
    log.debug("found %d tiles of %.0f×%.0f px", len(found), size.width, size.height)
    return FindResult(tuple(found), size)


def estimate_tile_size(contours: list[np.ndarray]) -> TileSize | None:
    """The tile size from the rows on the table (ponds, walls, melds, hands), else from lone tiles.

    A row's thickness is a tile's height plus whatever side the camera sees, so it only bounds
    the size: a camera 0.7-1 m over the table sees about a third more than the face at the
    table's edge, less near the middle; the width follows from a tile's known aspect.
    """
    rects = [(sorted(cv2.minAreaRect(c)[1]), cv2.contourArea(c)) for c in contours]
    dims = [(float(short), float(long), float(area)) for (short, long), area in rects if short >= _MIN_TILE_EDGE_PX]
    rows = [(short, area) for short, long, area in dims if short / long < 0.55]
    if rows:
        # Slivers (a tile's side split off by glare) are not rows: only sizeable blobs count.
        largest = max(area for _, area in rows)
        sizeable = [short for short, area in rows if area >= 0.2 * largest]
        thinnest = min(sizeable)
        thickness = float(np.median([short for short in sizeable if short <= 1.3 * thinnest]))
        height = thickness / _SIDE_ALLOWANCE
        return TileSize(height * TILE_ASPECT, height)
    singles = [long for short, long, _ in dims if 0.6 <= short / long <= 0.95]
    if singles:
        height = float(np.median(singles)) / _SIDE_ALLOWANCE
        return TileSize(height * TILE_ASPECT, height)
    return None


def _has_sharp_outline(gray: np.ndarray, contour: np.ndarray) -> bool:
    """Tiles have crisp edges; a lamp's reflection on the felt fades out softly."""
    points = contour[:, 0, :]
    x0, y0 = np.maximum(points.min(axis=0) - 2, 0)
    x1, y1 = points.max(axis=0) + 3
    patch = gray[y0:y1, x0:x1]
    magnitude = np.hypot(cv2.Sobel(patch, cv2.CV_32F, 1, 0), cv2.Sobel(patch, cv2.CV_32F, 0, 1)) / 4.0
    magnitude = np.asarray(cv2.dilate(magnitude, np.ones((3, 3), np.uint8)))
    on_outline = magnitude[points[:, 1] - y0, points[:, 0] - x0]
    return bool(np.median(on_outline) >= _SHARP_OUTLINE)


def _elongation(contour: np.ndarray) -> float:
    short, long = sorted(cv2.minAreaRect(contour)[1])
    return float(long / max(short, 1.0))


def _trim_side(tile: FoundTile, size: TileSize, centre: np.ndarray) -> FoundTile:
    """Cut off the tile's side, which the camera sees on the edge facing the image centre."""
    corners = tile.corners.copy()
    for one, other, limit in (([0, 1], [3, 2], size.height), ([0, 3], [1, 2], size.width)):
        length = float(np.linalg.norm(corners[one].mean(axis=0) - corners[other].mean(axis=0)))
        if length <= _SIDE_TRIM * limit:
            continue
        one_nearer = np.linalg.norm(corners[one].mean(axis=0) - centre) < np.linalg.norm(
            corners[other].mean(axis=0) - centre
        )
        near, far = (one, other) if one_nearer else (other, one)
        corners[near] = corners[far] + (corners[near] - corners[far]) * (limit / length)
    return FoundTile(corners, tile.sideways)


def _inside(corners: np.ndarray, width: int, height: int) -> bool:
    """A tile cut by the frame's edge is not a tile we can read."""
    return bool(
        np.all(corners >= _BORDER_PX)
        and np.all(corners[:, 0] <= width - 1 - _BORDER_PX)
        and np.all(corners[:, 1] <= height - 1 - _BORDER_PX)
    )


def _split_blob(gray: np.ndarray, contour: np.ndarray, size: TileSize) -> list[FoundTile]:
    crop, mask, from_crop = _upright_crop(gray, contour)
    tiles = []
    for quad, sideways in _split_region(crop, mask, size):
        image_quad = cv2.transform(quad[None, :, :], from_crop)[0]
        tiles.append(FoundTile(image_quad.astype(np.float32), sideways))
    return tiles


def _upright_crop(gray: np.ndarray, contour: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The blob turned upright in its minimum-area rectangle: grey crop, blob mask, and the
    affine map from crop back to image pixels."""
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
    crop_w, crop_h = int(np.ceil(rw)) + 2 * _MARGIN, int(np.ceil(rh)) + 2 * _MARGIN
    # Turn the blob's rectangle upright, then move its centre to the crop's centre.
    to_crop = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    to_crop[:, 2] += np.array([crop_w / 2 - cx, crop_h / 2 - cy])
    blob_mask = np.zeros(gray.shape, np.uint8)
    cv2.drawContours(blob_mask, [contour], -1, 255, thickness=cv2.FILLED)
    mask = cv2.warpAffine(blob_mask, to_crop, (crop_w, crop_h), flags=cv2.INTER_NEAREST)
    crop = cv2.warpAffine(gray, to_crop, (crop_w, crop_h), flags=cv2.INTER_LINEAR)
    return np.asarray(crop), np.asarray(mask), np.asarray(cv2.invertAffineTransform(to_crop))


def _split_region(gray: np.ndarray, mask: np.ndarray, size: TileSize) -> list[tuple[np.ndarray, bool]]:
    """Pieces of an upright crop as (quad in crop pixels, sideways)."""
    bounds = _bounds(mask)
    if bounds is None:
        return []
    x0, y0, x1, y1 = bounds
    gray, mask = gray[y0:y1, x0:x1], mask[y0:y1, x0:x1]
    h, w = mask.shape
    offset = np.array([x0, y0], np.float32)
    if _is_single(w, h, size):
        return [(_portrait_quad(0, 0, w, h) + offset, False)]
    if h <= _ROW_SLACK * size.height and w > h:
        return [(q + offset, s) for q, s in _split_row(gray, mask, size)]
    if w <= _ROW_SLACK * size.height:
        return [(_transposed(q) + offset, s) for q, s in _split_row(gray.T, mask.T, size)]
    # Several rows stuck together (a pond): cut into rows across whichever axis has the
    # stronger full-length seams, then split each row.
    along_x = _strips(gray, mask, size)
    along_y = _strips(gray.T, mask.T, size)
    if len(along_x[1]) < 2 and len(along_y[1]) < 2:
        # No row structure found: treat the blob as one row along its long side.
        if w >= h:
            return [(q + offset, s) for q, s in _split_row(gray, mask, size)]
        return [(_transposed(q) + offset, s) for q, s in _split_row(gray.T, mask.T, size)]
    if len(along_y[1]) < 2 or (len(along_x[1]) >= 2 and along_x[0] >= along_y[0]):
        along_x = (np.inf, along_x[1])
    pieces: list[tuple[np.ndarray, bool]] = []
    if along_x[0] >= along_y[0]:
        for start, end in along_x[1]:
            pieces += [(q + offset + (0, start), s) for q, s in _split_region(gray[start:end], mask[start:end], size)]
    else:
        for start, end in along_y[1]:
            sub = _split_region(gray[:, start:end], mask[:, start:end], size)
            pieces += [(q + offset + (start, 0), s) for q, s in sub]
    return pieces


def _strips(gray: np.ndarray, mask: np.ndarray, size: TileSize) -> tuple[float, list[tuple[int, int]]]:
    """Cut a crop into horizontal strips a tile high; returns the mean seam score and the strips.

    Rows in a pond are as high as a tile (the outermost one a little more, with its side), so
    the crop is split evenly into a whole number of rows and each cut moves to the strongest
    seam nearby; the number of rows whose seams are strongest wins.
    """
    profile = seam_profile(gray.T, mask.T)
    length = len(profile)
    best: tuple[float, list[tuple[int, int]]] = (-np.inf, [(0, length)])
    radius = max(1, int(0.2 * size.height))
    for rows in range(max(2, int(length / (1.4 * size.height))), int(length / (0.9 * size.height)) + 1):
        step = length / rows
        cuts = [_strongest_near(profile, round(k * step), radius) for k in range(1, rows)]
        misfit = abs(step / size.height - 1.05)
        score = float(np.mean(profile[cuts])) - _ROW_MISFIT * misfit
        if score > best[0]:
            bounds = [0, *cuts, length]
            best = (score, [(a, b) for a, b in itertools.pairwise(bounds) if b > a])
    return best


def _strongest_near(profile: np.ndarray, position: int, radius: int) -> int:
    low, high = max(position - radius, 1), min(position + radius + 1, len(profile) - 1)
    return low + int(np.argmax(profile[low:high])) if high > low else position


def _split_row(gray: np.ndarray, mask: np.ndarray, size: TileSize) -> list[tuple[np.ndarray, bool]]:
    profile = seam_profile(gray, mask)
    pieces = []
    for start, end, sideways in cut_row(profile, _fullness(mask, size), size):
        column = mask[:, start:end] > 0
        rows = np.flatnonzero(column.mean(axis=1) >= _MIN_FILL)
        if len(rows) == 0:
            continue
        top, bottom = int(rows[0]), int(rows[-1]) + 1
        quad = _portrait_quad(start, top, end, bottom)
        pieces.append((quad if sideways == (end - start > bottom - top) else _quarter_turned(quad), sideways))
    return pieces


def _fullness(mask: np.ndarray, size: TileSize) -> np.ndarray:
    """Per column, how much of a tile's height the row's band holds there: 1 for an upright
    tile, width/height where a sideways tile leaves a notch in either edge of the band.

    Measured as the inward step of either edge from its usual place, so the side the camera
    sees along one edge of the whole row does not count.
    """
    filled = mask > 0
    present = filled.any(axis=0)
    if not present.any():
        return np.ones(mask.shape[1], np.float32)
    top = np.where(present, filled.argmax(axis=0), mask.shape[0])
    bottom = np.where(present, mask.shape[0] - filled[::-1].argmax(axis=0), 0)
    usual_top = float(np.median(top[present]))
    usual_bottom = float(np.median(bottom[present]))
    notch = np.maximum(top - usual_top, usual_bottom - bottom).clip(0, None)
    return np.asarray(1.0 - notch / size.height, np.float32).clip(0.0, 1.0)


def _quarter_turned(quad: np.ndarray) -> np.ndarray:
    """The same box read with the other pair of edges upright (a sideways tile whose side makes
    it look squarer than it is)."""
    return np.roll(quad, 1, axis=0)


def _portrait_quad(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """Corners with the long edges upright: a landscape box is read turned a quarter clockwise."""
    if x1 - x0 <= y1 - y0:
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    return np.array([[x0, y1], [x0, y0], [x1, y0], [x1, y1]], np.float32)


def _transposed(quad: np.ndarray) -> np.ndarray:
    # Swapping x and y mirrors the quad; reversing the order keeps it turning the same way.
    swapped = quad[:, ::-1]
    return _portrait_quad(*swapped.min(axis=0), *swapped.max(axis=0))


def _is_single(w: int, h: int, size: TileSize) -> bool:
    short, long = sorted((w, h))
    low, high = _SINGLE_SLACK
    return low * size.width <= short <= high * size.width and low * size.height <= long <= high * size.height


def _bounds(mask: np.ndarray) -> tuple[int, int, int, int] | None:
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return None
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1
