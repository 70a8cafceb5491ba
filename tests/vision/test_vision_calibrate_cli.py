"""``jantaku vision markers`` and ``jantaku vision calibrate`` end to end, on the printed sheet itself."""

import cv2
import numpy as np
import pytest

from table_app.cli import main
from vision.calibration.calibration import CornersFrom
from vision.calibration.calibration_file import load_calibration
from vision.calibration.markers import find_corner_markers


@pytest.fixture
def sheet_folder(tmp_path, capsys):
    """A folder of one recorded frame: a photo of the marker sheet, straight on."""
    folder = tmp_path / "frames"
    folder.mkdir()
    assert main(["vision", "markers", "--out", str(folder / "frame-0.png"), "--dpi", "100"]) == 0
    assert "DICT_4X4_50" in capsys.readouterr().out
    return folder


def test_calibrate_from_the_markers_in_a_recorded_frame(sheet_folder, tmp_path, capsys):
    out = tmp_path / "table.calibration.json"
    assert main(["vision", "calibrate", "--source", str(sheet_folder), "--out", str(out), "--table-mm", "400,500"]) == 0
    assert str(out) in capsys.readouterr().out
    calibration = load_calibration(out)
    assert calibration.corners_from == CornersFrom.ARUCO
    assert (calibration.table.width_mm, calibration.table.depth_mm) == (400.0, 500.0)
    sheet = cv2.imread(str(sheet_folder / "frame-0.png"))
    assert np.allclose(calibration.corners, find_corner_markers(sheet), atol=0.01)
    assert calibration.image_size == (sheet.shape[1], sheet.shape[0])


def test_calibrate_from_picked_corners(sheet_folder, tmp_path):
    out = tmp_path / "picked.json"
    corners = ["10,20", "700,25", "690,1100", "15,1090"]
    assert main(["vision", "calibrate", "--source", str(sheet_folder), "--out", str(out), "--corners", *corners]) == 0
    calibration = load_calibration(out)
    assert calibration.corners_from == CornersFrom.PICKED
    assert calibration.corners[2] == (690.0, 1100.0)


def test_calibrate_without_markers_names_the_missing_corners(tmp_path, capsys):
    folder = tmp_path / "empty-table"
    folder.mkdir()
    cv2.imwrite(str(folder / "0.png"), np.full((480, 640, 3), (60, 120, 40), np.uint8))
    assert main(["vision", "calibrate", "--source", str(folder), "--out", str(tmp_path / "c.json")]) == 2
    assert "top_left, top_right, bottom_right, bottom_left" in capsys.readouterr().err
    assert not (tmp_path / "c.json").exists()


def test_calibrate_names_a_bad_source(tmp_path, capsys):
    assert main(["vision", "calibrate", "--source", str(tmp_path / "nowhere"), "--out", str(tmp_path / "c.json")]) == 2
    assert "nowhere" in capsys.readouterr().err
