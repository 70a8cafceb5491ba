"""Stand-ins for the vision pipeline's reader, tracker and loop (their own branches), to test the
demo's world on its own: a reader that reads every frame perfectly (the layout the world drew),
a tracker that posts each change once it has held for two frames, and the loop between them.
The lead swaps in ``vision.live.table_reader``, ``vision.live.tracking`` and ``vision.live.pipeline`` at merge.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from table_app.domain.seat import Relation, Seat
from table_app.observations import (
    DoraRevealed,
    HandLaidOpen,
    HandStarted,
    MeldAppeared,
    MeldExtended,
    Observation,
    PondTileAdded,
    PondTileRemoved,
    UraIndicatorsRevealed,
)
from table_app.runtime.ports import Post
from vision.calibration.calibration import Calibration
from vision.live.reading import SeatReading, SeenMeld, SeenTile, TableReading
from vision.render.layout import MeldLayout, TableLayout
from vision.sources.frame import CameraFrame
from vision.sources.game_source import RenderedGameSource


def perfect_reading(layout: TableLayout, at: float) -> TableReading:
    """What a flawless reader sees of ``layout``."""

    def seen(tile, sideways: bool = False) -> SeenTile:
        return SeenTile(tile, 1.0, sideways)

    def meld(m: MeldLayout) -> SeenMeld:
        tiles = tuple(
            SeenTile(t, 1.0, i == m.turned_at) if i not in m.face_down_at else SeenTile(_unknown(), 1.0)
            for i, t in enumerate(m.tiles)
        )
        return SeenMeld(tiles, m.turned_at, seen(m.added, True) if m.added is not None else None)

    seats = tuple(
        SeatReading(
            tuple(seen(t, i == s.pond.riichi_at) for i, t in enumerate(s.pond.tiles)),
            tuple(meld(m) for m in s.melds),
            tuple(seen(t) for t in s.open_hand),
            seen(s.winning) if s.winning is not None else None,
        )
        for s in layout.seats
    )
    return TableReading(
        at,
        (seats[0], seats[1], seats[2], seats[3]),
        tuple(seen(t) for t in layout.dora_indicators),
        tuple(seen(t) for t in layout.ura_indicators),
    )


def _unknown():
    from table_app.domain.tile import UNKNOWN

    return UNKNOWN


class PerfectReader:
    def __init__(self, world: RenderedGameSource, calibration: Calibration) -> None:
        self._world = world
        self.calibration = calibration

    def read(self, frame: CameraFrame) -> TableReading:
        return perfect_reading(self._world.layout_at(frame.timestamp), frame.timestamp)


_TURNED_FROM = {0: Relation.LEFT, 1: Relation.ACROSS}


class DiffTracker:
    """Posts what changed between confirmed readings; a reading is confirmed when two frames in
    a row agree. A cleared table is a new deal (``HandStarted``), as the real tracker does."""

    def __init__(self) -> None:
        self._confirmed = TableReading(0.0, (SeatReading(),) * 4)  # type: ignore[arg-type]
        self._candidate: tuple | None = None
        self._count = 0

    def update(self, reading: TableReading) -> tuple[Observation, ...]:
        key = _content(reading)
        self._count = self._count + 1 if key == self._candidate else 1
        self._candidate = key
        if self._count != 2 or key == _content(self._confirmed):
            return ()
        before, self._confirmed = self._confirmed, reading
        return _changes(before, reading)


def _content(reading: TableReading) -> tuple:
    return (reading.seats, reading.dora, reading.ura)


def _changes(before: TableReading, after: TableReading) -> tuple[Observation, ...]:
    at = after.at
    cleared = not any(s.pond or s.melds or s.open_hand for s in after.seats) and not after.dora
    if cleared:
        return (HandStarted(at),)
    out: list[Observation] = []
    for seat, (old, new) in enumerate(zip(before.seats, after.seats, strict=True)):
        for meld in new.melds[len(old.melds) :]:
            tiles = tuple(t.tile for t in meld.tiles)
            if meld.turned_at is None:
                out.append(MeldAppeared(at, Seat(seat), tiles, None, None))
                continue
            relation = _TURNED_FROM.get(meld.turned_at, Relation.RIGHT)  # the rightmost: from the right
            target = Seat((seat + relation) % 4)
            out.append(MeldAppeared(at, Seat(seat), tiles, tiles[meld.turned_at], target))
        for old_meld, new_meld in zip(old.melds, new.melds, strict=False):
            if old_meld.added is None and new_meld.added is not None:
                out.append(MeldExtended(at, Seat(seat), new_meld.added.tile))
    for seat, (old, new) in enumerate(zip(before.seats, after.seats, strict=True)):
        if len(new.pond) < len(old.pond):
            out.append(PondTileRemoved(at, Seat(seat), old.pond[-1].tile))
    for seat, (old, new) in enumerate(zip(before.seats, after.seats, strict=True)):
        for tile in new.pond[len(old.pond) :]:
            out.append(PondTileAdded(at, Seat(seat), tile.tile, tile.sideways))
    new_hand = not before.dora
    for tile in after.dora[0 if new_hand else len(before.dora) :]:
        out.append(DoraRevealed(at, tile.tile))
    if after.ura and not before.ura:
        out.append(UraIndicatorsRevealed(at, tuple(t.tile for t in after.ura)))
    for seat, (old, new) in enumerate(zip(before.seats, after.seats, strict=True)):
        if new.open_hand and not old.open_hand:
            winning = new.winning.tile if new.winning is not None else None
            tiles = tuple(t.tile for t in new.open_hand) + ((winning,) if winning is not None else ())
            out.append(HandLaidOpen(at, Seat(seat), tiles, winning))
    return tuple(out)


class LoopPipeline:
    """Frames → read → tracker → post, on its own thread, until the source ends."""

    def __init__(self, frames: RenderedGameSource, read: Callable[[CameraFrame], TableReading], tracker: DiffTracker):
        self._frames = frames
        self._read = read
        self._tracker = tracker
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.frames_read = 0

    def start(self, post: Post) -> None:
        self._thread = threading.Thread(target=self._run, args=(post,), name="standin vision", daemon=True)
        self._thread.start()

    def _run(self, post: Post) -> None:
        while not self._stop.is_set():
            frame = self._frames.read()
            if frame is None:
                if self._frames.ended:
                    return
                continue
            self.frames_read += 1
            for observation in self._tracker.update(self._read(frame)):
                post(observation)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5.0)


def standin_pipeline(world: RenderedGameSource, calibration: Calibration) -> LoopPipeline:
    return LoopPipeline(world, PerfectReader(world, calibration).read, DiffTracker())
