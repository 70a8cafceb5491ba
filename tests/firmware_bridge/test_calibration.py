"""Calibration: raw readings to stick counts, for resistor and capacitor sticks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.calibration import (
    RESISTOR_OHMS,
    TRAY_DENOMINATIONS,
    CalibrationError,
    SlotCalibration,
    StickSense,
    default_calibration,
    fit_slot,
    resistor_slot,
)


def test_slot_conductance_is_proportional_to_points() -> None:
    # One 10000 stick conducts like ten 1000 sticks and a hundred 100 sticks.
    for value, ohms in RESISTOR_OHMS.items():
        assert value * ohms == 100_000_000
    slot = resistor_slot(1000, 20_000)
    conductance = [slot.estimate(slot.raw_for(n)) for n in range(5)]
    assert conductance == pytest.approx([0, 1, 2, 3, 4], abs=1e-3)  # raw_for rounds to whole ADC codes


@given(st.sampled_from(TRAY_DENOMINATIONS), st.integers(0, 40), st.integers(-3, 3))
def test_every_count_reads_back_exactly_despite_adc_noise(value: int, count: int, jitter: int) -> None:
    slot = default_calibration().slot(0, TRAY_DENOMINATIONS.index(value))
    counted = slot.count(slot.raw_for(count) + jitter)
    assert (counted.count, counted.exact) == (count, True)


def test_a_reading_between_two_counts_is_inexact_not_rounded_silently() -> None:
    slot = resistor_slot(10000, 10_000)
    between = round((slot.raw_for(1) + slot.raw_for(2)) / 2)
    counted = slot.count(between)
    assert not counted.exact
    assert 1.3 < counted.estimate < 1.7


def test_a_shorted_slot_is_never_exact() -> None:
    assert not resistor_slot(100, 100_000).count(0).exact


@pytest.mark.parametrize("sense", list(StickSense))
def test_fit_slot_recovers_the_slot_from_two_readings(sense: StickSense) -> None:
    truth = SlotCalibration(
        5000, sense, 12_000 if sense is StickSense.CAPACITOR else 26_000, 0.5 if sense is StickSense.RESISTOR else 800
    )
    fitted = fit_slot(5000, sense, truth.empty_reading, truth.raw_for(4), 4)
    assert [fitted.count(truth.raw_for(n)).count for n in range(9)] == list(range(9))


def test_fit_slot_names_the_slot_when_the_readings_are_impossible() -> None:
    with pytest.raises(CalibrationError, match=r"1000-point slot.*below the empty reading"):
        fit_slot(1000, StickSense.RESISTOR, 20_000, 25_000, 3)
    with pytest.raises(CalibrationError, match="at least one stick"):
        fit_slot(1000, StickSense.CAPACITOR, 100, 200, 0)
    with pytest.raises(CalibrationError, match="must both be positive"):
        SlotCalibration(100, StickSense.RESISTOR, 0, 1.0)
