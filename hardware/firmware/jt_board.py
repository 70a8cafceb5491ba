"""The sensor board's main logic: scan the sensors, speak the protocol (docs/protocol.md).

Runs on MicroPython (RP2040) and, for the tests, on CPython with a fake ``machine`` module.
"""

import json
import time

try:  # noqa: SIM105 - MicroPython has no contextlib
    from typing import Any
except ImportError:  # MicroPython has no typing module; annotations are ignored there
    pass

import jt_config as config
import jt_sensors
import jt_wire as wire

CAP_RESISTOR_STICKS = 0x0001
CAP_DEPOSIT_SLOT = 0x0004
CAP_WALL_COUNT = 0x0008
CAP_CHANGE_EVENTS = 0x0020
# No kan sensing on this board (capability 0x0010 off): the camera sees kans; STATE says 0.
CAPABILITIES = CAP_RESISTOR_STICKS | CAP_DEPOSIT_SLOT | CAP_WALL_COUNT | CAP_CHANGE_EVENTS

FLAG_ADC_FAULT = 0x0001
FLAG_WALL_SENSOR_FAULT = 0x0002
FLAG_NOT_CALIBRATED = 0x0004

NOMINAL_CALIBRATION_ID = 1

_ticks_ms = getattr(time, "ticks_ms", lambda: int(time.monotonic() * 1000))
_ticks_diff = getattr(time, "ticks_diff", lambda a, b: a - b)


class StickCalibration:
    """Per-slot (empty reading, per-stick step), stored as JSON on the board's flash."""

    def __init__(self, path: str) -> None:
        self._path = path
        self.calibration_id = NOMINAL_CALIBRATION_ID
        self.slots = [[[config.EMPTY_READING, config.PER_STICK[d]] for d in config.DENOMINATIONS] for _ in range(4)]
        self.deposit = [config.EMPTY_READING, config.DEPOSIT_PER_STICK]
        self.stored = False
        self._staged: dict[tuple[int, int], list[float]] = {}
        try:
            with open(path) as file:  # noqa: PTH123 - MicroPython has no pathlib
                data = json.load(file)
            self.calibration_id = data["id"]
            self.slots = data["slots"]
            self.deposit = data["deposit"]
            self.stored = True
        except (OSError, ValueError, KeyError):
            pass  # no stored calibration yet: the nominal one, and STATE says NOT_CALIBRATED

    def stage(self, seat: int, slot: int, empty: int, per_stick_micro: int) -> bool:
        """Keep one slot's values until commit; False for a slot this board does not have."""
        if empty <= 0 or per_stick_micro <= 0:
            return False
        if seat == wire.DEPOSIT_SEAT and slot == 0:
            self._staged[(seat, slot)] = [empty, per_stick_micro / 1000000]
            return True
        if 0 <= seat < 4 and 0 <= slot < config.SLOTS_PER_TRAY:
            self._staged[(seat, slot)] = [empty, per_stick_micro / 1000000]
            return True
        return False

    def commit(self, calibration_id: int) -> None:
        for (seat, slot), values in self._staged.items():
            if seat == wire.DEPOSIT_SEAT:
                self.deposit = values
            else:
                self.slots[seat][slot] = values
        self._staged = {}
        self.calibration_id = calibration_id
        with open(self._path, "w") as file:  # noqa: PTH123 - MicroPython has no pathlib
            json.dump({"id": calibration_id, "slots": self.slots, "deposit": self.deposit}, file)
        self.stored = True


def tray_points(tray: "list[tuple[int, int]]") -> int:
    """Points in a tray of (raw, count) slots, in DENOMINATIONS order."""
    return sum(value * tray[slot][1] for slot, value in enumerate(config.DENOMINATIONS))


def count_sticks(raw: int, empty: float, per_stick: float) -> int:
    """Resistor sticks in parallel under a reference resistor: see docs/protocol.md §6."""
    if raw <= 0:
        return 0
    return max(0, round((empty / raw - 1.0) / per_stick))


