"""The vision pipeline on its own thread: real frame sources (a folder of frames, the rendered
fake camera), a stand-in reader, the real tracker, observations posted into a list."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from table_app.domain.notation import parse_tiles
from table_app.domain.seat import Seat
from table_app.observations import CameraLost, CameraRestored, DoraRevealed, MeldAppeared, PondTileAdded
from tests.vision.layout_reading import layout_reading
from vision.live.pipeline import HealthRelay, VisionSource, open_camera_pipeline
from vision.live.reading import SeatReading, SeenTile, TableReading
from vision.live.tracking import Tracker
from vision.render.layout import MeldLayout, PondLayout, SeatLayout, TableLayout
from vision.render.renderer import RenderOptions
from vision.sources.directory_source import DirectorySource
from vision.sources.frame import CameraFrame
from vision.sources.rendered_source import RenderedSource

TILES = parse_tiles("1m2m3m4m5m6m7m8m9m")
SMALL = RenderOptions(size=(320, 240), px_per_mm=(0.35, 0.4), effects=False)


class Posted:
    """What the pipeline posted, and a way to wait for it."""

    def __init__(self) -> None:
        self.items: list = []
        self._lock = threading.Lock()

    def __call__(self, observation) -> None:
        with self._lock:
            self.items.append(observation)


def pond_from_pixel(frame: CameraFrame) -> TableReading:
    """A stand-in reader: the frame's first pixel says how many tiles seat 0's pond holds."""
    count = int(frame.image[0, 0, 0]) // 10
    pond = tuple(SeenTile(t, 0.9) for t in TILES[:count])
    return TableReading(frame.timestamp, (SeatReading(pond), SeatReading(), SeatReading(), SeatReading()))


def write_frames(folder: Path, counts: list[int | None]) -> Path:
    """One PNG per entry (``None``: a corrupt file, the camera failing on that frame)."""
    for index, count in enumerate(counts):
        path = folder / f"frame-{index}.png"
        if count is None:
            path.write_bytes(b"not an image")
            continue
        image = np.zeros((8, 8, 3), np.uint8)
        image[0, 0, 0] = 10 * count
        assert cv2.imwrite(str(path), image)
    return folder


def run_to_the_end(source: VisionSource) -> Posted:
    posted = Posted()
    source.start(posted)
    assert source.wait(30.0), "the pipeline did not finish its finite source"
    source.stop()
    return posted


def test_frames_from_a_folder_become_observations_and_a_broken_frame_a_lost_camera(tmp_path):
    health = HealthRelay()
    frames = DirectorySource(write_frames(tmp_path, [0, 1, 1, 2, None, 3, 3]), report=health)
    source = VisionSource(frames, pond_from_pixel, Tracker(), health=health)
    posted = run_to_the_end(source)
    kinds = [type(o).__name__ for o in posted.items]
    assert kinds == ["PondTileAdded", "CameraLost", "CameraRestored", "PondTileAdded", "PondTileAdded"]
    # Two tiles were seen for one frame only before the loss: not a run. After it, three tiles
    # held two frames: the two not yet reported follow, in order.
    assert [o.tile for o in posted.items if isinstance(o, PondTileAdded)] == list(TILES[:3])
    assert isinstance(posted.items[1], CameraLost)
    assert "frame-4.png" in posted.items[1].detail
    assert source.stats.frames == 6
    assert source.stats.unreadable == 0


def test_a_reader_failing_on_one_frame_is_logged_and_skipped(tmp_path, caplog):
    frames = DirectorySource(write_frames(tmp_path, [1, 1, 1, 2, 2]))
    failures = {2}
    calls = []

    def flaky(frame: CameraFrame) -> TableReading:
        calls.append(frame.timestamp)
        if len(calls) - 1 in failures:
            raise RuntimeError("classifier exploded")
        return pond_from_pixel(frame)

    source = VisionSource(frames, flaky, Tracker())
    with caplog.at_level(logging.ERROR, logger="vision.live.pipeline"):
        posted = run_to_the_end(source)
    assert [o.tile for o in posted.items] == [TILES[0], TILES[1]]
    assert source.stats.unreadable == 1
    assert source.stats.frames == 4
    (record,) = [r for r in caplog.records if "could not be read" in r.getMessage()]
    assert f"{calls[2]:.3f}" in record.getMessage()


def test_stats_give_the_reading_time(tmp_path):
    source = VisionSource(DirectorySource(write_frames(tmp_path, [0, 0, 1])), pond_from_pixel, Tracker())
    run_to_the_end(source)
    stats = source.stats
    assert stats.frames == 3
    assert stats.last_read_ms is not None
    assert stats.last_read_ms >= 0
    assert stats.mean_read_ms is not None
    assert stats.observations == 0  # one frame of 1 tile: nothing confirmed


def test_the_rendered_camera_dropping_frames_reports_lost_and_restored_and_nothing_twice():
    layout = TableLayout(
        (
            SeatLayout(PondLayout(parse_tiles("1z2z3z"), riichi_at=2)),
            SeatLayout(PondLayout(parse_tiles("9p")), melds=(MeldLayout(parse_tiles("456s"), 0),)),
            SeatLayout(PondLayout(())),
            SeatLayout(PondLayout(parse_tiles("7m"))),
        ),
        dora_indicators=parse_tiles("5z"),
    )
    health = HealthRelay()
    frames = RenderedSource(range(6), SMALL, layout=layout, dropped=frozenset({3}), report=health)
    source = VisionSource(frames, lambda frame: layout_reading(layout, frame.timestamp), Tracker(), health=health)
    posted = run_to_the_end(source)
    kinds = [type(o).__name__ for o in posted.items]
    assert kinds.count("PondTileAdded") == 5
    assert kinds.count("MeldAppeared") == 1
    assert kinds[-2:] == ["CameraLost", "CameraRestored"]  # after the gap nothing changed: nothing more
    assert posted.items[0] == DoraRevealed(pytest.approx(posted.items[0].at), parse_tiles("5z")[0])
    (meld,) = [o for o in posted.items if isinstance(o, MeldAppeared)]
    assert meld.turned_from == Seat.S0  # turned on the left: seat 1's kamicha


class EndlessCamera:
    """A live camera that keeps delivering the same empty table (never ends on its own)."""

    name = "endless"
    ended = False

    def __init__(self) -> None:
        self.clock = 0.0
        self.closed = False

    def read(self) -> CameraFrame | None:
        self.clock += 0.01
        image = np.zeros((4, 4, 3), np.uint8)
        image.flags.writeable = False
        return CameraFrame(image, self.clock)

    def close(self) -> None:
        self.closed = True


def test_stop_joins_the_thread_of_a_live_camera():
    camera = EndlessCamera()
    source = VisionSource(camera, pond_from_pixel, Tracker())
    source.start(Posted())
    assert not source.wait(0.2)  # still running
    source.stop()
    assert source.wait(0.0)
    assert camera.closed
    assert source.stats.frames > 0


def test_health_reported_before_the_start_is_posted_when_it_starts():
    relay = HealthRelay()
    relay(CameraLost(1.0, "unplugged"))
    source = VisionSource(EndlessCamera(), pond_from_pixel, Tracker(), health=relay)
    posted = Posted()
    source.start(posted)
    source.stop()
    assert posted.items[0] == CameraLost(1.0, "unplugged")
    relay(CameraRestored(2.0))
    assert posted.items[-1] == CameraRestored(2.0)


def test_a_pipeline_opened_by_source_name_reports_a_broken_frame_and_survives_a_failing_watcher(tmp_path):
    watched = []

    def watch(frame, reading, posted):
        watched.append(posted)
        raise OSError("disk full")  # the debug view could not be written: the pipeline goes on

    source = open_camera_pipeline(str(write_frames(tmp_path, [1, 1, None, 2, 2])), pond_from_pixel, watch=watch)
    posted = run_to_the_end(source)
    assert [type(o).__name__ for o in posted.items] == [
        "PondTileAdded",
        "CameraLost",
        "CameraRestored",
        "PondTileAdded",
    ]
    assert len(watched) == 4
