"""Fault injection for the table simulator: what goes wrong on a real serial line and board.

``--faults noise,drop=0.1,unplug`` names faults, each at its default rate unless given one.
Byte faults are per frame (a probability); board faults are per second (a Poisson rate):

    fault     default  what happens
    noise     0.05     1-8 random bytes (zeros included) before a frame
    drop      0.02     one byte of a frame is lost
    flip      0.02     one bit of a frame is flipped
    truncate  0.02     a frame is cut short (its end and closing delimiter never arrive)
    unplug    0.05/s   the USB cable is pulled for 0.5 s (the device node goes away)
    reboot    0.05/s   the board restarts: 0.3 s of silence, then HELLO, sequence from 0
    version   0.03/s   the board comes back speaking protocol 2 for 2 s, then protocol 1 again
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum


class FaultSpecError(ValueError):
    """A --faults specification that names an unknown fault or an impossible rate."""


class Fault(Enum):
    NOISE = "noise"
    DROP = "drop"
    FLIP = "flip"
    TRUNCATE = "truncate"
    UNPLUG = "unplug"
    REBOOT = "reboot"
    VERSION = "version"

    @property
    def per_frame(self) -> bool:
        return self in _BYTE_FAULTS


_BYTE_FAULTS = frozenset({Fault.NOISE, Fault.DROP, Fault.FLIP, Fault.TRUNCATE})
DEFAULT_RATES = {
    Fault.NOISE: 0.05,
    Fault.DROP: 0.02,
    Fault.FLIP: 0.02,
    Fault.TRUNCATE: 0.02,
    Fault.UNPLUG: 0.05,
    Fault.REBOOT: 0.05,
    Fault.VERSION: 0.03,
}
UNPLUG_S = 0.5
REBOOT_S = 0.3
VERSION_S = 2.0


@dataclass(frozen=True, slots=True)
class FaultPlan:
    rates: tuple[tuple[Fault, float], ...] = ()
    unplug_s: float = UNPLUG_S
    reboot_s: float = REBOOT_S
    version_s: float = VERSION_S

    def rate(self, fault: Fault) -> float:
        return dict(self.rates).get(fault, 0.0)


NO_FAULTS = FaultPlan()


def parse_faults(spec: str) -> FaultPlan:
    """``"noise,flip=0.1"`` → a plan; FaultSpecError names the bad item."""
    rates: dict[Fault, float] = {}
    for item in filter(None, (part.strip() for part in spec.split(","))):
        name, _, rate_text = item.partition("=")
        try:
            fault = Fault(name.strip().lower())
        except ValueError:
            known = ", ".join(f.value for f in Fault)
            raise FaultSpecError(f"unknown fault {name!r} in {spec!r} (known: {known})") from None
        rate = DEFAULT_RATES[fault]
        if rate_text:
            try:
                rate = float(rate_text)
            except ValueError:
                raise FaultSpecError(f"rate {rate_text!r} of fault {name!r} is not a number") from None
        if rate < 0 or (fault.per_frame and rate > 1):
            bound = "between 0 and 1 (a probability per frame)" if fault.per_frame else "0 or more (per second)"
            raise FaultSpecError(f"rate {rate} of fault {name!r} must be {bound}")
        rates[fault] = rate
    return FaultPlan(tuple(rates.items()))


class ByteFaults:
    """Corrupts outgoing frames; seeded, so a failing test run can be replayed."""

    def __init__(self, plan: FaultPlan, rng: random.Random) -> None:
        self._rng = rng
        self._noise = plan.rate(Fault.NOISE)
        self._drop = plan.rate(Fault.DROP)
        self._flip = plan.rate(Fault.FLIP)
        self._truncate = plan.rate(Fault.TRUNCATE)
        self.injected: dict[Fault, int] = dict.fromkeys(_BYTE_FAULTS, 0)

    def corrupt(self, frame: bytes) -> bytes:
        rng = self._rng
        data = bytearray(frame)
        if self._drop and rng.random() < self._drop:
            del data[rng.randrange(len(data))]
            self.injected[Fault.DROP] += 1
        if self._flip and rng.random() < self._flip:
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
            self.injected[Fault.FLIP] += 1
        if self._truncate and rng.random() < self._truncate and len(data) > 2:
            del data[rng.randrange(1, len(data) - 1) :]
            self.injected[Fault.TRUNCATE] += 1
        if self._noise and rng.random() < self._noise:
            data[0:0] = rng.randbytes(rng.randint(1, 8))
            self.injected[Fault.NOISE] += 1
        return bytes(data)


class EventClock:
    """When the next board fault (unplug, reboot, version) happens: exponential waiting times."""

    def __init__(self, plan: FaultPlan, rng: random.Random, now: float) -> None:
        self._rng = rng
        self._rates = {fault: plan.rate(fault) for fault in (Fault.UNPLUG, Fault.REBOOT, Fault.VERSION)}
        self._due = {fault: self._next(fault, now) for fault in self._rates}

    def _next(self, fault: Fault, now: float) -> float:
        rate = self._rates[fault]
        return now + self._rng.expovariate(rate) if rate > 0 else float("inf")

    def due(self, now: float) -> list[Fault]:
        """The board faults whose time has come (each is then rescheduled)."""
        fired = [fault for fault, at in self._due.items() if at <= now]
        for fault in fired:
            self._due[fault] = self._next(fault, now)
        return fired

    def next_at(self) -> float:
        return min(self._due.values())