class WallCounter:
    """Live-wall tiles and the hand counter, from the tiles standing in the walls.

    After the deal 84 tiles stand: 70 live and 14 dead. Each draw (a kan's replacement tile
    included, since the live wall then gives one tile to the dead wall) takes one, so the live
    wall is what stands minus 14, at most 70. When the walls rise again for the next hand the
    count jumps up: that is a new hand.
    """

    def __init__(self) -> None:
        self.hand = 0
        self.live = config.LIVE_WALL_MAX
        self._lowest: int | None = None

    def update(self, standing: int) -> None:
        if self._lowest is None:
            self._lowest = standing
        elif standing >= self._lowest + config.NEW_HAND_RISE:
            self.hand = (self.hand + 1) & 0xFF
            self._lowest = standing
        else:
            self._lowest = min(self._lowest, standing)
        self.live = min(config.LIVE_WALL_MAX, max(0, standing - config.DEAD_WALL))


class Board:
    def __init__(  # noqa: PLR0917 - built by build() only
        self,
        slots: "Any",
        scale: "Any",
        port: "Any",
        calibration: StickCalibration,
        board_id: int,
        ticks_ms: "Any" = _ticks_ms,
    ) -> None:
        self._slots = slots
        self._scale = scale
        self._port = port
        self.calibration = calibration
        self._board_id = board_id
        self._ticks_ms = ticks_ms
        self._encoder = wire.Encoder()
        self._decoder = wire.CommandDecoder()
        self.wall = WallCounter()
        self.flags = 0
        self._boot_ms = ticks_ms()
        self._next_state = self._boot_ms
        self._next_heartbeat = self._boot_ms + config.HEARTBEAT_MS
        empty_tray = [(config.EMPTY_READING, 0)] * config.SLOTS_PER_TRAY
        self._trays: list[list[tuple[int, int]]] = [list(empty_tray) for _ in range(4)]
        self._deposit = (config.EMPTY_READING, 0)
        self._scanned = False

    def boot(self) -> None:
        self._send(self._hello())

    def step(self) -> None:
        """One pass of the main loop: commands, a sensor scan, changes, periodic frames."""
        for seq, kind, body in self._decoder.feed(self._port.read()):
            self._answer(seq, kind, body)
        self._scan()
        now = self._ticks_ms()
        if _ticks_diff(now, self._next_state) >= 0:
            self._send(self._state())
            self._next_state = now + config.SNAPSHOT_MS
        if _ticks_diff(now, self._next_heartbeat) >= 0:
            uptime = _ticks_diff(now, self._boot_ms)
            self._send(self._encoder.heartbeat(uptime, self._flags()))
            self._next_heartbeat = now + config.HEARTBEAT_MS

    def run_forever(self) -> None:
        self.boot()
        while True:
            self.step()

    # -- sensors ------------------------------------------------------------------------------
    def _scan(self) -> None:
        try:
            raw_trays, raw_deposit = self._slots.read()
            self.flags &= ~FLAG_ADC_FAULT
        except OSError:
            self.flags |= FLAG_ADC_FAULT
            return  # keep the last good readings; STATE carries the fault flag
        cal = self.calibration
        trays: list[list[tuple[int, int]]] = []
        for seat in range(4):
            tray: list[tuple[int, int]] = []
            for slot in range(config.SLOTS_PER_TRAY):
                raw = raw_trays[seat][slot]
                empty, per_stick = cal.slots[seat][slot]
                tray.append((raw, count_sticks(raw, empty, per_stick)))
            trays.append(tray)
        deposit = (raw_deposit, count_sticks(raw_deposit, cal.deposit[0], cal.deposit[1]))
        self._send_slot_changes(trays, deposit)
        self._trays, self._deposit = trays, deposit
        standing = self._scale.tiles()
        if standing is None:
            self.flags |= FLAG_WALL_SENSOR_FAULT
        else:
            self.flags &= ~FLAG_WALL_SENSOR_FAULT
            before = (self.wall.hand, self.wall.live)
            self.wall.update(standing)
            if self._scanned and before != (self.wall.hand, self.wall.live):
                self._send(self._encoder.wall_changed(self.wall.hand, self.wall.live, 0))
        self._scanned = True

    def _send_slot_changes(self, trays: "list[list[tuple[int, int]]]", deposit: "tuple[int, int]") -> None:
        if not self._scanned:
            return
        for seat in range(4):
            for slot in range(config.SLOTS_PER_TRAY):
                raw, count = trays[seat][slot]
                if count != self._trays[seat][slot][1]:
                    self._send(self._encoder.slot_changed(seat, slot, raw, count))
        if deposit[1] != self._deposit[1]:
            self._send(self._encoder.slot_changed(wire.DEPOSIT_SEAT, 0, deposit[0], deposit[1]))

    # -- frames -------------------------------------------------------------------------------
    def _flags(self) -> int:
        return self.flags | (0 if self.calibration.stored else FLAG_NOT_CALIBRATED)

    def _hello(self) -> bytes:
        frame: bytes = self._encoder.hello(
            config.FIRMWARE, self._board_id, self.calibration.calibration_id, CAPABILITIES, config.SLOTS_PER_TRAY
        )
        return frame

    def _state(self) -> bytes:
        points = [tray_points(tray) for tray in self._trays]
        wall = self.wall
        frame: bytes = self._encoder.state(self._flags(), wall.hand, wall.live, 0, self._deposit, self._trays, points)
        return frame

    def _answer(self, seq: int, kind: int, body: bytes) -> None:
        encoder = self._encoder
        if kind == wire.REQUEST_HELLO and not body:
            self._send(self._hello())
        elif kind == wire.REQUEST_STATE and not body:
            self._send(self._state())
        elif kind == wire.CALIBRATE_SLOT and len(body) == 8:
            seat, slot = body[0], body[1]
            empty = (body[2] << 8) | body[3]
            per_stick = (body[4] << 24) | (body[5] << 16) | (body[6] << 8) | body[7]
            ok = self.calibration.stage(seat, slot, empty, per_stick)
            self._send(encoder.ack(seq) if ok else encoder.nak(seq, wire.NAK_BAD_ARGUMENT))
        elif kind == wire.COMMIT_CALIBRATION and len(body) == 2:
            self.calibration.commit((body[0] << 8) | body[1])
            self._send(encoder.ack(seq))
        elif kind in (wire.ACK, wire.NAK):
            pass  # the host's answer to our HELLO: nothing to do
        else:
            self._send(encoder.nak(seq, wire.NAK_UNKNOWN_TYPE))

    def _send(self, frame: bytes) -> None:
        self._port.write(frame)


