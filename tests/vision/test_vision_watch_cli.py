"""``jantaku vision watch`` end to end on recorded frames, with a stand-in for the table reader
(``vision.live.table_reader`` comes from another branch; the real one is run after merging)."""

from __future__ import annotations

import json
import sys

import cv2
import numpy as np
import pytest

from table_app.cli import main
from table_app.domain.notation import parse_tiles
from vision.calibration.calibration import Calibration
from vision.calibration.calibration_file import save_calibration
from vision.calibration.zones import seat_zones
from vision.live import pipeline
from vision.live.debug_view import debug_view
from vision.live.reading import SeatReading, SeenTile, TableReading, Zone

SIZE = (640, 480)
CORNERS = ((60.0, 20.0), (580.0, 20.0), (580.0, 460.0), (60.0, 460.0))
POND = tuple(SeenTile(t, 0.95) for t in parse_tiles("1m9p"))


def reading_at(at: float, *, occluded: frozenset[Zone] = frozenset()) -> TableReading:
    seat0 = SeatReading(pond=POND, occluded=occluded)
    return TableReading(
        at, (seat0, SeatReading(), SeatReading(), SeatReading()), (SeenTile(parse_tiles("3z")[0], 0.9),)
    )


@pytest.fixture
def recorded(tmp_path):
    folder = tmp_path / "frames"
    folder.mkdir()
    for index in range(4):
        assert cv2.imwrite(str(folder / f"{index}.png"), np.full((SIZE[1], SIZE[0], 3), (40, 110, 30), np.uint8))
    calibration = Calibration(CORNERS, SIZE)
    save_calibration(calibration, tmp_path / "table.json")
    return folder, tmp_path / "table.json"


@pytest.fixture
def stand_in_reader(monkeypatch):
    made = []

    def table_reader(calibration, model=None):
        made.append((calibration, model))
        return lambda frame: reading_at(frame.timestamp)

    monkeypatch.setattr(pipeline, "table_reader", table_reader)
    return made


def test_watch_prints_each_observation_as_a_json_line_and_writes_debug_views(
    recorded, stand_in_reader, tmp_path, capsys
):
    folder, calibration = recorded
    out = tmp_path / "debug"
    assert (
        main(
            ["vision", "watch", "--source", str(folder), "--calibration", str(calibration), "--out", str(out), "--json"]
        )
        == 0
    )
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert [line["type"] for line in lines] == ["DoraRevealed", "PondTileAdded", "PondTileAdded"]
    assert lines[1] | {"at": 0} == {
        "type": "PondTileAdded",
        "at": 0,
        "seat": 0,
        "tile": "1m",
        "sideways": False,
        "confidence": 0.95,
    }
    assert lines[0]["indicator"] == "3z"
    assert "4 frames read (0 unreadable), 3 observations" in captured.err
    views = sorted(out.iterdir())
    assert len(views) == 4
    assert cv2.imread(str(views[0])).shape == (1020, 1020, 3)  # the 680 mm table at 1.5 px/mm
    (made_with, model) = stand_in_reader[0]
    assert made_with.corners == CORNERS
    assert model is None


def test_watch_prints_lines_and_stops_after_frames(recorded, stand_in_reader, capsys):
    folder, calibration = recorded
    assert main(["vision", "watch", "--source", str(folder), "--calibration", str(calibration), "--frames", "2"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert len(lines) == 3
    assert "PondTileAdded" in lines[1]
    assert "seat=0 tile=1m sideways=False confidence=0.95" in lines[1]
    assert "2 frames read" in captured.err


def test_watch_without_calibration_or_markers_says_so(recorded, stand_in_reader, capsys):
    folder, _ = recorded
    assert main(["vision", "watch", "--source", str(folder)]) == 2
    assert "no --calibration given" in capsys.readouterr().err


def test_watch_without_the_table_reader_installed_says_so(recorded, monkeypatch, capsys):
    folder, calibration = recorded
    monkeypatch.setitem(sys.modules, "vision.live.table_reader", None)  # as on a build without it
    assert main(["vision", "watch", "--source", str(folder), "--calibration", str(calibration)]) == 2
    assert "table reader is not installed" in capsys.readouterr().err


def test_watch_names_a_bad_source(tmp_path, capsys):
    assert main(["vision", "watch", "--source", str(tmp_path / "nowhere")]) == 2
    assert "nowhere" in capsys.readouterr().err


def test_the_debug_view_shades_an_occluded_zone_and_outlines_the_rest():
    calibration = Calibration(CORNERS, SIZE)
    image = np.full((SIZE[1], SIZE[0], 3), (40, 110, 30), np.uint8)
    clear = debug_view(image, calibration, reading_at(1.0))
    shaded = debug_view(image, calibration, reading_at(1.0, occluded=frozenset({Zone.POND})))
    pond = seat_zones(calibration.table, calibration.tile)[0].pond
    mask = np.zeros(clear.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(np.asarray(pond)).astype(np.int32)], 255)
    inside = mask > 0
    assert abs(float(shaded[inside].mean()) - float(clear[inside].mean())) > 5
    plain = calibration.warp(image)
    assert (clear != plain).any(axis=2).sum() > 1000  # outlines and labels drawn
