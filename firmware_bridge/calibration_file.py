"""Calibration on disk: a small JSON file the host keeps next to the board's own copy.

    {"calibration_id": 7, "tolerance": 0.3,
     "trays": [[{"denomination": 10000, "sense": "resistor", "empty_reading": 26400, "per_stick": 1.0}, ...], ...],
     "deposit": {"denomination": 1000, "sense": "resistor", "empty_reading": 26400, "per_stick": 0.2}}

Errors name the file and the field, so a hand-edited file is easy to fix.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from firmware_bridge.calibration import (
    DEFAULT_TOLERANCE,
    CalibrationError,
    SlotCalibration,
    StickSense,
    TableCalibration,
)


def save_calibration(calibration: TableCalibration, path: Path) -> None:
    document = {
        "calibration_id": calibration.calibration_id,
        "tolerance": calibration.tolerance,
        "trays": [[_slot_record(slot) for slot in tray] for tray in calibration.trays],
        "deposit": _slot_record(calibration.deposit),
    }
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def load_calibration(path: Path) -> TableCalibration:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise CalibrationError(f"cannot read calibration {path}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise CalibrationError(f"{path}: not JSON (line {error.lineno}: {error.msg})") from None
    if not isinstance(document, dict):
        raise CalibrationError(f"{path}: expected a JSON object")
    trays = _field(document, "trays", list, path)
    if len(trays) != 4 or not all(isinstance(tray, list) and tray for tray in trays):
        raise CalibrationError(f"{path}: trays must be 4 non-empty lists of slots")
    if len({len(tray) for tray in trays}) != 1:
        raise CalibrationError(f"{path}: every tray must have the same number of slots")
    slots = tuple(
        tuple(_slot(record, f"trays[{seat}][{index}]", path) for index, record in enumerate(tray))
        for seat, tray in enumerate(trays)
    )
    deposit = _slot(_field(document, "deposit", dict, path), "deposit", path)
    calibration_id = _field(document, "calibration_id", int, path)
    tolerance = float(document.get("tolerance", DEFAULT_TOLERANCE))
    if not 0 < tolerance < 0.5:
        raise CalibrationError(f"{path}: tolerance {tolerance} must lie between 0 and 0.5 sticks")
    return TableCalibration(calibration_id, slots, deposit, tolerance)


def _slot_record(slot: SlotCalibration) -> dict[str, Any]:
    return {
        "denomination": slot.denomination,
        "sense": slot.sense.value,
        "empty_reading": slot.empty_reading,
        "per_stick": slot.per_stick,
    }


def _slot(record: Any, where: str, path: Path) -> SlotCalibration:
    if not isinstance(record, dict):
        raise CalibrationError(f"{path}: {where} must be an object")
    try:
        sense = StickSense(record.get("sense", StickSense.RESISTOR.value))
    except ValueError:
        raise CalibrationError(f"{path}: {where}.sense must be 'resistor' or 'capacitor'") from None
    denomination = _field(record, "denomination", int, path, where)
    empty = _field(record, "empty_reading", int, path, where)
    per_stick = _field(record, "per_stick", (int, float), path, where)
    try:
        return SlotCalibration(denomination, sense, empty, float(per_stick))
    except CalibrationError as error:
        raise CalibrationError(f"{path}: {where}: {error}") from None


def _field(record: dict[str, Any], name: str, kind: Any, path: Path, where: str = "") -> Any:
    label = f"{where}.{name}" if where else name
    if name not in record:
        raise CalibrationError(f"{path}: {label} is missing")
    value = record[name]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise CalibrationError(f"{path}: {label} has the wrong type ({type(value).__name__})")
    return value
