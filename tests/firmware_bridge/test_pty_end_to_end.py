"""End to end over a real pty: the simulator with each fault, the link on the other side.

For every fault: no wrong reading is ever reported (each reading is a state the table was
really in, and plausible), and after the fault the link recovers to good readings.
"""

from __future__ import annotations

import contextlib
import queue

import pytest

from firmware_bridge.observations import LinkState, LinkStatus, TrayReading
from firmware_bridge.serial_link import LinkOutput, SerialTableLink
from firmware_bridge.sim_faults import Fault, FaultPlan
from firmware_bridge.sim_script import parse_script
from firmware_bridge.sim_transport import PtyTableServer
from firmware_bridge.simulator import TableSimulator

from .helpers import collect_until, physical, summary, table_key

FAST_SCRIPT = """
0.0  hand
0.2  draw 4
0.4  riichi 1
0.6  pay 0 1 3900
0.8  draw 10
1.0  take 1
1.2  pay 1 0 4900
1.4  loop
"""

# Rates high enough that each fault happens within a second or two of a test.
RATES = {
    Fault.NOISE: 0.3,
    Fault.DROP: 0.2,
    Fault.FLIP: 0.2,
    Fault.TRUNCATE: 0.2,
    Fault.UNPLUG: 0.7,
    Fault.REBOOT: 1.0,
    Fault.VERSION: 1.0,
}
LINK_FAULTS = {Fault.UNPLUG, Fault.VERSION}


@pytest.mark.parametrize("fault", list(Fault), ids=lambda fault: fault.value)
def test_no_wrong_reading_and_the_link_recovers(fault: Fault) -> None:
    plan = FaultPlan(((fault, RATES[fault]),), version_s=0.6)
    simulator = TableSimulator(parse_script(FAST_SCRIPT), faults=plan, seed=11)
    outputs: queue.Queue[LinkOutput] = queue.Queue()
    seen: list[LinkOutput] = []
    with PtyTableServer(simulator) as server, SerialTableLink(str(server.path), outputs.put):
        recovered = _run_until_recovered(simulator, fault, outputs, seen)
    assert recovered, f"no recovery after {fault.value}:\n{summary(seen)}"
    truth = {table_key(table) for table in list(simulator.history)}
    for reading in (o for o in seen if isinstance(o, TrayReading)):
        assert physical(reading) in truth, f"wrong reading {physical(reading)}"
        assert reading.plausible, f"implausible reading {reading.flags}"


def _run_until_recovered(
    simulator: TableSimulator, fault: Fault, outputs: queue.Queue[LinkOutput], seen: list[LinkOutput]
) -> bool:
    injected_at: int | None = None  # index into seen when the fault had happened
    for _ in range(60):  # at most 60 × 0.2 s
        with contextlib.suppress(queue.Empty):
            seen.append(outputs.get(timeout=0.2))
        count = simulator.injected[fault] + simulator.byte_faults_injected.get(fault, 0)
        if injected_at is None and count >= (1 if fault in {Fault.UNPLUG, Fault.REBOOT, Fault.VERSION} else 5):
            injected_at = len(seen)
        if injected_at is not None and _recovered_since(seen[injected_at:], fault):
            return True
    return False


def _recovered_since(after: list[LinkOutput], fault: Fault) -> bool:
    if fault in LINK_FAULTS:
        # The link must have noticed (lost or refused), then come back and read the table again.
        noticed = next(
            (
                i
                for i, o in enumerate(after)
                if isinstance(o, LinkStatus) and o.state in {LinkState.LOST, LinkState.INCOMPATIBLE}
            ),
            None,
        )
        if noticed is None:
            return False
        after = after[noticed:]
        back = next(
            (i for i, o in enumerate(after) if isinstance(o, LinkStatus) and o.state is LinkState.CONNECTED), None
        )
        return back is not None and sum(isinstance(o, TrayReading) for o in after[back:]) >= 2
    if fault is Fault.REBOOT:
        # The restart must be noticed (its hand counter starts again) before readings count.
        restart = next((i for i, o in enumerate(after) if isinstance(o, LinkStatus) and "restarted" in o.detail), None)
        if restart is None:
            return False
        after = after[restart:]
    return sum(isinstance(o, TrayReading) for o in after) >= 3


def test_replug_to_first_good_reading_within_two_seconds_with_default_settings() -> None:
    simulator = TableSimulator(parse_script(FAST_SCRIPT))
    outputs: queue.Queue[LinkOutput] = queue.Queue()
    with PtyTableServer(simulator) as server, SerialTableLink(str(server.path), outputs.put):
        collect_until(outputs, lambda seen: any(isinstance(o, TrayReading) for o in seen), timeout_s=5)
        server.unplug(0.5)
        seen = collect_until(outputs, lambda seen: _reading_after_replug(seen, server) is not None, timeout_s=8)
    reading = _reading_after_replug(seen, server)
    assert reading is not None
    assert server.replugged_at is not None
    assert LinkState.LOST in [o.state for o in seen if isinstance(o, LinkStatus)]
    assert reading.plausible
    assert reading.at - server.replugged_at <= 2.0


def _reading_after_replug(seen: list[LinkOutput], server: PtyTableServer) -> TrayReading | None:
    # The link and the server both use time.monotonic, so a reading's ``at`` compares directly.
    replugged_at = server.replugged_at
    if replugged_at is None:
        return None
    return next((o for o in seen if isinstance(o, TrayReading) and o.at > replugged_at), None)
