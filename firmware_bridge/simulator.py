"""``TableSimulator``: a sensor board and the table it sits in, speaking the real protocol.

Pure and clock-driven: ``poll(now)`` returns the bytes the board would have sent by ``now``,
``receive(data, now)`` answers the host. Transports (a pty, pyserial ``loop://``, the fake
port) live in sim_transport.py and fake_port.py and only move bytes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge.calibration import TableCalibration, default_calibration
from firmware_bridge.frame import PROTOCOL_MINOR, PROTOCOL_VERSION, Frame, FrameDecoder, encode_frame
from firmware_bridge.messages import (
    DEPOSIT_SEAT,
    Ack,
    BoardFlag,
    CalibrateSlot,
    Capability,
    CommitCalibration,
    Heartbeat,
    Hello,
    Message,
    Nak,
    NakReason,
    RequestHello,
    RequestState,
    SlotChanged,
    SlotSample,
    State,
    WallChanged,
)
from firmware_bridge.plausibility import GameLimits
from firmware_bridge.sim_faults import NO_FAULTS, ByteFaults, EventClock, Fault, FaultPlan
from firmware_bridge.sim_script import TableScript, TableState, apply_step, builtin_script

SIM_BOARD_ID = 0x4A414E54  # "JANT"
SIM_FIRMWARE = (1, 0, 0)
SIM_CAPABILITIES = (
    Capability.RESISTOR_STICKS
    | Capability.DEPOSIT_SLOT
    | Capability.WALL_COUNT
    | Capability.KAN_COUNT
    | Capability.CHANGE_EVENTS
)


@dataclass(frozen=True, slots=True)
class SimulatorOutput:
    data: bytes
    unplug_s: float = 0.0  # > 0: the transport should disappear for this long, then call replugged()


def compose_tray(points: int, denominations: tuple[int, ...], limits: GameLimits) -> tuple[int, ...]:
    """How a player would hold ``points`` in sticks: big sticks first, no slot beyond the set."""
    counts = []
    rest = points
    for value in denominations:
        count = min(rest // value, limits.sticks_in_set(value))
        counts.append(count)
        rest -= count * value
    if rest:
        raise ValueError(f"{points} points cannot be laid out in one tray with this stick set")
    return tuple(counts)


class TableSimulator:
    def __init__(
        self,
        script: TableScript | None = None,
        *,
        calibration: TableCalibration | None = None,
        limits: GameLimits | None = None,
        faults: FaultPlan = NO_FAULTS,
        seed: int = 0,
        snapshot_interval_s: float = 0.1,
        heartbeat_interval_s: float = 1.0,
        announce_interval_s: float | None = None,
        adc_jitter: int = 3,
        script_clock: Callable[[], float] | None = None,
    ) -> None:
        self._script = script or builtin_script()
        # The script's own clock (seconds from the script's zero), when its steps follow
        # something other than the board's time: the demo's rendered world, which moves only as
        # fast as the vision pipeline reads it. The board's heartbeats and snapshots keep ``now``.
        self._script_clock = script_clock
        self._calibration = calibration or default_calibration()
        self._limits = limits or GameLimits()
        self._denominations = tuple(slot.denomination for slot in self._calibration.trays[0])
        self._faults = faults
        self._rng = random.Random(seed)
        self._byte_faults = ByteFaults(faults, self._rng)
        self._snapshot_interval = snapshot_interval_s
        self._heartbeat_interval = heartbeat_interval_s
        self._announce_interval = announce_interval_s
        self._jitter = adc_jitter
        self._decoder = FrameDecoder()
        self.table = TableState()
        self.history: list[TableState] = [self.table]  # every state the table has been in
        self.calibration_id = self._calibration.calibration_id
        self.injected: dict[Fault, int] = dict.fromkeys(Fault, 0)
        self._events: EventClock | None = None
        self._started_at = 0.0
        self._cycle = 0
        self._index = 0
        self._seq = 0
        self._board_hand = 0
        self._version = PROTOCOL_VERSION
        self._version_until = float("inf")
        self._silent_until = 0.0
        self._hello_due = False
        self._next_snapshot = self._next_heartbeat = self._next_announce = 0.0

    # -- the board's life -------------------------------------------------------------------
    def start(self, now: float) -> bytes:
        """Power on: the script starts and the board says HELLO."""
        self._started_at = now
        self._events = EventClock(self._faults, self._rng, now)
        self._boot(now)
        return self.poll(now).data

    def replugged(self, now: float) -> None:
        """The cable is back: a bus-powered board boots again."""
        self._boot(now)

    def reboot(self, now: float, silent_s: float | None = None) -> None:
        """The board restarts: silent for a while, then HELLO with its sequence from 0."""
        self._boot(now, self._faults.reboot_s if silent_s is None else silent_s)

    def _boot(self, now: float, silent_s: float = 0.0) -> None:
        self._seq = 0
        self._board_hand = 0
        self._decoder = FrameDecoder()
        self._silent_until = now + silent_s
        self._hello_due = True
        self._next_snapshot = self._silent_until
        self._next_heartbeat = self._silent_until + self._heartbeat_interval
        self._next_announce = self._silent_until + (self._announce_interval or 0.0)

    def next_due(self) -> float:
        """When poll() next has something to send (a transport may sleep until then)."""
        due = min(self._next_snapshot, self._next_heartbeat, self._silent_until if self._hello_due else float("inf"))
        if self._events is not None:
            due = min(due, self._events.next_at())
        return due

    def poll(self, now: float) -> SimulatorOutput:
        out = bytearray()
        unplug_s = self._board_faults(now)
        if unplug_s:
            return SimulatorOutput(b"", unplug_s)
        if now < self._silent_until:
            self._advance_script(now, out, send=False)
            return SimulatorOutput(b"")
        if self._version != PROTOCOL_VERSION and now >= self._version_until:
            self._version = PROTOCOL_VERSION  # reflashed back: boots again speaking our protocol
            self._boot(now)
        if self._hello_due:
            self._hello_due = False
            out += self._emit(self._hello())
        self._advance_script(now, out, send=True)
        if now >= self._next_snapshot:
            out += self._emit(self._state())
            self._next_snapshot = max(self._next_snapshot + self._snapshot_interval, now)
        if now >= self._next_heartbeat:
            out += self._emit(Heartbeat(round((now - self._started_at) * 1000) & 0xFFFFFFFF, BoardFlag(0)))
            self._next_heartbeat = max(self._next_heartbeat + self._heartbeat_interval, now)
        if self._announce_interval is not None and now >= self._next_announce:
            out += self._emit(self._hello())
            self._next_announce = now + self._announce_interval
        return SimulatorOutput(bytes(out))

    def _board_faults(self, now: float) -> float:
        if self._events is None:
            return 0.0
        for fault in self._events.due(now):
            self.injected[fault] += 1
            if fault is Fault.UNPLUG:
                return self._faults.unplug_s
            if fault is Fault.REBOOT:
                self.reboot(now)
            elif fault is Fault.VERSION:
                self._version = PROTOCOL_VERSION + 1
                self._version_until = now + self._faults.version_s
                self._boot(now, self._faults.reboot_s)
        return 0.0

    # -- the table ---------------------------------------------------------------------------
    def _advance_script(self, now: float, out: bytearray, *, send: bool) -> None:
        script = self._script
        if self._script_clock is not None:
            now, origin = self._script_clock(), 0.0
        else:
            origin = self._started_at
        while True:
            base = origin + self._cycle * (script.loop_after_s or 0.0)
            if self._index < len(script.steps):
                step = script.steps[self._index]
                if base + step.at > now:
                    return
                self._index += 1
                before = self.table
                self.table = apply_step(before, step, f"{script.source}:{step.line}")
                self.history.append(self.table)
                if self.table.hands != before.hands:
                    self._board_hand = (self._board_hand + 1) & 0xFF
                if send:
                    out += self._changes(before, self.table)
            elif script.loop_after_s is not None and now >= base + script.loop_after_s:
                self._cycle += 1
                self._index = 0
            else:
                return

    def _changes(self, before: TableState, after: TableState) -> bytes:
        out = bytearray()
        for seat in range(4):
            old = compose_tray(before.points[seat], self._denominations, self._limits)
            new = compose_tray(after.points[seat], self._denominations, self._limits)
            for slot, (was, now_count) in enumerate(zip(old, new, strict=True)):
                if was != now_count:
                    out += self._emit(SlotChanged(seat, slot, self._sample(seat, slot, now_count)))
        if before.deposit != after.deposit:
            out += self._emit(SlotChanged(DEPOSIT_SEAT, 0, self._deposit_sample(after.deposit)))
        if (before.wall, before.kans, before.hands) != (after.wall, after.kans, after.hands):
            out += self._emit(WallChanged(self._board_hand, after.wall, after.kans))
        return bytes(out)

    def _sample(self, seat: int, slot: int, count: int) -> SlotSample:
        raw = self._calibration.slot(seat, slot).raw_for(count) + self._rng.randint(-self._jitter, self._jitter)
        return SlotSample(max(1, raw), count)

    def _deposit_sample(self, count: int) -> SlotSample:
        raw = self._calibration.deposit.raw_for(count) + self._rng.randint(-self._jitter, self._jitter)
        return SlotSample(max(1, raw), count)

    def _state(self) -> State:
        table = self.table
        trays = []
        points = []
        for seat in range(4):
            counts = compose_tray(table.points[seat], self._denominations, self._limits)
            trays.append(tuple(self._sample(seat, slot, count) for slot, count in enumerate(counts)))
            points.append(sum(v * n for v, n in zip(self._denominations, counts, strict=True)))
        return State(
            BoardFlag(0),
            self._board_hand,
            table.wall,
            table.kans,
            self._deposit_sample(table.deposit),
            tuple(trays),
            (points[0], points[1], points[2], points[3]),
        )

    def _hello(self) -> Hello:
        return Hello(
            self._version,
            PROTOCOL_MINOR,
            SIM_FIRMWARE,
            SIM_BOARD_ID,
            self.calibration_id,
            SIM_CAPABILITIES,
            len(self._denominations),
        )

    def _emit(self, message: Message) -> bytes:
        frame = encode_frame(message, self._seq, self._version)
        self._seq = (self._seq + 1) & 0xFFFF
        return self._byte_faults.corrupt(frame)

    # -- the host's commands ----------------------------------------------------------------
    def receive(self, data: bytes, now: float) -> bytes:
        if now < self._silent_until:
            return b""  # rebooting: nobody is listening
        out = bytearray()
        for item in self._decoder.feed(data):
            if isinstance(item, Frame):
                out += self._answer(item)
        return bytes(out)

    def _answer(self, frame: Frame) -> bytes:
        message = frame.message
        match message:
            case RequestHello():
                return self._emit(self._hello())
            case RequestState():
                return self._emit(self._state())
            case CalibrateSlot(seat=seat, slot=slot):
                valid = (seat == DEPOSIT_SEAT and slot == 0) or (0 <= seat < 4 and slot < len(self._denominations))
                reply: Message = Ack(frame.seq) if valid else Nak(frame.seq, NakReason.BAD_ARGUMENT)
                return self._emit(reply)
            case CommitCalibration(calibration_id=calibration_id):
                self.calibration_id = calibration_id
                return self._emit(Ack(frame.seq))
            case Ack() | Nak():
                return b""
        return self._emit(Nak(frame.seq, NakReason.UNKNOWN_TYPE))

    @property
    def byte_faults_injected(self) -> dict[Fault, int]:
        return self._byte_faults.injected
