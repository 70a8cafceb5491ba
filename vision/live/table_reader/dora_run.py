"""The dora indicators lie face up in one run along one wall: a white dragon apart from it is a back.

Face-up tiles in the walls' top row are the dora indicators, turned one beside the other on
the dead wall: the first on its third stack, one more beside it for each kan, five at most. A
lamp's glare washes a face-down tile's coloured back out to the pale blank of the white
dragon's face, and the classifier reads it so, often as surely as a real one: on the bench's
rendered tables (``bench_table_reader``, 360 with camera effects) it was the commonest sure
wrong reading, and 17 of the 19 tables whose dora were read wrong showed such "white dragons"
in a wall (7 were read wrong with this check).

A white dragon cannot be an indicator where it lies apart from the run of face-up tiles that
bear marks (a back, a gap or another wall between): it is read as a back, uncertain, and the
white dragons that run holds are then called uncertain too (what washed the others out may
have washed them: on a bench table two backs beside the indicators read so). Where no
face-up tile of the walls bears marks, which white dragon is the indicator cannot be told: when
they lie in more than one run, every one is uncertain. A run longer than five loses the white
dragons at its ends. Only the white dragon: a face with marks read in a wall is something seen
there, and a washed-out back shows none.

Pure: the seats' wall tiles in, the same tiles (some read again) out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from vision.classify.labels import BACK_LABEL, WHITE_DRAGON_LABEL
from vision.live.table_reader.structure import ReadTile

#: Face-up tiles of one wall row whose faces lie this many face widths apart or less are in one
#: run: the wall's stacks touch (found up to a fifth of a width apart on the bench's frames), and
#: the break before the dead wall leaves about two thirds of a width.
ADJACENT: Final = 0.35
#: The most dora indicators a table shows: one, and one for each of four kans.
MOST_INDICATORS: Final = 5


def checked_walls(walls: Sequence[Sequence[ReadTile]], width: float) -> list[list[ReadTile]]:
    """``walls`` (each seat's tiles of the wall's top row, any order) with the white dragons
    that cannot be dora indicators read as uncertain backs, or called uncertain (see above);
    ``width``: a face's width in the units of the tiles' ``left`` and ``right``."""
    runs = [run for wall in walls for run in _face_up_runs(wall, width)]
    marked = [run for run in runs if any(_bears_marks(tile) for tile in run)]
    changed: dict[int, ReadTile] = {}
    if marked:
        kept = {id(tile) for run in marked for tile in _trimmed(run)}
        for run in runs:
            changed.update((id(t), _as_back(t)) for t in run if _blank(t) and id(t) not in kept)
        if changed:
            # The glare that washed those backs out may have washed these: doubted, not dropped.
            changed.update((id(t), _doubted(t)) for run in marked for t in run if _blank(t) and id(t) in kept)
    elif len(runs) > 1:
        changed.update((id(t), _doubted(t)) for run in runs for t in run if _blank(t))
    return [[changed.get(id(tile), tile) for tile in wall] for wall in walls]


def _face_up_runs(wall: Sequence[ReadTile], width: float) -> list[list[ReadTile]]:
    """The wall's face-up tiles in runs: touching, no face-down tile between."""
    runs: list[list[ReadTile]] = []
    run: list[ReadTile] = []
    for tile in sorted(wall, key=lambda t: t.found.piece.left):
        if tile.reading.face_down:
            run = []
            continue
        if run and tile.found.piece.left - run[-1].found.piece.right > ADJACENT * width:
            run = []
        if not run:
            runs.append(run)
        run.append(tile)
    return runs


def _trimmed(run: list[ReadTile]) -> list[ReadTile]:
    """The run less the white dragons at its ends while it is longer than a table can show."""
    start, end = 0, len(run)
    while end - start > MOST_INDICATORS and (_blank(run[start]) or _blank(run[end - 1])):
        if _blank(run[start]):
            start += 1
        else:
            end -= 1
    return run[start:end]


def _blank(tile: ReadTile) -> bool:
    return tile.reading.label == WHITE_DRAGON_LABEL


def _bears_marks(tile: ReadTile) -> bool:
    return not tile.reading.face_down and not tile.reading.uncertain and not _blank(tile)


def _as_back(tile: ReadTile) -> ReadTile:
    return replace(tile, reading=replace(tile.reading, label=BACK_LABEL, uncertain=True))


def _doubted(tile: ReadTile) -> ReadTile:
    return tile if tile.reading.uncertain else replace(tile, reading=replace(tile.reading, uncertain=True))