def board_id_from(unique_id: bytes) -> int:
    """Fold the RP2040's 8-byte flash id into the protocol's 32-bit board id."""
    folded = 0
    for index, byte in enumerate(unique_id):
        folded ^= byte << (8 * (index % 4))
    return folded


def build(
    machine: "Any", port: "Any", calibration_path: str = config.CALIBRATION_FILE, ticks_ms: "Any" = _ticks_ms
) -> Board:
    """Wire the board up from jt_config: the same on the RP2040 and in the tests."""
    i2c = machine.I2C(
        config.I2C_ID, scl=machine.Pin(config.I2C_SCL), sda=machine.Pin(config.I2C_SDA), freq=config.I2C_FREQ
    )
    adc = jt_sensors.Ads1115(i2c, config.ADS1115_ADDRESS)
    mux = jt_sensors.Mux16([machine.Pin(pin, machine.Pin.OUT) for pin in config.MUX_SELECT_PINS])
    slots = jt_sensors.TraySlots(adc, mux, config.WIRING, config.DEPOSIT_WIRING, config.SLOTS_PER_TRAY)
    clock = machine.Pin(config.HX711_CLOCK, machine.Pin.OUT)
    cells = [jt_sensors.Hx711(clock, machine.Pin(pin, machine.Pin.IN)) for pin in config.HX711_DATA]
    scale = jt_sensors.WallScale(cells, config.TARE, config.COUNTS_PER_TILE)
    calibration = StickCalibration(calibration_path)
    return Board(slots, scale, port, calibration, board_id_from(machine.unique_id()), ticks_ms)
