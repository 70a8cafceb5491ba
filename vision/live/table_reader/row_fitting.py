"""A seat's rows fitted to the felt mask, and faces read uncertain cut again a little along their row.

The detector can lose a dense row's phase (a box on the seam of two faces reads one of them
surely, the other is lost) and places a face's centre a few pixels off, most at the table's
corners, where a tile's side shows along the row. Each row is fitted to its runs of touching
tile in the felt mask (``row_runs``); the ways a run may hold one or two faces more, or one
fewer, are read, and the surest kept.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

import numpy as np

from vision.classify.classifier import OnnxTileClassifier
from vision.classify.crops import turned_half
from vision.live.reading import Zone
from vision.live.table_reader.row_runs import laid_out, misfit, row_runs, ways
from vision.live.table_reader.seat_tiles import FaceScale, Piece, ZoneTile, frame_quad
from vision.live.table_reader.structure import ReadTile

_NUDGES: Final = (-1 / 3, -1 / 6, 1 / 6, 1 / 3)  # an uncertain face is also cut moved this much of its width
#: A face the row's run moves further than this many widths (along the row or across it: a cut
#: re-phased half a face across lands between two rows) is read again there.
_MOVED: Final = 0.15


@dataclass(frozen=True, eq=False)
class SeatRows:
    """One seat's rows: ``seat_to_frame`` maps its upright image to the frame, ``centre_u`` is
    the table centre's column in that image."""

    classifier: OnnxTileClassifier
    seat_to_frame: np.ndarray
    scale: FaceScale
    centre_u: float

    def fitted(self, image: np.ndarray, mask: np.ndarray, tiles: list[ReadTile]) -> list[ReadTile]:
        """The seat's read tiles with every row fitted to ``mask`` (the seat's upright felt
        mask) and each face still read uncertain nudged along its row."""
        return self._nudged_if_surer(image, self._fit_rows(image, mask, tiles))

    def _fit_rows(self, image: np.ndarray, mask: np.ndarray, tiles: list[ReadTile]) -> list[ReadTile]:
        """Every row but the added kans' fitted to its runs in the felt mask (``row_runs``): a run
        a face or two longer or shorter than its faces re-cut the surest way with more or fewer."""
        result = [t for t in tiles if t.found.zone == Zone.MELDS and t.found.row == 1]
        for zone in (Zone.POND, Zone.WALL, Zone.HAND, Zone.MELDS):
            rows = sorted({t.found.row for t in tiles if t.found.zone == zone})
            for row in rows if zone != Zone.MELDS else [0]:
                members = [t for t in tiles if t.found.zone == zone and t.found.row == row]
                if members:
                    result += self._fit_row(image, mask, members)
        return result

    def _fit_row(self, image: np.ndarray, mask: np.ndarray, tiles: list[ReadTile]) -> list[ReadTile]:
        pieces = [t.found.piece for t in tiles]
        melds = tiles[0].found.zone == Zone.MELDS
        # Pond rows begin at a line (a riichi tile against the centre side), meld rows end at one.
        top = (
            float(np.median([p.bottom for p in pieces])) - self.scale.height
            if melds
            else float(np.median([p.top for p in pieces]))
        )
        fitted: list[ReadTile | None] = list(tiles)
        for run in row_runs(mask, top, pieces, self.scale):
            turned = [pieces[i].sideways for i in run.members]
            extra = misfit(run, pieces, self.scale)
            options = [
                laid_out(run, way, top, self.scale, self.centre_u, owner_side=melds) for way in ways(turned, extra)
            ]
            if not options:
                continue
            if extra == 0:
                self._moved_if_surer(image, tiles, list(zip(run.members, options[0], strict=True)), fitted=fitted)
                continue
            best = self._surest_way(image, options)
            if best is None:
                continue  # no way reads surely: the run's length misled (a tile's side, blur)
            template = tiles[run.members[0]].found
            for i in run.members:
                fitted[i] = None
            fitted += [replace(t, found=replace(template, piece=t.found.piece)) for t in best]
        return [t for t in fitted if t is not None]

    def _moved_if_surer(
        self,
        image: np.ndarray,
        tiles: list[ReadTile],
        placed: list[tuple[int, Piece]],
        *,
        fitted: list[ReadTile | None],
    ) -> None:
        """A run whose count fits: each face moved where the run lays it (across, to the row's
        band); one moved further than ``_MOVED`` of a face's width is read again there, and the
        surer reading kept."""
        moved = [
            (i, face)
            for i, face in placed
            if abs(face.centre_u - tiles[i].found.piece.centre_u) > _MOVED * self.scale.width
            or abs(face.centre_v - tiles[i].found.piece.centre_v) > _MOVED * self.scale.width
        ]
        again = dict(zip((i for i, _ in moved), self._read_faces(image, [f for _, f in moved]), strict=True))
        for i, face in placed:
            tile = tiles[i]
            other = again.get(i)
            if other is not None and other.reading.confidence > tile.reading.confidence:
                fitted[i] = replace(other, found=replace(tile.found, piece=face))
            else:
                fitted[i] = ReadTile(replace(tile.found, piece=face), tile.reading, tile.quad)

    def _nudged_if_surer(self, image: np.ndarray, tiles: list[ReadTile]) -> list[ReadTile]:
        """A face read as uncertain may be cut a little out of phase with its row (a tile's side
        at the table's corner, a centre the detector placed off): it is also cut moved along its
        row by a sixth and a third of its width each way, and the surest cut kept when it is no
        longer uncertain. (The classifier is trained to call a crop half on another tile
        uncertain, so a shift onto the neighbour does not read surely.)"""
        unsure = [i for i, t in enumerate(tiles) if t.reading.uncertain]
        moves = [
            (i, replace(tiles[i].found.piece, left=piece.left + shift * length, right=piece.right + shift * length))
            for i in unsure
            for piece in [tiles[i].found.piece]
            for length in [piece.right - piece.left]
            for shift in _NUDGES
        ]
        result = list(tiles)
        for (i, face), other in zip(moves, self._read_faces(image, [f for _, f in moves]), strict=True):
            if not other.reading.uncertain and other.reading.confidence > result[i].reading.confidence:
                result[i] = replace(other, found=replace(tiles[i].found, piece=face))
        return result

    def _surest_way(self, image: np.ndarray, options: list[list[Piece]]) -> list[ReadTile] | None:
        """The way whose faces read surest (mean log confidence), if none of them reads uncertain."""
        read = iter(self._read_faces(image, [face for faces in options for face in faces]))
        scored = []
        for faces in options:
            tiles = [next(read) for _ in faces]
            scored.append((float(np.mean([np.log(max(t.reading.confidence, 1e-6)) for t in tiles])), tiles))
        _, best = max(scored, key=lambda item: item[0])
        return None if any(t.reading.uncertain for t in best) else best

    def _read_faces(self, image: np.ndarray, faces: list[Piece]) -> list[ReadTile]:
        """Faces of a seat's image cut from the frame and read (zone and row left for the caller)."""
        if not faces:
            return []
        quads = [frame_quad(face, self.seat_to_frame) for face in faces]
        readings = self.classifier.classify_quads(image, quads)
        return [
            ReadTile(ZoneTile(Zone.POND, 0, face), reading, turned_half(quad) if reading.upside_down else quad)
            for face, reading, quad in zip(faces, readings, quads, strict=True)
        ]
