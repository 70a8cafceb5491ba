"""Sensor drivers for the board: ADS1115 behind two CD74HC4067 multiplexers, HX711 load cells.

MicroPython first (``machine``); under CPython the tests install a fake ``machine`` module.
"""

import struct
import time

try:  # noqa: SIM105 - MicroPython has no contextlib
    from typing import Any
except ImportError:  # MicroPython has no typing module; annotations are ignored there
    pass

_native_sleep_us = getattr(time, "sleep_us", None)  # MicroPython has it, CPython (the tests) does not


def sleep_us(us: int) -> None:
    if _native_sleep_us is not None:
        _native_sleep_us(us)
    else:
        time.sleep(us / 1000000)


# ADS1115 config: start a single conversion, AINx against GND, ±4.096 V, single-shot,
# 860 samples/s, comparator off. ±4.096 V keeps the 3.3 V divider top (an empty slot) at
# code 26400, inside the range.
_ADS_START = 0x8000
_ADS_PGA_4V = 0x0200
_ADS_SINGLE_SHOT = 0x0100
_ADS_860SPS = 0x00E0
_ADS_COMPARATOR_OFF = 0x0003


class Ads1115:
    def __init__(self, i2c: "Any", address: int = 0x48) -> None:
        self._i2c = i2c
        self._address = address

    def read(self, channel: int) -> int:
        config = _ADS_START | ((4 + channel) << 12) | _ADS_PGA_4V | _ADS_SINGLE_SHOT | _ADS_860SPS | _ADS_COMPARATOR_OFF
        self._i2c.writeto_mem(self._address, 1, struct.pack(">H", config))
        for _ in range(20):  # one conversion takes 1.2 ms at 860 samples/s
            if struct.unpack(">H", self._i2c.readfrom_mem(self._address, 1, 2))[0] & _ADS_START:
                break
            sleep_us(200)
        else:
            raise OSError("ADS1115 conversion did not finish")
        value: int = struct.unpack(">h", self._i2c.readfrom_mem(self._address, 0, 2))[0]
        return max(0, value)


class Mux16:
    """CD74HC4067: four select lines shared by both multiplexers."""

    def __init__(self, select_pins: "list[Any]") -> None:
        self._pins = select_pins

    def select(self, channel: int) -> None:
        for bit, pin in enumerate(self._pins):
            pin.value((channel >> bit) & 1)


class TraySlots:
    """Reads every tray slot and the deposit: ``wiring`` maps (seat, slot) to (ADC input, mux channel)."""

    SETTLE_US = 50  # the divider and the mux's RC settle well within this

    def __init__(
        self,
        adc: Ads1115,
        mux: Mux16,
        wiring: "dict[tuple[int, int], tuple[int, int]]",
        deposit_wiring: "tuple[int, int]",
        slots_per_tray: int,
    ) -> None:
        self._adc = adc
        self._mux = mux
        self._wiring = wiring
        self._deposit = deposit_wiring
        self.slots_per_tray = slots_per_tray

    def _read(self, where: "tuple[int, int]") -> int:
        adc_input, channel = where
        self._mux.select(channel)
        sleep_us(self.SETTLE_US)
        return self._adc.read(adc_input)

    def read(self) -> "tuple[list[list[int]], int]":
        """([seat][slot] raw readings, deposit raw reading)."""
        trays = [[self._read(self._wiring[(seat, slot)]) for slot in range(self.slots_per_tray)] for seat in range(4)]
        return trays, self._read(self._deposit)


class Hx711:
    """One load-cell amplifier; the clock line may be shared, each cell has its own data line."""

    def __init__(self, clock_pin: "Any", data_pin: "Any") -> None:
        self._clock = clock_pin
        self._data = data_pin

    def ready(self) -> bool:
        return bool(self._data.value() == 0)

    def read(self) -> "int | None":
        """The signed 24-bit reading (channel A, gain 128), or None when not ready."""
        if not self.ready():
            return None
        value = 0
        for _ in range(24):
            self._clock.value(1)
            self._clock.value(0)
            value = (value << 1) | int(self._data.value())
        self._clock.value(1)  # a 25th pulse selects channel A, gain 128, for the next reading
        self._clock.value(0)
        return value - (1 << 24) if value & 0x800000 else value


class WallScale:
    """Tiles standing in the four walls, weighed by one load cell under each wall rest."""

    def __init__(self, cells: "list[Hx711]", tare: "tuple[int, ...]", counts_per_tile: int) -> None:
        self._cells = cells
        self._tare = tare
        self._counts_per_tile = counts_per_tile
        self._last = [0] * len(cells)

    def tiles(self) -> "int | None":
        """Whole tiles on all four rests, or None when a cell has not answered."""
        total = 0
        for index, cell in enumerate(self._cells):
            value = cell.read()
            if value is None:
                return None
            self._last[index] = value
            total += value - self._tare[index]
        return max(0, round(total / self._counts_per_tile))
