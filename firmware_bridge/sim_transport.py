"""Serving a TableSimulator to a real serial client: over a pty, or into pyserial ``loop://``.

The pty server publishes a stable path (a symlink) that it re-points at a fresh pty after a
simulated unplug, just as /dev/ttyACM0 disappears and comes back when a cable is pulled.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

import serial

from firmware_bridge.simulator import TableSimulator

log = logging.getLogger(__name__)
_MAX_WAIT_S = 0.05


class PtyTableServer:
    def __init__(
        self, simulator: TableSimulator, path: Path | None = None, clock: Callable[[], float] = time.monotonic
    ):
        self.simulator = simulator
        self._clock = clock
        self._own_dir = path is None
        self.path = path or Path(tempfile.mkdtemp(prefix="jantaku-sim-")) / "tty"
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._master = self._slave = -1
        self._unplug_request = 0.0
        self.unplugs = 0
        self.replugged_at: float | None = None  # clock time of the last replug

    def start(self) -> PtyTableServer:
        self._plug_in()
        self._thread = threading.Thread(target=self._run, name="table-sim pty", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2.0)
        self._pull_out()
        if self._own_dir:
            with contextlib.suppress(OSError):
                self.path.parent.rmdir()

    def __enter__(self) -> PtyTableServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def unplug(self, seconds: float) -> None:
        """Pull the cable for ``seconds`` (done by the server's thread at its next pass)."""
        self._unplug_request = seconds

    def _plug_in(self) -> None:
        self._master, self._slave = os.openpty()
        # Raw from the start: a cooked tty would echo and turn 0x0D into 0x0A before the
        # client has had a chance to configure it. Holding the slave open ourselves keeps the
        # master readable while no client is connected.
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        staged = self.path.with_name(self.path.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            staged.unlink()
        staged.symlink_to(os.ttyname(self._slave))
        staged.replace(self.path)  # atomic: a client never sees a half-made link

    def _pull_out(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        for fd in (self._master, self._slave):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = -1

    def _run(self) -> None:
        simulator = self.simulator
        self._send(simulator.start(self._clock()))
        while not self._stop.is_set():
            wait = min(_MAX_WAIT_S, max(0.0, simulator.next_due() - self._clock()))
            readable, _, _ = select.select([self._master], [], [], wait)
            if readable:
                try:
                    incoming = os.read(self._master, 4096)
                except (BlockingIOError, OSError):
                    incoming = b""
                if incoming:
                    self._send(simulator.receive(incoming, self._clock()))
            requested, self._unplug_request = self._unplug_request, 0.0
            output = simulator.poll(self._clock())
            if requested or output.unplug_s:
                self._unplug(requested or output.unplug_s)
            else:
                self._send(output.data)

    def _unplug(self, seconds: float) -> None:
        log.info("simulated unplug for %.1f s", seconds)
        self.unplugs += 1
        self._pull_out()
        if self._stop.wait(seconds):
            return
        self._plug_in()
        self.replugged_at = self._clock()
        self.simulator.replugged(self.replugged_at)

    def _send(self, data: bytes) -> None:
        if not data:
            return
        try:
            os.write(self._master, data)
        except (BlockingIOError, OSError) as error:
            # Nobody is reading and the tty buffer is full: the board's bytes are lost, as on
            # a real USB CDC port with no host listening.
            log.debug("dropped %d bytes: %s", len(data), error)


class LoopTableServer:
    """Writes the simulator's bytes into one pyserial ``loop://`` port that the link reads.

    ``loop://`` has a single end: the host's own commands come back to it (the link ignores
    host → board messages) and never reach the simulator, so the simulator must announce
    itself (``announce_interval_s``) rather than wait to be asked. Unplugs cannot happen here.
    """

    def __init__(self, simulator: TableSimulator, clock: Callable[[], float] = time.monotonic):
        self.simulator = simulator
        self._clock = clock
        self.port = serial.serial_for_url("loop://", timeout=0.05)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def open_port(self) -> serial.SerialBase:
        if not self.port.is_open:
            self.port.open()
        return self.port

    def start(self) -> LoopTableServer:
        self._thread = threading.Thread(target=self._run, name="table-sim loop", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2.0)
        self.port.close()

    def __enter__(self) -> LoopTableServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run(self) -> None:
        simulator = self.simulator
        self._write(simulator.start(self._clock()))
        while not self._stop.wait(min(_MAX_WAIT_S, max(0.0, simulator.next_due() - self._clock()))):
            self._write(simulator.poll(self._clock()).data)

    def _write(self, data: bytes) -> None:
        if data:
            try:
                self.port.write(data)
            except serial.SerialException as error:
                log.debug("dropped %d bytes: %s", len(data), error)
