"""A fake MicroPython ``machine`` module, plus the table hardware the firmware talks to.

``FakeTableHardware`` plays the ADS1115 behind the two multiplexers (answering for whichever
channel the select pins choose) and the four HX711 load cells (clocking out their bits).
"""

from __future__ import annotations

import errno
import struct
from collections.abc import Callable

PINS: dict[int, Pin] = {}
BUSES: list[I2C] = []


class Pin:
    OUT = 1
    IN = 0

    def __init__(self, pin_id: int, mode: int = -1, pull: int | None = None) -> None:
        self.id = pin_id
        self.mode = mode
        self._value = 0
        self.reader: Callable[[], int] | None = None
        self.listeners: list[Callable[[int, int], None]] = []
        PINS[pin_id] = self

    def value(self, new: int | None = None) -> int:
        if new is None:
            return self.reader() if self.reader is not None else self._value
        old, self._value = self._value, int(new)
        for listener in self.listeners:
            listener(old, self._value)
        return self._value


class I2CDevice:
    def write(self, register: int, data: bytes) -> None:
        raise NotImplementedError

    def read(self, register: int, size: int) -> bytes:
        raise NotImplementedError


class I2C:
    def __init__(self, bus_id: int, scl: Pin | None = None, sda: Pin | None = None, freq: int = 400_000) -> None:
        self.bus_id = bus_id
        self.devices: dict[int, I2CDevice] = {}
        BUSES.append(self)

    def _device(self, address: int) -> I2CDevice:
        try:
            return self.devices[address]
        except KeyError:
            raise OSError(errno.ENODEV, f"no I2C device at {address:#04x}") from None

    def writeto_mem(self, address: int, register: int, data: bytes) -> None:
        self._device(address).write(register, bytes(data))

    def readfrom_mem(self, address: int, register: int, size: int) -> bytes:
        return self._device(address).read(register, size)


def unique_id() -> bytes:
    return bytes([0xE6, 0x61, 0x38, 0x52, 0x83, 0x2C, 0x4A, 0x21])


def reset() -> None:
    PINS.clear()
    BUSES.clear()


class FakeAds1115(I2CDevice):
    def __init__(self, value_of: Callable[[int], int]) -> None:
        self._value_of = value_of  # ADC input → code (the mux state is read by the callable)
        self._config = 0
        self.conversions = 0

    def write(self, register: int, data: bytes) -> None:
        if register == 1:
            (self._config,) = struct.unpack(">H", data)
            self.conversions += 1

    def read(self, register: int, size: int) -> bytes:
        if register == 1:
            return struct.pack(">H", self._config | 0x8000)  # conversion done
        channel = ((self._config >> 12) & 0x7) - 4
        return struct.pack(">h", self._value_of(channel))


class FakeHx711:
    def __init__(self, clock: Pin, data: Pin, value_of: Callable[[], int]) -> None:
        self._value_of = value_of
        self._bits: list[int] | None = None
        self._pulses = 0
        data.reader = self._data_line
        clock.listeners.append(self._clock_edge)

    def _data_line(self) -> int:
        if self._bits is None:
            return 0  # low: a reading is ready
        return self._bits[self._pulses - 1] if 1 <= self._pulses <= 24 else 0

    def _clock_edge(self, old: int, new: int) -> None:
        if old or not new:
            return
        if self._bits is None:
            value = self._value_of() & 0xFFFFFF
            self._bits = [(value >> (23 - i)) & 1 for i in range(24)]
            self._pulses = 0
        self._pulses += 1
        if self._pulses == 25:
            self._bits = None


class FakeTableHardware:
    """Raw slot readings and tiles standing, served to the firmware through the fake pins and bus."""

    def __init__(
        self,
        *,
        wiring: dict[tuple[int, int], tuple[int, int]],
        deposit_wiring: tuple[int, int],
        select_pins: tuple[int, ...],
        hx711_clock: int,
        hx711_data: tuple[int, ...],
        counts_per_tile: int,
    ) -> None:
        self.slot_raw: dict[tuple[int, int], int] = dict.fromkeys(wiring, 26_400)
        self.deposit_raw = 26_400
        self.tiles_standing = 84
        self._by_channel = {where: key for key, where in wiring.items()}
        self._deposit_wiring = deposit_wiring
        self._select_pins = select_pins
        self._counts_per_tile = counts_per_tile
        self.ads = FakeAds1115(self._adc_value)
        for bus in BUSES:
            bus.devices[0x48] = self.ads
        for index, pin in enumerate(hx711_data):
            FakeHx711(PINS[hx711_clock], PINS[pin], lambda index=index: self._cell_counts(index))

    def _adc_value(self, adc_input: int) -> int:
        channel = sum(PINS[pin].value() << bit for bit, pin in enumerate(self._select_pins))
        if (adc_input, channel) == self._deposit_wiring:
            return self.deposit_raw
        key = self._by_channel.get((adc_input, channel))
        return self.slot_raw[key] if key is not None else 0

    def _cell_counts(self, index: int) -> int:
        share = self.tiles_standing // 4 + (1 if index < self.tiles_standing % 4 else 0)
        return share * self._counts_per_tile + (7 if index % 2 else -7)  # a little noise

    def unplug_adc(self) -> None:
        for bus in BUSES:
            bus.devices.pop(0x48, None)
