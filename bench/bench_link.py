"""Table-link figures: decode rate, replug-to-first-reading time, CPU of an idle link.

    .venv/bin/python bench/bench_link.py [--quick]

1. decoded frames per second, pure Python: a recorded stream of the simulator's frames
   (STATE every 100 ms, change events, heartbeats) through FrameDecoder, and through the whole
   host session (decode, view, debounce, plausibility);
2. time from replug to the first good reading, default settings, over a real pty: the
   simulator's cable is pulled for 0.3-3 s, several times;
3. CPU of an idle link at 10 snapshots/s: the simulator runs in another process (`jantaku
   table-sim` with a table that does not change) and this process only runs the link.
"""

from __future__ import annotations

import argparse
import os
import queue
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from firmware_bridge.calibration import default_calibration
from firmware_bridge.frame import FrameDecoder, encode_frame
from firmware_bridge.link_settings import LinkSettings
from firmware_bridge.messages import RequestState
from firmware_bridge.observations import TrayReading
from firmware_bridge.plausibility import GameLimits
from firmware_bridge.serial_link import LinkOutput, SerialTableLink
from firmware_bridge.session import LinkSession
from firmware_bridge.sim_script import builtin_script, parse_script
from firmware_bridge.sim_transport import PtyTableServer
from firmware_bridge.simulator import TableSimulator


def recorded_stream(seconds: float) -> bytes:
    simulator = TableSimulator(builtin_script())
    out = bytearray(simulator.start(0.0))
    for tick in range(1, int(seconds * 100)):
        out += simulator.poll(tick / 100).data
    return bytes(out)


def decode_rate(seconds_of_table: float) -> tuple[float, float, float, int]:
    stream = recorded_stream(seconds_of_table)
    decoder = FrameDecoder()
    started = time.perf_counter()
    frames = len(decoder.feed(stream))
    decoder_rate = frames / (time.perf_counter() - started)
    simulator = TableSimulator(builtin_script())
    simulator.start(0.0)
    states = b"".join(simulator.receive(encode_frame(RequestState(), n), 0.0) for n in range(20_000))
    started = time.perf_counter()
    state_frames = len(FrameDecoder().feed(states))
    state_rate = state_frames / (time.perf_counter() - started)
    session = LinkSession(default_calibration(), GameLimits(), LinkSettings())
    session.opened(0.0)
    chunk = 4096
    started = time.perf_counter()
    for offset in range(0, len(stream), chunk):
        session.receive(stream[offset : offset + chunk], 0.0)
    session_rate = session.counters.frames / (time.perf_counter() - started)
    return decoder_rate, state_rate, session_rate, frames


def replug_times(rounds: int) -> list[float]:
    outputs: queue.Queue[LinkOutput] = queue.Queue()
    simulator = TableSimulator(parse_script("0 hand"))
    times = []
    rng = random.Random(7)
    with PtyTableServer(simulator) as server, SerialTableLink(str(server.path), outputs.put):
        _first_reading_after(outputs, 0.0, 5.0)
        for _ in range(rounds):
            time.sleep(rng.uniform(0.2, 0.6))  # a bench, not a test: let the link settle at a random phase
            # Cables stay out for different times; the backoff's phase decides the wait.
            server.unplug(rng.uniform(0.3, 3.0))
            while server.replugged_at is None or time.monotonic() - server.replugged_at > 5:
                time.sleep(0.01)
            replugged = server.replugged_at
            server.replugged_at = None
            reading = _first_reading_after(outputs, replugged, 5.0)
            times.append(reading.at - replugged)
    return times


def _first_reading_after(outputs: queue.Queue[LinkOutput], after: float, timeout: float) -> TrayReading:
    deadline = time.monotonic() + timeout
    while True:
        output = outputs.get(timeout=max(0.01, deadline - time.monotonic()))
        if isinstance(output, TrayReading) and output.at > after:
            return output


def idle_cpu(seconds: float) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "still.txt"
        script.write_text("0 hand\n", encoding="utf-8")
        path = Path(folder) / "tty"
        sim = subprocess.Popen(
            [sys.executable, "-m", "table_app", "table-sim", "--script", str(script), "--path", str(path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        try:
            assert sim.stdout is not None
            sim.stdout.readline()  # the path: the server is up
            outputs: queue.Queue[LinkOutput] = queue.Queue()
            with SerialTableLink(str(path), outputs.put) as link:
                _first_reading_after(outputs, 0.0, 5.0)
                frames_before = link.session.counters.frames
                cpu_before, wall_before = time.process_time(), time.monotonic()
                time.sleep(seconds)
                cpu = time.process_time() - cpu_before
                wall = time.monotonic() - wall_before
                frames = link.session.counters.frames - frames_before
        finally:
            sim.terminate()
            sim.wait(5)
    return 100.0 * cpu / wall, frames


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer rounds (a smoke run)")
    args = parser.parse_args()
    decoder_rate, state_rate, session_rate, frames = decode_rate(60 if args.quick else 600)
    print(f"decode:  {decoder_rate:,.0f} frames/s (FrameDecoder, the simulator's mix of {frames} frames)")
    print(f"         {state_rate:,.0f} frames/s (FrameDecoder, STATE only: the largest frame, 94 bytes)")
    print(f"         {session_rate:,.0f} frames/s (the whole host session: decode, view, debounce, checks)")
    times = replug_times(3 if args.quick else 10)
    print(
        f"replug:  first good reading {statistics.median(times):.2f} s median, {max(times):.2f} s worst "
        f"({len(times)} replugs after 0.3-3 s unplugged)"
    )
    percent, idle_frames = idle_cpu(3 if args.quick else 20)
    print(f"idle:    {percent:.2f}% of one core at 10 snapshots/s ({idle_frames} frames received)")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus")


if __name__ == "__main__":
    main()
