"""Calibration: corner markers warped through a known camera are found, and the homography
maps known table points to where the top-down view should show them."""

from __future__ import annotations

import json
import re

import cv2
import numpy as np
import pytest

from vision.calibration.calibrate import calibrate
from vision.calibration.calibration import Calibration, CornersFrom
from vision.calibration.calibration_file import CalibrationFileError, load_calibration, save_calibration
from vision.calibration.markers import (
    CORNER_MARKER_IDS,
    MarkersNotFoundError,
    draw_marker,
    draw_marker_sheet,
)
from vision.calibration.table import PhysicalTileSize, TableCorner, TableGeometry
from vision.render.camera import Camera, overhead_camera

TABLE = TableGeometry(680.0, 640.0, px_per_mm=1.5)
MARKER_MM = 60.0
CANVAS_PX_PER_MM = 2.0
CANVAS_HALF_MM = 400.0
FRAME = (1280, 720)
# Table points whose place in the top-down view is known: the centre, pond and wall spots, near the corners.
PROBES_MM = np.array([[0, 0], [-60, -100], [150, 170], [-205, 30], [300, -280], [-320, 290]], np.float64)


def canvas_to_mm() -> np.ndarray:
    scale = 1 / CANVAS_PX_PER_MM
    return np.array([[scale, 0, -CANVAS_HALF_MM], [0, -scale, CANVAS_HALF_MM], [0, 0, 1]])


RED_DOT_MM = (120.0, -150.0)  # a red dot drawn on the table, to find in the warped view


