"""``SerialTableLink``: the protocol session on a pyserial port, read by its own thread.

The port is anything ``serial.serial_for_url`` opens (``/dev/ttyACM0``, a pty path,
``loop://``) or a callable returning an open port. Every I/O failure becomes a ``LinkStatus``
observation and a reconnect with backoff; nothing here raises into the caller's thread.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

import serial

from firmware_bridge.calibration import TableCalibration, default_calibration
from firmware_bridge.frame import wire_log
from firmware_bridge.link_settings import LinkSettings
from firmware_bridge.messages import DEPOSIT_SEAT, CalibrateSlot, CommitCalibration, Message
from firmware_bridge.observations import LinkOutput
from firmware_bridge.plausibility import GameLimits
from firmware_bridge.session import LinkAction, LinkSession, SessionStep

log = logging.getLogger(__name__)


class SerialPort(Protocol):
    """The part of ``serial.Serial`` the link uses (a fake port implements just this)."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def close(self) -> None: ...


PortOpener = Callable[[], SerialPort]


class SerialTableLink:
    def __init__(
        self,
        port: str | PortOpener,
        on_output: Callable[[LinkOutput], object],
        *,
        calibration: TableCalibration | None = None,
        limits: GameLimits | None = None,
        settings: LinkSettings | None = None,
        clock: Callable[[], float] = time.monotonic,
        pause: Callable[[float], object] | None = None,
    ) -> None:
        self._settings = settings or LinkSettings()
        self._port_name = port if isinstance(port, str) else getattr(port, "__name__", "port")
        self._opener: PortOpener = self._url_opener(port) if isinstance(port, str) else port
        self._on_output = on_output
        self._clock = clock
        self._stop = threading.Event()
        # Waiting between reconnects: a real wait that ``stop`` interrupts, or a test's fake one.
        self._pause = pause or self._stop.wait
        self._session = LinkSession(calibration or default_calibration(), limits or GameLimits(), self._settings)
        self._lock = threading.Lock()  # the session and the port are shared with send()
        self._port: SerialPort | None = None
        self._thread: threading.Thread | None = None

    def _url_opener(self, url: str) -> PortOpener:
        def open_url() -> SerialPort:
            port: SerialPort = serial.serial_for_url(
                url, baudrate=self._settings.baudrate, timeout=self._settings.read_timeout_s
            )
            return port

        return open_url

    @property
    def session(self) -> LinkSession:
        return self._session

    def start(self) -> SerialTableLink:
        if self._thread is not None:
            raise RuntimeError(f"table link on {self._port_name} is already started")
        self._thread = threading.Thread(target=self._run, name=f"table-link {self._port_name}", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def __enter__(self) -> SerialTableLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def send(self, message: Message) -> int | None:
        """Send a command to the board; its sequence number, or None when no port is open."""
        with self._lock:
            if self._port is None:
                return None
            seq = self._session.next_seq
            self._write(self._port, self._session.encode(message))
            return seq

    def send_calibration(self, calibration: TableCalibration) -> list[int | None]:
        """Store ``calibration`` on the board: one CALIBRATE_SLOT per slot, then COMMIT."""
        commands: list[Message] = [
            CalibrateSlot(seat, slot, cal.empty_reading, cal.per_stick_micro)
            for seat, tray in enumerate(calibration.trays)
            for slot, cal in enumerate(tray)
        ]
        deposit = calibration.deposit
        commands.append(CalibrateSlot(DEPOSIT_SEAT, 0, deposit.empty_reading, deposit.per_stick_micro))
        commands.append(CommitCalibration(calibration.calibration_id))
        return [self.send(command) for command in commands]

    def _run(self) -> None:
        settings = self._settings
        delay = settings.reconnect_initial_s
        while not self._stop.is_set():
            try:
                port = self._opener()
            except (serial.SerialException, OSError, ValueError) as error:
                self._emit(self._session.failed(f"cannot open {self._port_name}: {error}", self._clock()))
                self._pause(delay)
                delay = min(delay * 2, settings.reconnect_max_s)
                continue
            action, was_connected = self._serve(port)
            with self._lock:
                self._port = None
            _close_quietly(port)
            if self._stop.is_set():
                break
            if action is LinkAction.REFUSED:
                delay = settings.reconnect_max_s
            elif was_connected:
                delay = settings.reconnect_initial_s
            self._pause(delay)
            delay = min(delay * 2, settings.reconnect_max_s)
        self._emit(self._session.closed(self._clock()))

    def _serve(self, port: SerialPort) -> tuple[LinkAction, bool]:
        session = self._session
        with self._lock:
            self._port = port
            step = session.opened(self._clock())
        was_connected = False
        while True:
            if step.outgoing and not self._write(port, bytes(step.outgoing)):
                return LinkAction.RECONNECT, was_connected
            self._emit(step.observations)
            was_connected = was_connected or session.running
            if step.action is not LinkAction.CONTINUE:
                return step.action, was_connected
            if self._stop.is_set():
                return LinkAction.CONTINUE, was_connected
            try:
                data = port.read(port.in_waiting or 1)
            except (serial.SerialException, OSError, ValueError) as error:
                self._emit(session.failed(f"lost {self._port_name}: {error}", self._clock()))
                return LinkAction.RECONNECT, was_connected
            if data and wire_log.isEnabledFor(logging.DEBUG):
                wire_log.debug("rx %d bytes: %s", len(data), data.hex(" "))
            with self._lock:
                step = session.receive(data, self._clock()) if data else session.tick(self._clock())

    def _write(self, port: SerialPort, data: bytes) -> bool:
        try:
            port.write(data)
        except (serial.SerialException, OSError, ValueError) as error:
            self._emit(self._session.failed(f"cannot write to {self._port_name}: {error}", self._clock()))
            return False
        if wire_log.isEnabledFor(logging.DEBUG):
            wire_log.debug("tx %s", data.hex(" "))
        return True

    def _emit(self, outputs: list[LinkOutput]) -> None:
        for output in outputs:
            try:
                self._on_output(output)
            except Exception:
                # A consumer's bug must not take the link down with it.
                log.exception("table-link consumer failed on %r", output)


def _close_quietly(port: SerialPort) -> None:
    try:
        port.close()
    except (serial.SerialException, OSError) as error:
        log.debug("closing the port failed: %s", error)


__all__ = ["LinkOutput", "PortOpener", "SerialPort", "SerialTableLink", "SessionStep"]
