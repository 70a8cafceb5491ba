"""Frame sources: one contract run against the fake (rendered) and the real sources, then each one's own edges."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import cv2
import numpy as np
import pytest

from table_app.observations import CameraLost, CameraRestored
from vision.render.renderer import RenderOptions
from vision.sources.directory_source import DirectorySource
from vision.sources.frame import CameraFrame, FrameSource, iterate_frames
from vision.sources.open_source import open_source
from vision.sources.opencv_source import OpenCvSource, video_capture
from vision.sources.picamera2_source import CameraUnavailableError, Picamera2Source, running_on_pi
from vision.sources.rendered_source import RenderedSource

WIDTH, HEIGHT = 64, 48
SLOTS = 5  # frames each contract source is asked for
BROKEN_SLOT = 2  # the camera fails to deliver this one


def stopped_clock() -> float:
    """A clock that never moves: sources must still give strictly increasing timestamps."""
    return 100.0


def colour_image(slot: int) -> np.ndarray:
    image = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    image[:] = (40 * slot, 255 - 40 * slot, 128)
    return image


def write_video(path: Path, count: int) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (WIDTH, HEIGHT))
    assert writer.isOpened()
    for slot in range(count):
        writer.write(colour_image(slot))
    writer.release()
    return path


class FailingRead:
    """A real capture whose driver throws on one read (after the frame was taken off the device)."""

    def __init__(self, inner: object, fail_on: int, declared_frames: float | None = None) -> None:
        self._inner = inner
        self._fail_on = fail_on
        self._reads = 0
        self._declared = declared_frames

    def isOpened(self) -> bool:  # noqa: N802
        return bool(self._inner.isOpened())  # type: ignore[attr-defined]

    def read(self) -> tuple[bool, np.ndarray | None]:
        result = self._inner.read()  # type: ignore[attr-defined]
        self._reads += 1
        if self._reads - 1 == self._fail_on:
            raise RuntimeError("VIDIOC_DQBUF: No such device")
        return result  # type: ignore[no-any-return]

    def get(self, prop: int) -> float:
        if prop == cv2.CAP_PROP_FRAME_COUNT and self._declared is not None:
            return self._declared
        return float(self._inner.get(prop))  # type: ignore[attr-defined]

    def release(self) -> None:
        self._inner.release()  # type: ignore[attr-defined]


Report = Callable[[CameraLost | CameraRestored], None]


def opencv_with_driver_failure(tmp_path: Path, report: Report) -> FrameSource:
    video = write_video(tmp_path / "table.avi", SLOTS)
    return OpenCvSource(
        video,
        report=report,
        clock=stopped_clock,
        open_capture=lambda target: FailingRead(video_capture(target), BROKEN_SLOT),
    )


def directory_with_corrupt_file(tmp_path: Path, report: Report) -> FrameSource:
    for slot in range(SLOTS):
        path = tmp_path / f"frame-{slot}.png"
        if slot == BROKEN_SLOT:
            path.write_bytes(b"\x89PNG\r\n\x1a\n not really a png")
        else:
            cv2.imwrite(str(path), colour_image(slot))
    return DirectorySource(tmp_path, report=report, clock=stopped_clock)


def rendered_with_dropped_frame(tmp_path: Path, report: Report) -> FrameSource:
    options = RenderOptions(size=(WIDTH, HEIGHT), px_per_mm=(0.1, 0.12), effects=False)
    return RenderedSource(range(SLOTS), options, dropped=frozenset({BROKEN_SLOT}), report=report, clock=stopped_clock)


@pytest.mark.parametrize(
    "make_source",
    [opencv_with_driver_failure, directory_with_corrupt_file, rendered_with_dropped_frame],
    ids=["opencv-video", "directory", "rendered-fake"],
)
def test_frame_source_contract(tmp_path, make_source):
    reports: list[CameraLost | CameraRestored] = []
    source = make_source(tmp_path, reports.append)
    pauses: list[int] = []

    frames: list[CameraFrame] = []
    for frame in iterate_frames(source, pause=lambda: pauses.append(len(frames))):
        frames.append(frame)

    assert len(frames) == SLOTS - 1
    assert all(frame.image.shape == (HEIGHT, WIDTH, 3) and frame.image.dtype == np.uint8 for frame in frames)
    assert all(frame.size == (WIDTH, HEIGHT) for frame in frames)
    timestamps = [frame.timestamp for frame in frames]
    assert all(later > earlier for earlier, later in pairwise(timestamps))
    assert [type(report) for report in reports] == [CameraLost, CameraRestored]
    assert pauses == [BROKEN_SLOT]  # retried once, after the miss, before the next frame
    assert source.ended
    assert source.read() is None
    with pytest.raises(ValueError, match="read-only"):
        frames[0].image[0, 0] = 0
    source.close()


def test_video_frames_come_in_recorded_order(tmp_path):
    source = OpenCvSource(write_video(tmp_path / "order.avi", 4))
    greens = [int(frame.image[..., 1].mean()) for frame in iterate_frames(source)]
    assert greens == pytest.approx([255, 215, 175, 135], abs=6)


def test_video_file_that_ends_early_is_a_lost_camera(tmp_path):
    video = write_video(tmp_path / "cut.avi", 3)
    reports: list[CameraLost | CameraRestored] = []
    source = OpenCvSource(
        video,
        report=reports.append,
        open_capture=lambda target: FailingRead(video_capture(target), fail_on=-1, declared_frames=10),
    )
    assert len(list(iterate_frames(source, pause=lambda: None))) == 3
    assert source.ended
    assert len(reports) == 1
    assert isinstance(reports[0], CameraLost)
    assert "no frame came after 3 of 10 frames" in reports[0].detail


class UnpluggedCamera:
    """A USB camera whose first handle dies; a reopened one works."""

    opened = 0

    def __init__(self, index: int | str) -> None:
        UnpluggedCamera.opened += 1
        self._dead = UnpluggedCamera.opened == 1

    def isOpened(self) -> bool:  # noqa: N802
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        return (False, None) if self._dead else (True, colour_image(1))

    def get(self, prop: int) -> float:
        return 0.0

    def release(self) -> None:
        pass


def test_usb_camera_is_reopened_after_a_failed_read():
    reports: list[CameraLost | CameraRestored] = []
    UnpluggedCamera.opened = 0
    source = OpenCvSource(0, report=reports.append, open_capture=UnpluggedCamera)
    assert source.read() is None
    assert source.read() is not None
    assert UnpluggedCamera.opened == 2
    assert [type(r) for r in reports] == [CameraLost, CameraRestored]
    assert reports[0].detail.startswith("opencv:0: ")
    assert not source.ended


def test_a_camera_that_cannot_be_opened_is_lost_not_a_crash():
    reports: list[CameraLost | CameraRestored] = []

    def no_camera(index: int | str) -> UnpluggedCamera:
        raise OSError("no /dev/video7")

    source = OpenCvSource(7, report=reports.append, open_capture=no_camera)
    assert source.read() is None
    assert source.read() is None
    assert len(reports) == 1  # one outage, reported once
    assert "cannot open the camera: OSError('no /dev/video7')" in reports[0].detail  # type: ignore[union-attr]


def test_corrupt_frame_file_is_reported_with_its_path(tmp_path):
    directory_with_corrupt_file(tmp_path, lambda report: None)
    reports: list[CameraLost | CameraRestored] = []
    source = DirectorySource(tmp_path, report=reports.append)
    list(iterate_frames(source, pause=lambda: None))
    assert str(tmp_path / f"frame-{BROKEN_SLOT}.png") in reports[0].detail  # type: ignore[union-attr]


def test_directory_frames_sort_by_number_not_text(tmp_path):
    for slot in (10, 9, 1):
        cv2.imwrite(str(tmp_path / f"f{slot}.png"), colour_image(slot % 5))
    (tmp_path / "notes.txt").write_text("not a frame")
    assert [p.name for p in DirectorySource(tmp_path).files] == ["f1.png", "f9.png", "f10.png"]


def test_bad_directories_name_the_folder(tmp_path):
    with pytest.raises(NotADirectoryError, match="nowhere"):
        DirectorySource(tmp_path / "nowhere")
    with pytest.raises(ValueError, match=f"{tmp_path}.*holds no images"):
        DirectorySource(tmp_path)


def test_rendered_source_is_deterministic():
    options = RenderOptions(size=(WIDTH, HEIGHT), px_per_mm=(0.1, 0.12))
    first = [f.image for f in iterate_frames(RenderedSource([7, 8], options))]
    again = [f.image for f in iterate_frames(RenderedSource([7, 8], options))]
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not np.array_equal(first[0], first[1])


@pytest.mark.skipif(running_on_pi(), reason="on a Pi picamera2 may really work")
def test_picamera2_off_a_pi_says_why():
    with pytest.raises(CameraUnavailableError, match="only on a Raspberry Pi"):
        Picamera2Source()


def test_running_on_pi_reads_the_device_tree_model(tmp_path):
    model = tmp_path / "model"
    model.write_text("Raspberry Pi 5 Model B Rev 1.0\x00")
    assert running_on_pi(model)
    assert not running_on_pi(tmp_path / "absent")


def test_open_source_forms(tmp_path):
    video = write_video(tmp_path / "v.avi", 2)
    assert isinstance(open_source(str(video)), OpenCvSource)
    cv2.imwrite(str(tmp_path / "a.png"), colour_image(0))
    assert isinstance(open_source(str(tmp_path)), DirectorySource)
    assert open_source("rendered:5+3").name == "rendered:5+3"
    assert open_source("opencv:0").name == "opencv:0"
    for bad in ("opencv:front", "rendered:x", str(tmp_path / "missing.avi")):
        with pytest.raises(ValueError, match="source"):
            open_source(bad)
