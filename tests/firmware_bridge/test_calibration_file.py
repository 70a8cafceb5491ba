"""Calibration files: round trip, and errors that name the file and the field."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.calibration import CalibrationError, StickSense, default_calibration, fit_slot
from firmware_bridge.calibration_file import load_calibration, save_calibration


def test_round_trip(tmp_path: Path) -> None:
    calibration = default_calibration(calibration_id=9)
    odd = fit_slot(5000, StickSense.CAPACITOR, 1200, 2800, 2)
    trays = (
        calibration.trays[0],
        calibration.trays[1],
        (*calibration.trays[2][:1], odd, *calibration.trays[2][2:]),
        calibration.trays[3],
    )
    calibration = type(calibration)(9, trays, calibration.deposit, 0.25)
    path = tmp_path / "calibration.json"
    save_calibration(calibration, path)
    assert load_calibration(path) == calibration


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.pop("deposit"), "deposit is missing"),
        (lambda d: d["trays"].pop(), "trays must be 4"),
        (lambda d: d["trays"][1][2].update(per_stick="x"), r"trays\[1\]\[2\].per_stick has the wrong type"),
        (lambda d: d["trays"][3][0].update(sense="magic"), r"trays\[3\]\[0\].sense must be"),
        (lambda d: d["trays"][0][4].update(empty_reading=0), r"trays\[0\]\[4\]: 100-point slot"),
        (lambda d: d.update(tolerance=0.7), "tolerance 0.7"),
    ],
)
def test_errors_name_the_file_and_the_field(
    tmp_path: Path, edit: Callable[[dict[str, Any]], object], message: str
) -> None:
    path = tmp_path / "calibration.json"
    save_calibration(default_calibration(), path)
    document = json.loads(path.read_text(encoding="utf-8"))
    edit(document)
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(CalibrationError, match=message) as raised:
        load_calibration(path)
    assert str(path) in str(raised.value)


def test_not_json_and_missing_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    with pytest.raises(CalibrationError, match="not JSON"):
        load_calibration(bad)
    with pytest.raises(CalibrationError, match="cannot read calibration"):
        load_calibration(tmp_path / "absent.json")
