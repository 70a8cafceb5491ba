"""The protocol session as a pure state machine: time and bytes in, observations out."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest

from firmware_bridge.calibration import default_calibration
from firmware_bridge.cobs import cobs_encode
from firmware_bridge.crc import crc16_ccitt_false
from firmware_bridge.frame import FrameDecoder, encode_frame
from firmware_bridge.link_settings import LinkSettings
from firmware_bridge.messages import (
    Ack,
    BoardFlag,
    Capability,
    CommitCalibration,
    Heartbeat,
    Hello,
    Message,
    RequestHello,
    RequestState,
    SlotChanged,
    SlotSample,
    State,
    WallChanged,
)
from firmware_bridge.observations import CommandAnswer, LinkState, LinkStatus, ReadingFlag, TrayReading
from firmware_bridge.plausibility import GameLimits
from firmware_bridge.session import LinkAction, LinkSession, SessionStep
from firmware_bridge.simulator import compose_tray

CAL = default_calibration()
DENOMS = (10000, 5000, 1000, 500, 100)
HELLO = Hello(1, 0, (1, 2, 3), 0xBEEF, 1, Capability.RESISTOR_STICKS, 5)


def tray(points: int) -> tuple[SlotSample, ...]:
    counts = compose_tray(points, DENOMS, GameLimits())
    return tuple(SlotSample(CAL.slot(0, slot).raw_for(n), n) for slot, n in enumerate(counts))


def state(points: tuple[int, int, int, int] = (25000,) * 4, deposit: int = 0, wall: int = 70, hand: int = 1) -> State:
    dep = SlotSample(CAL.deposit.raw_for(deposit), deposit)
    return State(BoardFlag(0), hand, wall, 0, dep, tuple(tray(p) for p in points), points)


class Board:
    """Frames with consecutive sequence numbers, like the board sends them."""

    def __init__(self) -> None:
        self.seq = 0

    def __call__(self, *messages: Message) -> bytes:
        out = b""
        for message in messages:
            out += encode_frame(message, self.seq)
            self.seq += 1
        return out


def connected(settings: LinkSettings | None = None) -> tuple[LinkSession, Board, SessionStep]:
    session = LinkSession(CAL, GameLimits(), settings or LinkSettings())
    opened = session.opened(0.0)
    board = Board()
    step = session.receive(board(HELLO), 0.01)
    return session, board, SessionStep([*opened.observations, *step.observations], step.outgoing, step.action)


def readings(step: SessionStep) -> list[TrayReading]:
    return [o for o in step.observations if isinstance(o, TrayReading)]


def test_handshake_asks_for_hello_acknowledges_it_and_asks_for_state() -> None:
    session = LinkSession(CAL, GameLimits(), LinkSettings())
    opened = session.opened(0.0)
    assert [f.message for f in FrameDecoder().feed(bytes(opened.outgoing))] == [RequestHello()]
    step = session.receive(encode_frame(HELLO, 5), 0.1)
    assert [f.message for f in FrameDecoder().feed(bytes(step.outgoing))] == [Ack(5), RequestState()]
    status = [o for o in step.observations if isinstance(o, LinkStatus)]
    assert status[0].state is LinkState.CONNECTED
    assert status[0].board == HELLO
    assert "firmware 1.2.3" in status[0].detail


def test_hello_is_repeated_then_the_link_is_lost_without_an_answer() -> None:
    session = LinkSession(CAL, GameLimits(), LinkSettings())
    session.opened(0.0)
    assert session.tick(0.1).outgoing == b""
    assert FrameDecoder().feed(bytes(session.tick(0.3).outgoing))[0].message == RequestHello()  # type: ignore[union-attr]
    lost = session.tick(2.0)
    assert lost.action is LinkAction.RECONNECT
    assert "no HELLO" in lost.observations[0].detail  # type: ignore[union-attr]


def test_other_protocol_version_is_refused_with_a_clear_error() -> None:
    session = LinkSession(CAL, GameLimits(), LinkSettings())
    session.opened(0.0)
    hello = replace(HELLO, protocol_major=2)
    for seq in range(2):  # a board that speaks protocol 2 sends nothing else
        assert session.receive(encode_frame(hello, seq, version=2), 0.1).action is LinkAction.CONTINUE
    step = session.receive(encode_frame(hello, 2, version=2), 0.2)
    assert step.action is LinkAction.REFUSED
    (status,) = step.observations
    assert isinstance(status, LinkStatus)
    assert status.state is LinkState.INCOMPATIBLE
    assert "protocol 2" in status.detail
    assert "protocol 1" in status.detail


def test_a_board_with_other_slots_is_refused() -> None:
    session = LinkSession(CAL, GameLimits(), LinkSettings())
    session.opened(0.0)
    step = session.receive(encode_frame(replace(HELLO, slots_per_tray=6), 0), 0.1)
    assert step.action is LinkAction.REFUSED
    assert "6 slots per tray" in step.observations[-1].detail  # type: ignore[union-attr]


def test_reading_is_reported_after_debounce_and_only_when_it_changes() -> None:
    session, board, _ = connected()
    assert readings(session.receive(board(state()), 0.1)) == []
    (reading,) = readings(session.receive(board(state()), 0.2))
    assert reading.points == (25000,) * 4
    assert reading.deposit == 0
    assert reading.wall == 70
    assert reading.plausible
    assert reading.sticks[0] == (2, 1, 0, 0, 0)
    assert reading.raw[0] == tuple(sample.raw for sample in state().trays[0])
    assert reading.deposit_raw == CAL.deposit.raw_for(0)
    assert readings(session.receive(board(state()), 0.3)) == []


def test_a_transient_during_a_payment_is_not_a_reading() -> None:
    session, board, _ = connected()
    session.receive(board(state(), state()), 0.1)
    half_paid = board(SlotChanged(0, 2, SlotSample(CAL.slot(0, 2).raw_for(0), 0)))
    assert readings(session.receive(half_paid, 0.2)) == []
    paid = state((17300, 32700, 25000, 25000))
    got = readings(session.receive(board(paid, paid), 0.3))
    assert [r.points for r in got] == [(17300, 32700, 25000, 25000)]


def test_change_events_patch_the_snapshot() -> None:
    session, board, _ = connected()
    session.receive(board(state(), state()), 0.1)
    got = readings(session.receive(board(WallChanged(1, 60, 0), WallChanged(1, 60, 0)), 0.2))
    assert [r.wall for r in got] == [60]


def test_after_a_lost_frame_changes_wait_for_the_next_snapshot() -> None:
    session, board, _ = connected()
    session.receive(board(state(), state()), 0.1)
    board.seq += 1  # a frame is lost on the line
    assert readings(session.receive(board(WallChanged(1, 50, 0), WallChanged(1, 50, 0)), 0.2)) == []
    assert session.counters.lost_frames == 1
    got = readings(session.receive(board(state(wall=50), state(wall=50)), 0.3))
    assert [r.wall for r in got] == [50]


def test_implausible_readings_are_flagged_not_dropped() -> None:
    session, board, _ = connected()
    wrong_total = state((25000, 25000, 25000, 24000))
    (reading,) = readings(session.receive(board(wrong_total, wrong_total), 0.1))
    assert [f.kind for f in reading.flags] == [ReadingFlag.TOTAL_MISMATCH]
    assert "99000" in reading.flags[0].detail


def test_the_wall_may_not_rise_within_a_hand_but_may_with_a_new_one() -> None:
    session, board, _ = connected()
    session.receive(board(state(wall=40), state(wall=40)), 0.1)
    (rose,) = readings(session.receive(board(state(wall=45), state(wall=45)), 0.2))
    assert [f.kind for f in rose.flags] == [ReadingFlag.WALL_ROSE]
    (new_hand,) = readings(session.receive(board(state(wall=70, hand=2), state(wall=70, hand=2)), 0.3))
    assert new_hand.plausible


def test_overfull_slot_inexact_slot_and_board_disagreement_are_flagged() -> None:
    session, board, _ = connected()
    base = state()
    overfull = list(base.trays[0])
    overfull[0] = SlotSample(CAL.slot(0, 0).raw_for(5), 5)  # the set has four 10000 sticks
    between = list(base.trays[1])
    between[2] = SlotSample(round((CAL.slot(1, 2).raw_for(1) + CAL.slot(1, 2).raw_for(2)) / 2), 1)
    liar = list(base.trays[2])
    liar[4] = SlotSample(CAL.slot(2, 4).raw_for(3), 4)
    odd = replace(base, trays=(tuple(overfull), tuple(between), tuple(liar), base.trays[3]))
    (reading,) = readings(session.receive(board(odd, odd), 0.1))
    kinds = {f.kind for f in reading.flags}
    assert {ReadingFlag.SLOT_OVERFULL, ReadingFlag.INEXACT_SLOT, ReadingFlag.BOARD_DISAGREES} <= kinds
    assert any("seat 0, 10000-point slot" in f.detail for f in reading.flags)


def test_silence_is_a_heartbeat_timeout() -> None:
    session, _board, _ = connected()
    assert session.tick(1.0).action is LinkAction.CONTINUE
    lost = session.tick(1.6)
    assert lost.action is LinkAction.RECONNECT
    assert "heartbeat timeout" in lost.observations[0].detail  # type: ignore[union-attr]


def test_garbage_on_the_line_reconnects() -> None:
    session, _board, _ = connected(LinkSettings(garbage_limit=4))
    step = session.receive(b"\x00\x07\x01\x02\x00" * 4, 0.1)
    assert step.action is LinkAction.RECONNECT
    assert "garbage" in step.observations[-1].detail  # type: ignore[union-attr]


def test_a_board_restart_is_reported_and_readings_start_afresh() -> None:
    session, board, _ = connected()
    session.receive(board(state(), state()), 0.1)
    board.seq = 0
    step = session.receive(board(HELLO), 0.2)
    (status,) = [o for o in step.observations if isinstance(o, LinkStatus)]
    assert status.state is LinkState.CONNECTED
    assert "restarted" in status.detail
    got = readings(session.receive(board(state(hand=0), state(hand=0)), 0.3))
    assert [r.points for r in got] == [(25000,) * 4]


def test_our_own_commands_echoed_back_are_ignored() -> None:
    session, _board, _ = connected()
    step = session.receive(encode_frame(RequestState(), 9) * 20, 0.1)
    assert step.action is LinkAction.CONTINUE
    assert step.observations == []


def test_unknown_message_types_from_a_newer_minor_version_are_ignored_not_garbage() -> None:
    session, _board, _ = connected(LinkSettings(garbage_limit=2))
    payload = bytes([1, 0, 9, 0x7E, 1, 2])
    frame = b"\x00" + cobs_encode(payload + crc16_ccitt_false(payload).to_bytes(2, "big")) + b"\x00"
    step = session.receive(frame * 5, 1.4)
    assert step.action is LinkAction.CONTINUE
    assert session.tick(2.0).action is LinkAction.CONTINUE  # they count as signs of life


def test_an_answer_to_a_command_is_reported_and_keeps_the_sequence() -> None:
    session, board, _ = connected()
    session.receive(board(state(), state()), 0.1)
    command_seq = session.next_seq
    session.encode(CommitCalibration(5))
    step = session.receive(board(Ack(command_seq), WallChanged(1, 60, 0), WallChanged(1, 60, 0)), 0.2)
    answers = [o for o in step.observations if isinstance(o, CommandAnswer)]
    assert [(a.echoed_seq, a.accepted) for a in answers] == [(command_seq, True)]
    assert [r.wall for r in readings(step)] == [60]  # the ACK was no gap in the sequence
    assert session.counters.lost_frames == 0


def test_an_ack_that_answers_nothing_of_ours_is_ignored() -> None:
    session, _board, _ = connected()
    step = session.receive(encode_frame(Ack(0), 1), 0.1)  # our own ACK of HELLO, looped back
    assert step.observations == []


def test_a_hello_announcing_another_major_version_is_refused_even_in_a_v1_frame() -> None:
    session = LinkSession(CAL, GameLimits(), LinkSettings())
    session.opened(0.0)
    step = session.receive(encode_frame(replace(HELLO, protocol_major=3, protocol_minor=1), 0), 0.1)
    assert step.action is LinkAction.REFUSED
    assert "protocol 3.1" in step.observations[-1].detail  # type: ignore[union-attr]


def test_raw_bytes_go_to_their_own_logger(caplog: pytest.LogCaptureFixture) -> None:
    session, board, _ = connected()
    with caplog.at_level(logging.DEBUG, logger="firmware_bridge.wire"):
        session.receive(board(WallChanged(1, 50, 0)) + b"\x00\x07\x07\x00", 0.1)
    wire = [r for r in caplog.records if r.name == "firmware_bridge.wire"]
    assert any("rx @" in r.getMessage() for r in wire)
    assert any("rejected" in r.getMessage() and "stream offset" in r.getMessage() for r in wire)


def test_a_noise_frame_of_another_version_that_passes_the_crc_is_counted_and_skipped() -> None:
    session, board, _ = connected()
    session.receive(board(state(), state()), 0.1)
    noise = encode_frame(Heartbeat(0, BoardFlag(0)), 0x1234, version=0x5A)  # CRC-valid, from nowhere
    step = session.receive(noise + board(WallChanged(1, 60, 0), WallChanged(1, 60, 0)) + noise, 0.2)
    assert step.action is LinkAction.CONTINUE
    assert [r.wall for r in readings(step)] == [60]  # the link read on, nothing lost
    assert not any(isinstance(o, LinkStatus) for o in step.observations)
    assert session.running
    assert session.counters.other_version == 2
    assert session.counters.lost_frames == 0
    # interleaved with good frames they never add up to a refusal
    for at in range(10):
        step = session.receive(noise + board(Heartbeat(1, BoardFlag(0))), 0.3 + at * 0.1)
        assert step.action is LinkAction.CONTINUE
    assert session.counters.other_version == 12
