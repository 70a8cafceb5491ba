"""The sensor-board firmware under CPython, with a fake ``machine`` module.

Given raw ADC values and load-cell counts, the board must emit frames that the host's codec
decodes to the expected points, deposit and live wall; and the board's own little encoder
must produce exactly the bytes the host's codec produces.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path

import jt_board
import jt_config
import jt_usb
import jt_wire
import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.calibration import default_calibration
from firmware_bridge.frame import Frame, FrameDecoder, encode_frame
from firmware_bridge.link_settings import LinkSettings
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
    SlotChanged,
    SlotSample,
    State,
    WallChanged,
)
from firmware_bridge.observations import CommandAnswer, LinkState, LinkStatus, ReadingFlag, TrayReading
from firmware_bridge.plausibility import GameLimits
from firmware_bridge.session import LinkSession
from firmware_bridge.simulator import compose_tray

from . import fake_machine

CAL = default_calibration()


class FakePort:
    def __init__(self) -> None:
        self.sent = bytearray()
        self.incoming = bytearray()

    def read(self) -> bytes:
        data = bytes(self.incoming)
        self.incoming.clear()
        return data

    def write(self, data: bytes) -> None:
        self.sent += data

    def take(self) -> bytes:
        data = bytes(self.sent)
        self.sent.clear()
        return data


class Rig:
    """The firmware on fake hardware, a fake millisecond clock, and the host's session."""

    def __init__(self, tmp_path: Path) -> None:
        fake_machine.reset()
        self.ms = 0
        self.port = FakePort()
        self.board = jt_board.build(fake_machine, self.port, str(tmp_path / "calibration.json"), lambda: self.ms)
        self.table = fake_machine.FakeTableHardware(
            wiring=jt_config.WIRING,
            deposit_wiring=jt_config.DEPOSIT_WIRING,
            select_pins=jt_config.MUX_SELECT_PINS,
            hx711_clock=jt_config.HX711_CLOCK,
            hx711_data=jt_config.HX711_DATA,
            counts_per_tile=jt_config.COUNTS_PER_TILE,
        )
        self.host = LinkSession(CAL, GameLimits(), LinkSettings())
        self.port.incoming += self.host.opened(0.0).outgoing

    def lay_out(self, points: tuple[int, int, int, int], deposit: int) -> None:
        for seat, seat_points in enumerate(points):
            for slot, count in enumerate(compose_tray(seat_points, jt_config.DENOMINATIONS, GameLimits())):
                self.table.slot_raw[(seat, slot)] = CAL.slot(seat, slot).raw_for(count) + (2 if slot % 2 else -2)
        self.table.deposit_raw = CAL.deposit.raw_for(deposit)

    def run(self, ms: int) -> list[object]:
        """Let the board run for ``ms`` (a scan every 20 ms); what the host made of its frames."""
        observations: list[object] = []
        for _ in range(ms // 20):
            self.ms += 20
            self.board.step()
            step = self.host.receive(self.port.take(), self.ms / 1000)
            self.port.incoming += step.outgoing
            observations += step.observations
        return observations


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    rig = Rig(tmp_path)
    rig.board.boot()
    yield rig
    fake_machine.reset()


def readings(observations: list[object]) -> list[TrayReading]:
    return [o for o in observations if isinstance(o, TrayReading)]


def test_raw_adc_values_become_the_expected_points(rig: Rig) -> None:
    rig.lay_out((32000, 18000, 25000, 24000), deposit=1)
    seen = rig.run(400)
    status = [o for o in seen if isinstance(o, LinkStatus)]
    assert status[-1].state is LinkState.CONNECTED
    assert status[-1].board is not None
    assert status[-1].board.board_id == jt_board.board_id_from(fake_machine.unique_id())
    reading = readings(seen)[-1]
    assert reading.points == (32000, 18000, 25000, 24000)
    assert reading.deposit == 1
    assert reading.wall == 70  # 84 tiles standing after the deal
    # The board is not calibrated yet, and says so; otherwise the reading is sound.
    assert [f.kind for f in reading.flags] == [ReadingFlag.BOARD_ERROR]


def test_a_payment_and_the_wall_counting_down_are_followed(rig: Rig) -> None:
    rig.lay_out((25000,) * 4, deposit=0)
    rig.run(300)
    rig.lay_out((17300, 32700, 25000, 25000), deposit=0)
    rig.table.tiles_standing = 60
    reading = readings(rig.run(300))[-1]
    assert reading.points == (17300, 32700, 25000, 25000)
    assert reading.wall == 46
    rig.table.tiles_standing = 136  # the walls rise for the next hand
    new_hand = readings(rig.run(300))[-1]
    assert new_hand.wall == 70
    assert new_hand.hand == reading.hand + 1


def test_calibration_from_the_host_is_acknowledged_stored_and_announced(rig: Rig, tmp_path: Path) -> None:
    rig.lay_out((25000,) * 4, deposit=0)
    rig.run(200)
    commands: list[Message] = [
        CalibrateSlot(0, 0, 26_000, 1_000_000),
        CalibrateSlot(DEPOSIT_SEAT, 0, 26_100, 200_000),
        CalibrateSlot(7, 0, 1, 1),
        CommitCalibration(321),
    ]
    seqs = []
    for command in commands:
        seqs.append(rig.host.next_seq)
        rig.port.incoming += rig.host.encode(command)
    after_commit = rig.run(100)
    answers = [o for o in after_commit if isinstance(o, CommandAnswer)]
    assert [(a.echoed_seq, a.accepted) for a in answers] == [
        (seqs[0], True),
        (seqs[1], True),
        (seqs[2], False),
        (seqs[3], True),
    ]
    assert (tmp_path / "calibration.json").exists()
    rig.port.incoming += rig.host.encode(RequestHello())
    after_commit += rig.run(40)
    assert rig.host.board is not None
    assert rig.host.board.calibration_id == 321
    # Calibrated now: the board no longer flags NOT_CALIBRATED, so the next reading is clean.
    later = readings(after_commit + rig.run(300))
    assert later
    assert later[-1].plausible


def test_an_adc_fault_is_reported_not_hidden(rig: Rig) -> None:
    rig.lay_out((25000,) * 4, deposit=0)
    rig.run(200)
    rig.table.unplug_adc()
    decoded = [f for f in FrameDecoder().feed(_raw_frames(rig, 300)) if isinstance(f, Frame)]
    states = [f.message for f in decoded if isinstance(f.message, State)]
    assert states
    assert all(s.board_flags & BoardFlag.ADC_FAULT for s in states)


def _raw_frames(rig: Rig, ms: int) -> bytes:
    out = bytearray()
    for _ in range(ms // 20):
        rig.ms += 20
        rig.board.step()
        out += rig.port.take()
    return bytes(out)


def test_the_wall_counter_counts_live_tiles_and_hands() -> None:
    counter = jt_board.WallCounter()
    for standing, live, hand in [(84, 70, 0), (83, 69, 0), (40, 26, 0), (0, 0, 0), (136, 70, 1), (84, 70, 1)]:
        counter.update(standing)
        assert (counter.live, counter.hand) == (live, hand)


u8 = st.integers(0, 0xFF)
u16 = st.integers(0, 0xFFFF)
u32 = st.integers(0, 0xFFFF_FFFF)
pairs = st.tuples(u16, u8)


@given(seq=u16, firmware=st.tuples(u8, u8, u8), board_id=u32, calibration_id=u16, capabilities=u16, slots=u8)
def test_board_hello_bytes_equal_the_host_codec(
    *, seq: int, firmware: tuple[int, int, int], board_id: int, calibration_id: int, capabilities: int, slots: int
) -> None:
    encoder = jt_wire.Encoder()
    encoder.seq = seq
    board = encoder.hello(firmware, board_id, calibration_id, capabilities, slots)
    host = Hello(1, 0, firmware, board_id, calibration_id, Capability(capabilities), slots)
    assert board == encode_frame(host, seq)


@given(
    seq=u16,
    flags=u16,
    hand=u8,
    wall=u8,
    kans=u8,
    deposit=pairs,
    trays=st.lists(st.lists(pairs, min_size=5, max_size=5), min_size=4, max_size=4),
    points=st.tuples(u32, u32, u32, u32),
)
def test_board_state_bytes_equal_the_host_codec(
    *,
    seq: int,
    flags: int,
    hand: int,
    wall: int,
    kans: int,
    deposit: tuple[int, int],
    trays: list[list[tuple[int, int]]],
    points: tuple[int, int, int, int],
) -> None:
    encoder = jt_wire.Encoder()
    encoder.seq = seq
    board = encoder.state(flags, hand, wall, kans, deposit, trays, list(points))
    host = State(
        BoardFlag(flags),
        hand,
        wall,
        kans,
        SlotSample(*deposit),
        tuple(tuple(SlotSample(*s) for s in tray) for tray in trays),
        points,
    )
    assert board == encode_frame(host, seq)


@given(seq=u16, seat=st.integers(0, 4), slot=st.integers(0, 7), raw=u16, count=u8, small=u8, uptime=u32)
def test_board_small_messages_equal_the_host_codec(
    *, seq: int, seat: int, slot: int, raw: int, count: int, small: int, uptime: int
) -> None:
    pairs_of_bytes = [
        (lambda e: e.slot_changed(seat, slot, raw, count), SlotChanged(seat, slot, SlotSample(raw, count))),
        (lambda e: e.wall_changed(small, count, small), WallChanged(small, count, small)),
        (lambda e: e.heartbeat(uptime, raw), Heartbeat(uptime, BoardFlag(raw))),
        (lambda e: e.ack(raw), Ack(raw)),
        (lambda e: e.nak(raw, 2), Nak(raw, NakReason.BAD_ARGUMENT)),
    ]
    for board_encode, host_message in pairs_of_bytes:
        encoder = jt_wire.Encoder()
        encoder.seq = seq
        assert board_encode(encoder) == encode_frame(host_message, seq)


@given(st.binary(max_size=300))
def test_board_command_decoder_survives_garbage(noise: bytes) -> None:
    decoder = jt_wire.CommandDecoder()
    commands = decoder.feed(noise + encode_frame(RequestHello(), 9))
    assert commands[-1] == (9, jt_wire.REQUEST_HELLO, b"")


def test_usb_port_reads_what_arrived_without_blocking_and_writes_through() -> None:
    read_fd, write_fd = os.pipe()
    with os.fdopen(read_fd, "rb", buffering=0) as incoming, io.BytesIO() as outgoing:
        port = jt_usb.UsbPort(incoming, outgoing)
        assert port.read() == b""  # nothing yet: returns at once
        os.write(write_fd, encode_frame(RequestHello(), 1))
        assert port.read() == encode_frame(RequestHello(), 1)
        port.write(b"\x00\x01\x00")
        assert outgoing.getvalue() == b"\x00\x01\x00"
    os.close(write_fd)
