"""A seat's rows fitted to the felt mask, and faces read uncertain cut again a little along their row.

The detector can lose a dense row's phase (a box on the seam of two faces reads one of them
surely, the other is lost) and places a face's centre a few pixels off, most at the table's
corners, where a tile's side shows along the row. Each row is fitted to its runs of touching
tile in the felt mask (``row_runs``); the ways a run may hold one or two faces more, or one
fewer, are read, and the surest kept.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, replace
from typing import Final

import numpy as np

from vision.classify.crops import turned_half
from vision.detect.tile_lie import QuadReader
from vision.live.reading import Zone
from vision.live.table_reader.row_runs import (
    Run,
    doubled,
    laid_out,
    last_set_apart,
    misfit,
    row_runs,
    set_apart,
    ways,
    ways_turned_upright,
)
from vision.live.table_reader.seat_tiles import MELD_GAP, FaceScale, Piece, ZoneTile, added_beside, frame_quads
from vision.live.table_reader.structure import WINNING_GAP, ReadTile

_NUDGES: Final = (-1 / 3, -1 / 6, 1 / 6, 1 / 3)  # an uncertain face is also cut moved this much of its width
#: A face the row's run moves further than this many widths (along the row or across it: a cut
#: re-phased half a face across lands between two rows) is read again there.
_MOVED: Final = 0.15
#: An open hand's last face this many face widths (low, high) from the one before lies apart:
#: the winning tile (``structure.WINNING_GAP`` is the low end). A face's width or more apart, a
#: face the detector missed lies between them.
_SET_APART: Final = (WINNING_GAP, 0.75)
#: Two faces of the meld row this many face widths (low, high) apart lie in two melds (the low
#: end is where ``seat_tiles.meld_groups`` starts a new meld); a face's width or more apart, a
#: face the detector missed lies between them.
_MELDS_APART: Final = (MELD_GAP, 0.75)


@dataclass(frozen=True, slots=True)
class _RunPlan:
    """One run of a row: the ways its faces may lie (one, as they are, when its count fits)."""

    run: Run
    options: list[list[Piece]]
    fits: bool
    moved: list[tuple[int, Piece]]  # fits: the faces moved past ``_MOVED``, read again where they land


@dataclass(frozen=True, slots=True)
class _RowPlan:
    tiles: list[ReadTile]
    runs: list[_RunPlan]
    turned: list[tuple[int, Piece]]  # a meld row's faces turned sideways beside added tiles (``_turned_beside``)


@dataclass(frozen=True, eq=False)
class RowsPlan:
    """A seat's rows laid out against its felt mask, before any face is read again:
    :meth:`faces` says what the fitting will read, for the caller to read every seat's in one
    batch (:meth:`vision.classify.frame_readings.FrameReadings.read_ahead`)."""

    kept: list[ReadTile]  # the added kans' tiles: not fitted
    rows: list[_RowPlan]

    def faces(self) -> list[Piece]:
        return [face for row in self.rows for _, face in row.turned] + [
            face
            for row in self.rows
            for run in row.runs
            for face in ([f for _, f in run.moved] if run.fits else [f for faces in run.options for f in faces])
        ]


@dataclass(frozen=True, eq=False)
class SeatRows:
    """One seat's rows: ``seat_to_frame`` maps its upright image to the frame, ``centre_u`` is
    the table centre's column in that image.

    The fitting reads faces in two steps, each a batch for all seats: the rows' ways
    (:meth:`planned`, then :meth:`fitted`), then the nudges of the faces still uncertain
    (:meth:`nudges`, then :meth:`nudged`). ``reader`` is the frame's readings
    (:class:`vision.classify.frame_readings.FrameReadings`): what was read ahead is not read again."""

    seat_to_frame: np.ndarray
    scale: FaceScale
    centre_u: float

    def planned(self, mask: np.ndarray, tiles: list[ReadTile]) -> RowsPlan:
        """Every row but the added kans' laid out against its runs in ``mask`` (the seat's
        upright felt mask, ``row_runs``): a run a face or two longer or shorter than its faces
        is laid out each way with more or fewer, one whose count fits with its faces moved."""
        kept = [t for t in tiles if t.found.zone == Zone.MELDS and t.found.row == 1]
        # An added kan's tile lies sideways; a gap's cut in the added row read unsurely is no tile.
        added = [t.found.piece for t in kept if t.found.piece.sideways and not t.reading.uncertain]
        rows = []
        for zone in (Zone.POND, Zone.WALL, Zone.HAND, Zone.MELDS):
            numbers = sorted({t.found.row for t in tiles if t.found.zone == zone})
            for row in numbers if zone != Zone.MELDS else [0]:
                members = [t for t in tiles if t.found.zone == zone and t.found.row == row]
                if members:
                    rows.append(self._row_plan(mask, members, added if zone == Zone.MELDS else []))
        return RowsPlan(kept, rows)

    def quads(self, faces: list[Piece]) -> list[np.ndarray]:
        """The faces' quads in the frame, as they are cut to be read."""
        return frame_quads(faces, self.seat_to_frame)

    def fitted(self, image: np.ndarray, reader: QuadReader, plan: RowsPlan) -> list[ReadTile]:
        """The seat's read tiles with every row fitted as ``plan`` laid it out: a way that reads
        surer taken, a moved face's reading where it lands kept when surer."""
        result = list(plan.kept)
        for row in plan.rows:
            result += self._fitted_row(image, reader, row)
        return result

    def _row_plan(self, mask: np.ndarray, tiles: list[ReadTile], added: list[Piece]) -> _RowPlan:
        """One row's plan; ``added``: a meld row's added kans' tiles, each of which lies beside
        its meld's turned tile (``_turned_beside``)."""
        pieces = [self._turned_beside(t.found.piece, added) for t in tiles]
        melds = tiles[0].found.zone == Zone.MELDS
        # Pond rows begin at a line (a riichi tile against the centre side), meld rows end at one.
        top = (
            statistics.median([p.bottom for p in pieces]) - self.scale.height
            if melds
            else statistics.median([p.top for p in pieces])
        )
        found_runs = row_runs(mask, top, pieces, self.scale)
        if tiles[0].found.zone == Zone.HAND:
            # The winning tile lies half a face apart: keep the gap the faces show, bridged or not.
            found_runs = [part for run in found_runs for part in last_set_apart(run, pieces, self.scale, _SET_APART)]
        if melds:
            # So do the melds, apart by more than their faces' gaps (``seat_tiles.MELD_GAP``),
            # where the run fits: its faces are then only moved, evenly, which would spread the
            # gap. A run a face short is laid out and read afresh whole, way by way: cut at a
            # gap, a part ends where its last face was found, and a face put in lands off its tile.
            found_runs = [part for run in found_runs for part in self._melds_apart(run, pieces)]
        sure = [not t.reading.uncertain for t in tiles]
        runs = []
        for run in found_runs:
            turned = [pieces[i].sideways for i in run.members]
            extra = misfit(run, pieces, self.scale)
            if extra < 0 and not doubled(run, pieces, self.scale) and all(sure[i] for i in run.members):
                continue  # faces read surely side by side are all there: the mask is short, not the faces many
            all_ways = ways(turned, extra)
            if extra > 0:
                doubtful = [not sure[i] for i in run.members]
                all_ways += [w for w in ways_turned_upright(run, pieces, self.scale, doubtful) if w not in all_ways]
            options = [laid_out(run, way, top, self.scale, self.centre_u, owner_side=melds) for way in all_ways]
            if not options:
                continue
            moved = self._moved(pieces, list(zip(run.members, options[0], strict=True))) if extra == 0 else []
            runs.append(_RunPlan(run, options, extra == 0, moved))
        beside = [
            (i, piece)
            for i, (piece, tile) in enumerate(zip(pieces, tiles, strict=True))
            if piece is not tile.found.piece
        ]
        return _RowPlan(tiles, runs, beside)

    def _turned_beside(self, piece: Piece, added: list[Piece]) -> Piece:
        """A meld row's face with an added kan's tile beside it (across the row, towards the
        centre) is the meld's called tile, turned: sideways, along the added tile, whatever
        the judge said (a white dragon's blank face shows no way up, and found upright it
        leaves a gap beside it that parts its meld in the wrong place)."""
        tile = None if piece.sideways else added_beside(piece, added, self.scale)
        if tile is None:
            return piece
        return Piece(tile.left, tile.right, piece.bottom - self.scale.width, piece.bottom, True)

    def _melds_apart(self, run: Run, pieces: list[Piece]) -> list[Run]:
        """A meld row's run cut at the melds' gaps (``set_apart``) when its count fits."""
        if misfit(run, pieces, self.scale) != 0:
            return [run]
        return set_apart(run, pieces, self.scale, _MELDS_APART)

    def _fitted_row(self, image: np.ndarray, reader: QuadReader, row: _RowPlan) -> list[ReadTile]:
        tiles = self._turned_if_any(image, reader, row)
        fitted: list[ReadTile | None] = list(tiles)
        for plan in row.runs:
            if plan.fits:
                placed = list(zip(plan.run.members, plan.options[0], strict=True))
                self._moved_if_surer(image, reader, tiles, placed, plan.moved, fitted=fitted)
                continue
            best = self._surest_way(image, reader, plan.options)
            if best is None:
                continue  # no way reads surely: the run's length misled (a tile's side, blur)
            template = tiles[plan.run.members[0]].found
            for i in plan.run.members:
                fitted[i] = None
            fitted += [replace(t, found=replace(template, piece=t.found.piece)) for t in best]
        return [t for t in fitted if t is not None]

    def _turned_if_any(self, image: np.ndarray, reader: QuadReader, row: _RowPlan) -> list[ReadTile]:
        """The row's tiles, each face turned beside an added tile cut sideways and read again
        there, the surer reading kept (the face stays turned however its runs are fitted)."""
        tiles = list(row.tiles)
        again = self._read_faces(image, reader, [face for _, face in row.turned])
        for (i, face), other in zip(row.turned, again, strict=True):
            tile = tiles[i]
            surer = other if other.reading.confidence > tile.reading.confidence else tile
            tiles[i] = ReadTile(replace(tile.found, piece=face), surer.reading, surer.quad)
        return tiles

    def _moved(self, pieces: list[Piece], placed: list[tuple[int, Piece]]) -> list[tuple[int, Piece]]:
        """The faces of a run whose count fits that it moves (along the row or across it, to
        the row's band) further than ``_MOVED`` of a face's width, or lays otherwise, from where
        they are read before the row is fitted (``pieces``: as found, or turned beside an added
        tile, where ``_turned_if_any`` reads them)."""
        return [
            (i, face)
            for i, face in placed
            if abs(face.centre_u - pieces[i].centre_u) > _MOVED * self.scale.width
            or abs(face.centre_v - pieces[i].centre_v) > _MOVED * self.scale.width
            or face.sideways != pieces[i].sideways
        ]

    def _moved_if_surer(
        self,
        image: np.ndarray,
        reader: QuadReader,
        tiles: list[ReadTile],
        placed: list[tuple[int, Piece]],
        moved: list[tuple[int, Piece]],
        *,
        fitted: list[ReadTile | None],
    ) -> None:
        """A run whose count fits: each face moved where the run lays it; one moved further
        than ``_MOVED`` of a face's width is read again there, and the surer reading kept."""
        again = dict(zip((i for i, _ in moved), self._read_faces(image, reader, [f for _, f in moved]), strict=True))
        for i, face in placed:
            tile = tiles[i]
            other = again.get(i)
            # The face moved in its row and meld (built whole: dataclasses.replace costs more, a hundred a frame).
            found = ZoneTile(tile.found.zone, tile.found.row, face, tile.found.meld)
            if other is not None and other.reading.confidence > tile.reading.confidence:
                fitted[i] = ReadTile(found, other.reading, other.quad)
            else:
                fitted[i] = ReadTile(found, tile.reading, tile.quad)

    def nudges(self, tiles: list[ReadTile]) -> list[tuple[int, Piece]]:
        """A face read as uncertain may be cut a little out of phase with its row (a tile's
        side at the table's corner, a centre the detector placed off): it is also cut moved
        along its row by a sixth and a third of its width each way (each tile's index, and the
        face moved)."""
        return [
            (i, replace(piece, left=piece.left + shift * length, right=piece.right + shift * length))
            for i, tile in enumerate(tiles)
            if tile.reading.uncertain
            for piece in [tile.found.piece]
            for length in [piece.right - piece.left]
            for shift in _NUDGES
        ]

    def nudged(
        self, image: np.ndarray, reader: QuadReader, tiles: list[ReadTile], moves: list[tuple[int, Piece]]
    ) -> list[ReadTile]:
        """``tiles`` with each uncertain face's surest nudge (``moves``: :meth:`nudges` of
        ``tiles``) kept when it is no longer uncertain. (The classifier is trained to call a crop
        half on another tile uncertain, so a shift onto the neighbour does not read surely.)"""
        result = list(tiles)
        for (i, face), other in zip(moves, self._read_faces(image, reader, [f for _, f in moves]), strict=True):
            if not other.reading.uncertain and other.reading.confidence > result[i].reading.confidence:
                result[i] = replace(other, found=replace(tiles[i].found, piece=face))
        return result

    def _surest_way(self, image: np.ndarray, reader: QuadReader, options: list[list[Piece]]) -> list[ReadTile] | None:
        """The way whose faces read surest (mean log confidence), if none of them reads uncertain."""
        read = iter(self._read_faces(image, reader, [face for faces in options for face in faces]))
        scored = []
        for faces in options:
            tiles = [next(read) for _ in faces]
            scored.append((float(np.mean([np.log(max(t.reading.confidence, 1e-6)) for t in tiles])), tiles))
        _, best = max(scored, key=lambda item: item[0])
        return None if any(t.reading.uncertain for t in best) else best

    def _read_faces(self, image: np.ndarray, reader: QuadReader, faces: list[Piece]) -> list[ReadTile]:
        """Faces of a seat's image cut from the frame and read (zone and row left for the caller)."""
        if not faces:
            return []
        quads = self.quads(faces)
        readings = reader.classify_quads(image, quads)
        return [
            ReadTile(ZoneTile(Zone.POND, 0, face), reading, turned_half(quad) if reading.upside_down else quad)
            for face, reading, quad in zip(faces, readings, quads, strict=True)
        ]