def synthetic_table_frame(camera: Camera, *, hide: TableCorner | None = None, seed: int = 0) -> np.ndarray:
    """A green table seen from above with the four markers centred on its corners (each turned
    differently), a few tiles, then through ``camera``, blurred and noisy."""
    rng = np.random.default_rng(seed)
    side = round(2 * CANVAS_HALF_MM * CANVAS_PX_PER_MM)
    canvas = np.zeros((side, side, 3), np.uint8)
    canvas[:] = (60, 120, 40)
    for _ in range(40):  # tile-like clutter so the detector sees more than markers
        x, y = rng.uniform(200, side - 200, 2).astype(int)
        cv2.rectangle(canvas, (x, y), (x + 40, y + 54), (225, 235, 240), -1)
    marker_px = round(MARKER_MM * CANVAS_PX_PER_MM)
    to_canvas = np.linalg.inv(canvas_to_mm())
    dot = to_canvas @ np.array([*RED_DOT_MM, 1.0])
    cv2.circle(canvas, (round(dot[0]), round(dot[1])), 12, (0, 0, 255), -1)
    for corner, (x_mm, y_mm) in zip(TableCorner, TABLE.corners_mm(), strict=True):
        if corner == hide:
            continue
        u, v, _ = to_canvas @ np.array([x_mm, y_mm, 1.0])
        marker = np.rot90(draw_marker(corner.value, marker_px), k=corner.value)
        top, left = round(v - marker_px / 2), round(u - marker_px / 2)
        canvas[top : top + marker_px, left : left + marker_px] = marker[..., None]
    plane_to_image = camera.projection[:, [0, 1, 3]]  # the table plane (height 0) → image
    image = cv2.warpPerspective(canvas, plane_to_image @ canvas_to_mm(), FRAME, flags=cv2.INTER_AREA)
    image = cv2.GaussianBlur(image, (0, 0), 0.8)
    noisy = image.astype(np.float32) + rng.normal(0, 4, image.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


CAMERAS = {
    "straight": overhead_camera(FRAME, height_mm=900, px_per_mm=0.85, yaw_deg=0),
    "turned-tilted": overhead_camera(FRAME, height_mm=800, px_per_mm=0.65, yaw_deg=23, tilt_deg=(4, -3)),
    "upside-down": overhead_camera(FRAME, height_mm=1000, px_per_mm=0.7, yaw_deg=181, target_mm=(20, -15)),
}


@pytest.mark.parametrize("camera", CAMERAS.values(), ids=CAMERAS.keys())
def test_homography_from_markers_maps_table_points_within_two_pixels(camera):
    frame = synthetic_table_frame(camera)
    calibration = calibrate(frame, table=TABLE)

    assert calibration.corners_from == CornersFrom.ARUCO
    in_image = camera.project(np.hstack([PROBES_MM, np.zeros((len(PROBES_MM), 1))]))
    error = np.linalg.norm(calibration.to_view(in_image) - TABLE.to_view(PROBES_MM), axis=1)
    assert error.max() < 2.0, error
    back = calibration.to_image(calibration.to_view(in_image))
    assert np.allclose(back, in_image, atol=1e-6)


def test_warp_puts_a_table_point_where_the_view_shows_it():
    camera = CAMERAS["turned-tilted"]
    calibration = calibrate(synthetic_table_frame(camera), table=TABLE)
    view = calibration.warp(synthetic_table_frame(camera, seed=1))
    assert view.shape[:2] == (round(640 * 1.5), round(680 * 1.5))
    red = (view[..., 2] > 150) & (view[..., 1] < 90) & (view[..., 0] < 90)
    ys, xs = np.nonzero(red)
    assert len(xs) > 100
    expected = TABLE.to_view(np.array([RED_DOT_MM]))[0]
    assert np.hypot(xs.mean() - expected[0], ys.mean() - expected[1]) < 2.0


def test_warp_refuses_a_frame_of_another_size():
    calibration = calibrate(synthetic_table_frame(CAMERAS["straight"]), table=TABLE)
    with pytest.raises(ValueError, match="1280, 720"):
        calibration.warp(np.zeros((480, 640, 3), np.uint8))


def test_a_hidden_marker_is_named():
    frame = synthetic_table_frame(CAMERAS["straight"], hide=TableCorner.BOTTOM_RIGHT)
    with pytest.raises(MarkersNotFoundError, match="bottom_right") as caught:
        calibrate(frame, table=TABLE)
    assert "top_left" not in str(caught.value)


def test_picked_corners_give_the_same_homography_as_markers():
    camera = CAMERAS["turned-tilted"]
    picked = [tuple(p) for p in camera.project(np.hstack([TABLE.corners_mm(), np.zeros((4, 1))]))]
    calibration = calibrate(np.zeros((720, 1280, 3), np.uint8), picked=picked, table=TABLE)
    from_markers = calibrate(synthetic_table_frame(camera), table=TABLE)
    assert calibration.corners_from == CornersFrom.PICKED
    probes = camera.project(np.hstack([PROBES_MM, np.zeros((len(PROBES_MM), 1))]))
    assert np.abs(calibration.to_view(probes) - from_markers.to_view(probes)).max() < 2.0


@pytest.mark.parametrize(
    ("picked", "message"),
    [
        ([(10, 10), (100, 10), (100, 100)], "four corners"),
        ([(10, 10), (100, 10), (100, 100), (10, 800)], "outside"),
        ([(10, 10), (100, 100), (100, 10), (10, 100)], "convex"),
    ],
)
def test_bad_picked_corners_say_what_is_wrong(picked, message):
    with pytest.raises(ValueError, match=message):
        calibrate(np.zeros((720, 1280, 3), np.uint8), picked=picked)


def test_marker_sheet_is_a4_and_every_marker_on_it_is_found():
    sheet = draw_marker_sheet(dpi=100)
    assert sheet.shape == (round(297 / 25.4 * 100), round(210 / 25.4 * 100))
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    _, ids, _ = detector.detectMarkers(sheet)
    assert sorted(ids.ravel().tolist()) == list(CORNER_MARKER_IDS)


def test_calibration_file_round_trip(tmp_path):
    calibration = Calibration(
        ((100.5, 50.25), (1200.0, 60.0), (1180.0, 700.0), (90.0, 690.0)),
        (1280, 720),
        TableGeometry(700, 650, 2.0),
        PhysicalTileSize(21, 28.5),
        CornersFrom.ARUCO,
    )
    path = tmp_path / "table.calibration.json"
    save_calibration(calibration, path)
    assert load_calibration(path) == calibration


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"corners": [[0, 0], [10, 0], [10, 10]]}, "corners"),
        ({"corners": [[0, 0], [10, 0], [10, "x"], [0, 10]]}, "corners[2]"),
        ({"corners": [[0, 0], [100, 100], [100, 0], [0, 100]]}, "corners"),
        ({"tile_mm": [30, 20]}, "tile_mm"),
        ({"table_mm": [-1, 600]}, "table_mm"),
        ({"image_size": [1280.5, 720]}, "image_size"),
        ({"corners_from": "guess"}, "corners_from"),
        ({"version": 2}, "version"),
        ({"colour": "green"}, "colour"),
    ],
)
def test_calibration_file_errors_name_the_file_and_field(tmp_path, change, field):
    path = tmp_path / "table.calibration.json"
    save_calibration(Calibration(((0, 0), (100, 0), (100, 100), (0, 100)), (1280, 720)), path)
    document = json.loads(path.read_text()) | change
    path.write_text(json.dumps(document))
    with pytest.raises(CalibrationFileError, match=re.escape(f"calibration file {path}: {field}:")) as caught:
        load_calibration(path)
    assert caught.value.field == field


def test_unreadable_calibration_files_are_named(tmp_path):
    with pytest.raises(CalibrationFileError, match=r"missing\.json: does not exist"):
        load_calibration(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(CalibrationFileError, match=r"broken\.json: not JSON \(line 1 column 2"):
        load_calibration(broken)
