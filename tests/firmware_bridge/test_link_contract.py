"""Contract: the link over the fake port and over a real pyserial ``loop://`` port behaves the same.

Both carry the same simulated board and script; both must report the board, then exactly the
script's table states in order.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator

import pytest

from firmware_bridge.fake_port import FakeClock, SimulatedBoard
from firmware_bridge.observations import LinkState, ReadingFlag, TrayReading
from firmware_bridge.serial_link import LinkOutput, SerialTableLink
from firmware_bridge.sim_script import TableState, apply_step, parse_script
from firmware_bridge.sim_transport import LoopTableServer
from firmware_bridge.simulator import TableSimulator

from .helpers import collect_until, physical, readings, states, table_key

SCRIPT = """
0.0  hand
0.3  draw 7
0.6  riichi 2
0.9  pay 0 3 8000
1.2  kan
1.5  take 3
"""


@pytest.fixture(params=["fake", "loop"])
def link_outputs(request: pytest.FixtureRequest) -> Iterator[tuple[queue.Queue[LinkOutput], TableSimulator]]:
    outputs: queue.Queue[LinkOutput] = queue.Queue()
    if request.param == "fake":
        simulator = TableSimulator(parse_script(SCRIPT))
        clock = FakeClock()
        board = SimulatedBoard(simulator, clock)
        link = SerialTableLink(board.open_port, outputs.put, clock=clock, pause=clock.advance)
        with link:
            yield outputs, simulator
    else:
        simulator = TableSimulator(parse_script(SCRIPT), announce_interval_s=0.5)
        server = LoopTableServer(simulator)
        link = SerialTableLink(server.open_port, outputs.put)
        with server, link:
            yield outputs, simulator


def test_link_reports_the_board_then_every_table_state_in_order(
    link_outputs: tuple[queue.Queue[LinkOutput], TableSimulator],
) -> None:
    outputs, simulator = link_outputs
    final = table_key(final_table())
    seen = collect_until(outputs, lambda seen: any(physical(r) == final for r in readings(seen)), timeout_s=10)
    assert states(seen)[:2] == [LinkState.CONNECTING, LinkState.CONNECTED]
    expected = []
    for table in simulator.history[1:]:
        if not expected or expected[-1] != table_key(table):
            expected.append(table_key(table))
    assert [physical(r) for r in readings(seen)] == expected[: len(readings(seen))]
    assert all(r.plausible for r in readings(seen))


def final_table() -> TableState:
    table = TableState()
    for step in parse_script(SCRIPT).steps:
        table = apply_step(table, step, "test")
    return table


def _readings_of(script: str, until: tuple[int, int, int, int]) -> list[TrayReading]:
    outputs: queue.Queue[LinkOutput] = queue.Queue()
    clock = FakeClock()
    board = SimulatedBoard(TableSimulator(parse_script(script)), clock)
    with SerialTableLink(board.open_port, outputs.put, clock=clock, pause=clock.advance):
        seen = collect_until(outputs, lambda seen: any(r.points == until for r in readings(seen)), timeout_s=10)
    return readings(seen)


def test_a_bust_reads_plausible_and_a_table_off_its_total_does_not() -> None:
    # seat 0 owes 12000 with 4900 in its tray: it hands over its sticks and owes 7100 on an IOU
    bust = _readings_of("0 hand 4900 25000 25000 45100\n0.3 pay 0 1 12000\n", until=(0, 29900, 25000, 45100))
    assert all(r.plausible for r in bust)
    # 1000 points more than the game has: a real mismatch, still flagged
    off = _readings_of("0 hand 26000 25000 25000 25000\n", until=(26000, 25000, 25000, 25000))
    assert [f.kind for f in off[-1].flags] == [ReadingFlag.TOTAL_MISMATCH]
