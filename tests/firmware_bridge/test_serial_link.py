"""SerialTableLink's I/O shell: failures become observations, and it reconnects by itself."""

from __future__ import annotations

import queue

from firmware_bridge.calibration import default_calibration
from firmware_bridge.fake_port import FakeClock, SimulatedBoard
from firmware_bridge.observations import CommandAnswer, LinkState, LinkStatus, TrayReading
from firmware_bridge.serial_link import LinkOutput, SerialTableLink
from firmware_bridge.sim_faults import parse_faults
from firmware_bridge.simulator import TableSimulator

from .helpers import collect_until, readings, states


def fake_link(simulator: TableSimulator) -> tuple[SerialTableLink, SimulatedBoard, queue.Queue[LinkOutput]]:
    outputs: queue.Queue[LinkOutput] = queue.Queue()
    clock = FakeClock()
    board = SimulatedBoard(simulator, clock)
    return SerialTableLink(board.open_port, outputs.put, clock=clock, pause=clock.advance), board, outputs


def test_unplug_is_lost_then_replug_gives_a_good_reading_within_two_seconds() -> None:
    link, board, outputs = fake_link(TableSimulator(faults=parse_faults("unplug=0.2"), seed=5))
    with link:
        seen = collect_until(outputs, lambda seen: _reading_after_loss(seen) is not None, timeout_s=20)
    lost, reading = _reading_after_loss(seen)  # type: ignore[misc]
    assert "lost" in lost.detail or "disconnected" in lost.detail
    assert board.opens >= 2
    # Unplugged for 0.5 s (the fault's duration): the first good reading follows within 2 s.
    assert reading.at - (lost.at + 0.5) <= 2.0
    assert reading.plausible


def _reading_after_loss(seen: list[LinkOutput]) -> tuple[LinkStatus, TrayReading] | None:
    lost = next((o for o in seen if isinstance(o, LinkStatus) and o.state is LinkState.LOST), None)
    if lost is None:
        return None
    after = seen[seen.index(lost) :]
    reading = next((o for o in after if isinstance(o, TrayReading)), None)
    return None if reading is None else (lost, reading)


def test_a_port_that_cannot_be_opened_is_an_observation_not_a_crash() -> None:
    outputs: queue.Queue[LinkOutput] = queue.Queue()
    clock = FakeClock()
    link = SerialTableLink("/nonexistent/ttyACM9", outputs.put, clock=clock, pause=clock.advance)
    with link:
        seen = collect_until(outputs, lambda seen: len(seen) >= 1, timeout_s=5)
    status = seen[0]
    assert isinstance(status, LinkStatus)
    assert status.state is LinkState.LOST
    assert "/nonexistent/ttyACM9" in status.detail


def test_calibration_is_sent_slot_by_slot_and_acknowledged() -> None:
    simulator = TableSimulator()
    link, _, outputs = fake_link(simulator)
    with link:
        collect_until(outputs, lambda seen: bool(readings(seen)), timeout_s=5)
        calibration = default_calibration(calibration_id=77)
        sent = link.send_calibration(calibration)
        assert None not in sent
        assert len(sent) == 4 * 5 + 2
        answers = collect_until(
            outputs, lambda seen: sum(isinstance(o, CommandAnswer) for o in seen) >= len(sent), timeout_s=5
        )
    acks = [o for o in answers if isinstance(o, CommandAnswer)]
    assert all(a.accepted for a in acks)
    assert {a.echoed_seq for a in acks} == set(sent)
    assert simulator.calibration_id == 77


def test_a_failing_consumer_does_not_stop_the_link() -> None:
    simulator = TableSimulator()
    clock = FakeClock()
    board = SimulatedBoard(simulator, clock)
    outputs: queue.Queue[LinkOutput] = queue.Queue()

    def flaky(output: LinkOutput) -> None:
        outputs.put(output)
        raise RuntimeError("consumer bug")

    with SerialTableLink(board.open_port, flaky, clock=clock, pause=clock.advance):
        seen = collect_until(outputs, lambda seen: len(readings(seen)) >= 3, timeout_s=5)
    assert LinkState.CONNECTED in states(seen)
