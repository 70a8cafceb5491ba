"""The fake for the serial port: a simulated board on the far end of an in-memory port.

Time is a ``FakeClock`` that moves only when the link would block (a read with nothing to
read, a backoff pause), so a test runs minutes of table time in milliseconds and never sleeps.
Unplugging is real enough: reads on the old port fail and opening fails until the replug.
"""

from __future__ import annotations

import threading

import serial

from firmware_bridge.simulator import TableSimulator


class FakeClock:
    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += max(0.0, seconds)

    def advance_to(self, when: float) -> None:
        with self._lock:
            self._now = max(self._now, when)


class SimulatedBoard:
    """A TableSimulator behind a USB connector: ``open_port`` is the link's port opener."""

    def __init__(self, simulator: TableSimulator, clock: FakeClock, read_timeout_s: float = 0.05) -> None:
        self.simulator = simulator
        self.clock = clock
        self.read_timeout_s = read_timeout_s
        self._unplugged_until: float | None = None
        self._plugged_in = 0  # incremented at each replug: older ports go dead
        self._started = False
        self._pending = bytearray()
        self.opens = 0

    def open_port(self) -> SimulatedPort:
        self._pump()
        if self._unplugged_until is not None:
            raise serial.SerialException("could not open port /dev/ttySIM: [Errno 2] No such file or directory")
        self.opens += 1
        return SimulatedPort(self, self._plugged_in)

    def unplug(self, seconds: float) -> None:
        self._unplugged_until = self.clock() + seconds
        self._plugged_in += 1
        self._pending.clear()

    def _pump(self) -> None:
        now = self.clock()
        if not self._started:
            self._started = True
            self._pending += self.simulator.start(now)
            return
        if self._unplugged_until is not None:
            if now < self._unplugged_until:
                return
            self._unplugged_until = None
            self.simulator.replugged(now)
        output = self.simulator.poll(now)
        if output.unplug_s:
            self.unplug(output.unplug_s)
        else:
            self._pending += output.data

    def connected(self, generation: int) -> bool:
        return generation == self._plugged_in and self._unplugged_until is None

    def take(self, size: int) -> bytes:
        data = bytes(self._pending[:size])
        del self._pending[:size]
        return data

    def waiting(self) -> int:
        return len(self._pending)

    def wait_for_data(self) -> None:
        """What a blocking read does: let time pass until the board sends or the timeout ends."""
        self._pump()
        if self._pending:
            return
        now = self.clock()
        self.clock.advance_to(min(now + self.read_timeout_s, max(now, self.simulator.next_due())))
        self._pump()

    def deliver(self, data: bytes) -> None:
        self._pending += self.simulator.receive(data, self.clock())


class SimulatedPort:
    """Duck-types the part of ``serial.Serial`` that SerialTableLink uses."""

    def __init__(self, board: SimulatedBoard, generation: int) -> None:
        self._board = board
        self._generation = generation
        self.is_open = True

    def _check(self) -> None:
        if not self.is_open:
            raise serial.PortNotOpenError()
        if not self._board.connected(self._generation):
            raise serial.SerialException("device reports readiness to read but returned no data (device disconnected?)")

    @property
    def in_waiting(self) -> int:
        self._check()
        return self._board.waiting()

    def read(self, size: int = 1) -> bytes:
        self._check()
        if not self._board.waiting():
            self._board.wait_for_data()
            self._check()
        return self._board.take(size)

    def write(self, data: bytes, /) -> int:
        self._check()
        self._board.deliver(bytes(data))
        return len(data)

    def close(self) -> None:
        self.is_open = False
