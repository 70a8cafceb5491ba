"""A picture is measured from its header before it is decoded: one declaring more pixels than
jantaku reads (a 30000x30000 PNG of a few KB, say) is refused in one line, never decoded."""

from __future__ import annotations

import struct
import time
import zlib

import cv2
import numpy as np
import pytest

from table_app.cli import main
from vision.image_size import MAX_PIXELS, declared_size, oversize
from vision.sources.directory_source import DirectorySource
from vision.sources.frame import CameraLost


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_declaring(width: int, height: int) -> bytes:
    """A valid PNG header declaring ``width`` x ``height`` RGB pixels, with a few KB of rows."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = zlib.compress(b"\x00" * 3_000_000, 9)  # a thousand black rows' worth, compressed
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", rows) + _chunk(b"IEND", b"")


def _encoded(suffix: str, width: int, height: int) -> bytes:
    ok, data = cv2.imencode(suffix, np.zeros((height, width, 3), np.uint8))
    assert ok
    return data.tobytes()


def jpeg_declaring(width: int, height: int) -> bytes:
    data = bytearray(_encoded(".jpg", 16, 8))
    frame = data.index(b"\xff\xc0")
    data[frame + 5 : frame + 9] = struct.pack(">HH", height, width)
    return bytes(data)


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".bmp", ".webp"])
def test_the_header_size_is_read_for_each_format(suffix):
    assert declared_size(_encoded(suffix, 37, 21)) == (37, 21)


def test_a_lossless_webp_and_an_unknown_format():
    ok, data = cv2.imencode(".webp", np.zeros((21, 37, 3), np.uint8), [cv2.IMWRITE_WEBP_QUALITY, 101])
    assert ok
    assert declared_size(data.tobytes()) == (37, 21)
    assert declared_size(b"GIF89a....") is None
    assert oversize(b"") is None


def test_a_camera_frame_is_within_the_cap_and_a_bomb_is_not():
    assert oversize(_encoded(".png", 4608, 2592)) is None  # Camera Module 3's full frame
    message = oversize(png_declaring(30000, 30000))
    assert message is not None
    assert "declares 30000x30000 pixels (900 MP)" in message
    assert f"{MAX_PIXELS / 1e6:.0f} MP" in message


@pytest.mark.parametrize("make", [png_declaring, jpeg_declaring])
def test_vision_detect_refuses_an_oversized_picture_in_one_line(tmp_path, capsys, make):
    path = tmp_path / "bomb.img"
    path.write_bytes(make(30000, 30000))
    started = time.monotonic()
    assert main(["vision", "detect", str(path), "--json"]) == 2
    assert time.monotonic() - started < 10  # nothing decoded
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"image {path} declares 30000x30000 pixels" in err


def test_a_frame_folder_reports_an_oversized_frame_as_missed(tmp_path):
    cv2.imwrite(str(tmp_path / "frame-1.png"), np.zeros((8, 8, 3), np.uint8))
    (tmp_path / "frame-2.png").write_bytes(png_declaring(30000, 30000))
    cv2.imwrite(str(tmp_path / "frame-3.png"), np.zeros((8, 8, 3), np.uint8))
    reports = []
    source = DirectorySource(tmp_path, report=reports.append)
    frames = [source.read() for _ in range(3)]
    assert frames[0] is not None
    assert frames[1] is None
    assert frames[2] is not None
    lost = next(r for r in reports if isinstance(r, CameraLost))
    assert "frame-2.png declares 30000x30000 pixels" in lost.detail


def test_a_folder_is_not_a_picture(tmp_path, capsys):
    assert main(["vision", "detect", str(tmp_path)]) == 2
    assert f"image {tmp_path} is a folder, not a picture" in capsys.readouterr().err
