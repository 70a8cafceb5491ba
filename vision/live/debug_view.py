"""The watch command's debug picture of one frame: the top-down view, each seat's zones
outlined (occluded ones shaded), and what the reader read in each zone written beside it.

A ``TableReading`` says what lies in each zone, not where each tile lies, so tiles are listed
per zone (``*`` a sideways tile, ``?`` one the classifier was unsure of, ``#`` a face-down one).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.calibration.calibration import Calibration
from vision.calibration.zones import Polygon, SeatZones, seat_zones
from vision.live.reading import SeatReading, SeenMeld, SeenTile, TableReading, Zone

SEAT_COLOURS = ((60, 200, 60), (60, 60, 230), (230, 160, 40), (40, 200, 230))  # BGR, seats 0-3
_SHADE = (90, 90, 90)
_FONT = cv2.FONT_HERSHEY_SIMPLEX


def tile_text(seen: SeenTile) -> str:
    name = "#" if seen.face_down else str(seen.tile)
    return name + ("*" if seen.sideways else "") + ("?" if seen.uncertain else "")


def _meld_text(meld: SeenMeld) -> str:
    added = "" if meld.added is None else "+" + tile_text(meld.added)
    return "[" + "".join(tile_text(t) for t in meld.tiles) + added + "]"


def _zone_texts(seat: SeatReading) -> dict[Zone, str]:
    hand = " ".join(tile_text(t) for t in seat.open_hand)
    if seat.winning is not None:
        hand += " | " + tile_text(seat.winning)
    return {
        Zone.POND: " ".join(tile_text(t) for t in seat.pond),
        Zone.MELDS: " ".join(_meld_text(m) for m in seat.melds),
        Zone.HAND: hand,
    }


def _polygon(points: Polygon) -> np.ndarray:
    return np.round(np.asarray(points)).astype(np.int32).reshape(-1, 1, 2)


def _write(view: np.ndarray, text: str, at: tuple[int, int], colour: tuple[int, int, int], width: int = 0) -> None:
    """``text`` from ``at`` (its first baseline), wrapped to ``width`` pixels (at least 160) and kept in the view."""
    if not text:
        return
    width = max(width, 160)
    lines: list[str] = []
    for word in text.split(" "):
        if lines and cv2.getTextSize(lines[-1] + " " + word, _FONT, 0.4, 1)[0][0] <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    for number, line in enumerate(lines):
        size = cv2.getTextSize(line, _FONT, 0.4, 1)[0][0]
        x = min(max(at[0], 2), view.shape[1] - size - 2)
        y = min(max(at[1] + 14 * number, 12), view.shape[0] - 4)
        cv2.putText(view, line, (x, y), _FONT, 0.4, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(view, line, (x, y), _FONT, 0.4, colour, 1, cv2.LINE_AA)


def debug_view(image: np.ndarray, calibration: Calibration, reading: TableReading) -> np.ndarray:
    view = calibration.warp(image).copy()
    zones = seat_zones(calibration.table, calibration.tile)
    shade = view.copy()
    for seat, seen in zip(zones, reading.seats, strict=True):
        occluded = {Zone.POND: seat.pond, Zone.MELDS: seat.melds, Zone.HAND: seat.open_hand, Zone.WALL: seat.dora}
        for zone in seen.occluded:
            cv2.fillPoly(shade, [_polygon(occluded[zone])], _SHADE)
    view = cv2.addWeighted(shade, 0.5, view, 0.5, 0)
    for seat, seen in zip(zones, reading.seats, strict=True):
        _draw_seat(view, seat, seen)
    dora = "dora " + " ".join(tile_text(t) for t in reading.dora) + (" (occluded)" if reading.dora_occluded else "")
    if reading.ura:
        dora += "   ura " + " ".join(tile_text(t) for t in reading.ura)
    _write(view, dora, (6, 16), (255, 255, 255))
    _write(view, f"t {reading.at:.3f}", (6, view.shape[0] - 8), (255, 255, 255))
    return view


def _draw_seat(view: np.ndarray, zones: SeatZones, seen: SeatReading) -> None:
    colour = SEAT_COLOURS[zones.seat]
    texts = _zone_texts(seen)
    for zone, polygon in ((Zone.POND, zones.pond), (Zone.MELDS, zones.melds), (Zone.HAND, zones.open_hand)):
        outline = _polygon(polygon)
        cv2.polylines(view, [outline], isClosed=True, color=colour, thickness=1)
        left, top = outline.reshape(-1, 2).min(axis=0)
        right = outline.reshape(-1, 2)[:, 0].max()
        label = f"{zones.seat}:{zone.value} {texts[zone]}"
        _write(view, label, (int(left) + 3, int(top) + 14), colour, int(right - left) - 6)
    cv2.polylines(view, [_polygon(zones.dora)], isClosed=True, color=colour, thickness=1, lineType=cv2.LINE_4)
