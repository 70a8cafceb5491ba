"""Calibration: how a slot's raw ADC reading becomes a number of sticks.

Resistor sticks (AMOS-type tables) carry a resistor inverse to their value, so the sticks in
a slot are resistors in parallel and the slot's conductance is proportional to its points.
The board measures each slot as the lower leg of a divider under a reference resistor R_ref:

    raw = empty_reading / (1 + n * R_ref / R_stick)      →   n = (empty_reading / raw - 1) / per_stick

with ``per_stick = R_ref / R_stick``. Capacitor sticks (Century-type tables) add capacitance,
which the board measures as a charge time, so the reading grows linearly:

    raw = empty_reading + n * per_stick                  →   n = (raw - empty_reading) / per_stick

Both models are linear in n once the reading is turned into a "stick estimate"; a slot whose
estimate falls between two whole numbers (a stick half seated, a dirty contact) is reported as
inexact instead of being rounded silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

# What each stick's resistor is, by denomination (issue 4): conductance ∝ points.
RESISTOR_OHMS = {10000: 10_000, 5000: 20_000, 1000: 100_000, 500: 200_000, 100: 1_000_000}
# The slots of one tray, in the order the board reports them.
TRAY_DENOMINATIONS = (10000, 5000, 1000, 500, 100)
RIICHI_STICK_POINTS = 1000
# ADS1115 at ±4.096 V full scale reading a 3.3 V divider top: the empty-slot code.
NOMINAL_EMPTY_READING = 26_400
# Reference resistor per denomination, chosen so a full slot still sits well above the ADC floor.
DEFAULT_REFERENCE_OHMS = {10000: 10_000, 5000: 10_000, 1000: 20_000, 500: 50_000, 100: 100_000}
# How far a stick estimate may sit from a whole number and still count as that number.
DEFAULT_TOLERANCE = 0.3


class StickSense(Enum):
    RESISTOR = "resistor"
    CAPACITOR = "capacitor"


class CalibrationError(ValueError):
    """A calibration value that cannot describe a real slot."""


@dataclass(frozen=True, slots=True)
class StickCount:
    count: int
    estimate: float  # the unrounded value, kept for diagnostics
    exact: bool  # False when the estimate sat between two counts


@dataclass(frozen=True, slots=True)
class SlotCalibration:
    denomination: int
    sense: StickSense
    empty_reading: int
    per_stick: float

    def __post_init__(self) -> None:
        if self.empty_reading <= 0 or self.per_stick <= 0:
            raise CalibrationError(
                f"{self.denomination}-point slot: empty reading {self.empty_reading} and per-stick step "
                f"{self.per_stick} must both be positive"
            )

    def estimate(self, raw: int) -> float:
        if self.sense is StickSense.RESISTOR:
            # A reading of 0 means a short (or a broken ADC): infinitely many sticks, never exact.
            return float("inf") if raw <= 0 else (self.empty_reading / raw - 1.0) / self.per_stick
        return (raw - self.empty_reading) / self.per_stick

    def count(self, raw: int, tolerance: float = DEFAULT_TOLERANCE) -> StickCount:
        estimate = self.estimate(raw)
        if estimate == float("inf"):
            return StickCount(0, estimate, exact=False)
        count = max(0, round(estimate))
        return StickCount(count, estimate, exact=abs(estimate - count) <= tolerance)

    def raw_for(self, count: int) -> int:
        """The reading a perfect slot gives with ``count`` sticks (the simulator and tests use it)."""
        if self.sense is StickSense.RESISTOR:
            return round(self.empty_reading / (1.0 + count * self.per_stick))
        return round(self.empty_reading + count * self.per_stick)

    @property
    def per_stick_micro(self) -> int:
        """The per-stick step as the protocol's CALIBRATE_SLOT carries it (millionths)."""
        return round(self.per_stick * 1_000_000)


@dataclass(frozen=True, slots=True)
class TableCalibration:
    calibration_id: int
    trays: tuple[tuple[SlotCalibration, ...], ...]  # [seat][slot], same for the board's STATE
    deposit: SlotCalibration
    tolerance: float = DEFAULT_TOLERANCE

    def slot(self, seat: int, slot: int) -> SlotCalibration:
        try:
            return self.trays[seat][slot]
        except IndexError:
            raise CalibrationError(f"no calibration for seat {seat} slot {slot}") from None

    @property
    def slots_per_tray(self) -> int:
        return len(self.trays[0])


def resistor_slot(
    denomination: int, reference_ohms: int, empty_reading: int = NOMINAL_EMPTY_READING
) -> SlotCalibration:
    """A resistor-stick slot from its nominal parts (before the calibration procedure refines it)."""
    try:
        stick_ohms = RESISTOR_OHMS[denomination]
    except KeyError:
        raise CalibrationError(f"no resistor stick for a {denomination}-point denomination") from None
    return SlotCalibration(denomination, StickSense.RESISTOR, empty_reading, reference_ohms / stick_ohms)


def fit_slot(
    denomination: int, sense: StickSense, empty_reading: int, known_reading: int, known_count: int
) -> SlotCalibration:
    """The calibration procedure for one slot: read it empty, then with ``known_count`` sticks."""
    if known_count <= 0:
        raise CalibrationError(f"{denomination}-point slot: calibrate with at least one stick, not {known_count}")
    if sense is StickSense.RESISTOR:
        if not 0 < known_reading < empty_reading:
            raise CalibrationError(
                f"{denomination}-point slot: reading {known_reading} with {known_count} sticks must lie below "
                f"the empty reading {empty_reading} (is the slot wired?)"
            )
        per_stick = (empty_reading / known_reading - 1.0) / known_count
    else:
        if known_reading <= empty_reading:
            raise CalibrationError(
                f"{denomination}-point slot: reading {known_reading} with {known_count} sticks must exceed "
                f"the empty reading {empty_reading}"
            )
        per_stick = (known_reading - empty_reading) / known_count
    return SlotCalibration(denomination, sense, empty_reading, per_stick)


def default_calibration(calibration_id: int = 1) -> TableCalibration:
    """Nominal resistor-stick calibration; the simulator and the firmware's defaults match it."""
    tray = tuple(resistor_slot(d, DEFAULT_REFERENCE_OHMS[d]) for d in TRAY_DENOMINATIONS)
    deposit = resistor_slot(RIICHI_STICK_POINTS, DEFAULT_REFERENCE_OHMS[RIICHI_STICK_POINTS])
    return TableCalibration(calibration_id, (tray, tray, tray, tray), deposit)
