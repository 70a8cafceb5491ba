"""The simulator's script language, fault specification and board behaviour."""

from __future__ import annotations

import random

import pytest

from firmware_bridge.frame import Frame, FrameDecoder, encode_frame
from firmware_bridge.messages import (
    Ack,
    CalibrateSlot,
    CommitCalibration,
    Hello,
    Nak,
    RequestHello,
    RequestState,
    State,
)
from firmware_bridge.sim_faults import DEFAULT_RATES, ByteFaults, Fault, FaultSpecError, parse_faults
from firmware_bridge.sim_script import ScriptError, TableState, apply_step, builtin_script, parse_script
from firmware_bridge.simulator import TableSimulator


def frames(data: bytes) -> list[Frame]:
    return [item for item in FrameDecoder().feed(data) if isinstance(item, Frame)]


def test_builtin_script_loops_and_keeps_the_game_total() -> None:
    script = builtin_script()
    assert script.loop_after_s is not None
    table = TableState()
    for step in script.steps:
        table = apply_step(table, step, "test")
        assert table.total == 100_000
    assert table.points == TableState().points  # so it can loop for ever


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0 fly 1", "line:1: unknown action 'fly'"),
        ("0 draw 80", ":1: draw 80 but only 70 tiles"),
        ("0 pay 0 1 30000\n1 riichi 0", ":2: seat 0 has 0 points, no riichi stick"),
        ("0 hand 25000 25000 51000 -1000", "a tray cannot hold -1000 points"),
        ("0 pay 0 7 100", "seat 7 does not exist"),
        ("0 pay 0 1 150", "not a multiple of 100"),
        ("1 draw 1\n0 draw 1", ":2: time 0.0 comes before"),
        ("0 draw x", "'x' is not a whole number"),
        ("0 riichi", "riichi takes 1 numbers, got 0"),
        ("0 loop\n1 draw 1", "nothing may follow 'loop'"),
    ],
)
def test_script_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(ScriptError, match=message.replace("(", r"\(")):
        parse_script(text, "line")


def test_a_payment_beyond_the_tray_empties_it_and_the_rest_is_owed() -> None:
    script = parse_script("0 pay 3 0 12000\n1 hand 4900 25000 25000 45100\n2 pay 0 1 12000\n3 pay 0 2 1000")
    table = TableState()
    for step in script.steps[1:]:
        table = apply_step(table, step, "test")
    # seat 0 hands over its 4900 and owes 7100, then owes the whole 1000 too
    assert table.points == (0, 29900, 25000, 45100)
    assert table.owed == (8100, 0, 0, 0)
    assert table.total == 100_000  # sticks change hands; none appear for a debt


def test_a_debtor_pays_its_iou_from_the_first_sticks_it_gets() -> None:
    table = TableState()
    for step in parse_script("0 pay 0 1 30000\n1 pay 2 0 8000\n2 riichi 3\n3 take 0").steps:
        table = apply_step(table, step, "test")
        assert table.total == 100_000
    # 8000 in: 5000 goes to seat 1 for the IOU; then the riichi stick taken stays with seat 0
    assert table.points == (4000, 55000, 17000, 24000)
    assert table.owed == (0, 0, 0, 0)


def test_fault_spec_defaults_rates_and_errors() -> None:
    plan = parse_faults("noise, flip=0.5,unplug")
    assert plan.rate(Fault.NOISE) == DEFAULT_RATES[Fault.NOISE]
    assert plan.rate(Fault.FLIP) == 0.5
    assert plan.rate(Fault.DROP) == 0.0
    with pytest.raises(FaultSpecError, match="unknown fault 'nosie'"):
        parse_faults("nosie")
    with pytest.raises(FaultSpecError, match="between 0 and 1"):
        parse_faults("drop=2")
    with pytest.raises(FaultSpecError, match="is not a number"):
        parse_faults("reboot=often")


@pytest.mark.parametrize("fault", [Fault.NOISE, Fault.DROP, Fault.FLIP, Fault.TRUNCATE])
def test_every_byte_fault_corrupts_and_is_counted(fault: Fault) -> None:
    faults = ByteFaults(parse_faults(f"{fault.value}=1"), random.Random(1))
    frame = encode_frame(RequestState(), 1)
    assert faults.corrupt(frame) != frame
    assert faults.injected[fault] == 1


def test_board_says_hello_streams_state_and_answers_commands() -> None:
    sim = TableSimulator(parse_script("0 hand\n0.3 draw 5"))
    boot = frames(sim.start(0.0))
    assert isinstance(boot[0].message, Hello)
    assert any(isinstance(f.message, State) for f in boot)
    assert [f.seq for f in boot] == list(range(len(boot)))
    later = frames(sim.poll(0.35).data)
    assert any(isinstance(f.message, State) and f.message.wall == 65 for f in later)
    answer = frames(sim.receive(encode_frame(RequestHello(), 0) + encode_frame(CommitCalibration(42), 1), 0.4))
    assert isinstance(answer[0].message, Hello)
    assert answer[1].message == Ack(1)
    assert sim.calibration_id == 42
    (nak,) = frames(sim.receive(encode_frame(CalibrateSlot(9, 0, 1, 1), 2), 0.4))
    assert isinstance(nak.message, Nak)
    assert nak.message.echoed_seq == 2


def test_a_reboot_goes_silent_then_says_hello_from_seq_zero() -> None:
    sim = TableSimulator()
    sim.start(0.0)
    sim.poll(1.0)
    sim.reboot(1.0, 0.3)
    assert sim.poll(1.2).data == b""
    after = frames(sim.poll(1.35).data)
    assert isinstance(after[0].message, Hello)
    assert after[0].seq == 0


def test_the_reboot_fault_fires_at_its_rate() -> None:
    sim = TableSimulator(faults=parse_faults("reboot=1000"), seed=3)
    sim.start(0.0)
    assert sim.poll(0.01).data == b""
    assert sim.injected[Fault.REBOOT] >= 1
