"""The host side of the protocol as a pure state machine: bytes and time in, observations out.

No I/O and no threads: ``SerialTableLink`` feeds it what the port gives and writes what it
returns, and tests drive it directly with a fake clock. It decides when the link is lost
(heartbeat timeout, garbage) or refused (another protocol version); the shell reconnects.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from enum import Enum

from firmware_bridge.calibration import TableCalibration
from firmware_bridge.frame import PROTOCOL_VERSION, Frame, FrameDecoder, FrameError, FrameFault, encode_frame
from firmware_bridge.layouts import message_type
from firmware_bridge.link_settings import LinkSettings
from firmware_bridge.messages import (
    BOARD_TO_HOST,
    Ack,
    CalibrateSlot,
    CommitCalibration,
    Heartbeat,
    Hello,
    Message,
    Nak,
    RequestHello,
    RequestState,
    SlotChanged,
    State,
    WallChanged,
)
from firmware_bridge.observations import CommandAnswer, LinkOutput, LinkState, LinkStatus
from firmware_bridge.plausibility import GameLimits
from firmware_bridge.reading_builder import ReadingBuilder
from firmware_bridge.sensor_picture import SensorPicture

log = logging.getLogger(__name__)
_MAX_AWAITING = 256


class LinkAction(Enum):
    """What the serial link's shell does after a step of the session."""

    CONTINUE = "continue"
    RECONNECT = "reconnect"  # close the port and open it again after a backoff
    REFUSED = "refused"  # the board is incompatible: close and retry only slowly


@dataclass(slots=True)
class SessionStep:
    observations: list[LinkOutput] = field(default_factory=list)
    outgoing: bytearray = field(default_factory=bytearray)
    action: LinkAction = LinkAction.CONTINUE


@dataclass(slots=True)
class LinkCounters:
    frames: int = 0
    frame_errors: int = 0
    lost_frames: int = 0  # gaps in the board's sequence numbers
    other_version: int = 0  # CRC-valid frames of another protocol version, skipped
    readings: int = 0


class LinkSession:
    def __init__(self, calibration: TableCalibration, limits: GameLimits, settings: LinkSettings) -> None:
        self._calibration = calibration
        self._limits = limits
        self._settings = settings
        self._picture = SensorPicture(calibration, limits)
        self._readings = ReadingBuilder(self._picture, settings.debounce_samples)
        self._decoder = FrameDecoder()
        self._reported: LinkState | None = None
        self._running = False
        self._board: Hello | None = None
        self._board_seq: int | None = None
        self._tx_seq = 0
        self._opened_at = self._last_frame_at = self._last_hello_request = 0.0
        self._bad_in_a_row = 0
        self._other_version_in_a_row = 0
        self._awaiting_answer: set[int] = set()
        self.counters = LinkCounters()

    @property
    def board(self) -> Hello | None:
        return self._board

    @property
    def running(self) -> bool:
        """True between an accepted HELLO and the loss of the link."""
        return self._running

    @property
    def next_seq(self) -> int:
        return self._tx_seq

    def encode(self, message: Message) -> bytes:
        """Frame a host → board message with the next sequence number."""
        frame = encode_frame(message, self._tx_seq)
        if isinstance(message, CalibrateSlot | CommitCalibration):
            # Answered by ACK/NAK: remembered, so that only real answers count as answers.
            if len(self._awaiting_answer) > _MAX_AWAITING:
                self._awaiting_answer.clear()
            self._awaiting_answer.add(self._tx_seq)
        self._tx_seq = (self._tx_seq + 1) & 0xFFFF
        return frame

    def opened(self, now: float) -> SessionStep:
        step = SessionStep()
        self._decoder = FrameDecoder()
        self._running = False
        self._board_seq = None
        self._bad_in_a_row = 0
        self._other_version_in_a_row = 0
        self._picture.invalidate()
        self._readings.restart(new_board_session=False)
        self._opened_at = self._last_frame_at = self._last_hello_request = now
        self._report(step, now, LinkState.CONNECTING, "port open, waiting for the board's HELLO")
        step.outgoing += self.encode(RequestHello())
        return step

    def failed(self, detail: str, now: float) -> list[LinkOutput]:
        """The port could not be opened, read or written."""
        step = SessionStep()
        self._running = False
        self._report(step, now, LinkState.LOST, detail)
        return step.observations

    def closed(self, now: float) -> list[LinkOutput]:
        step = SessionStep()
        self._running = False
        self._report(step, now, LinkState.CLOSED, "link stopped")
        return step.observations

    def receive(self, data: bytes, now: float) -> SessionStep:
        step = SessionStep()
        for item in self._decoder.feed(data):
            if isinstance(item, FrameError):
                self._on_error(item, step, now)
            else:
                self._on_frame(item, step, now)
            if step.action is not LinkAction.CONTINUE:
                return step
        self._check_time(step, now)
        return step

    def tick(self, now: float) -> SessionStep:
        step = SessionStep()
        self._check_time(step, now)
        return step

    def _check_time(self, step: SessionStep, now: float) -> None:
        settings = self._settings
        if self._running:
            silent = now - self._last_frame_at
            if silent > settings.heartbeat_timeout_s:
                self._lose(step, now, f"no frame from the board for {silent:.1f} s (heartbeat timeout)")
            return
        if now - self._opened_at > settings.handshake_timeout_s:
            self._lose(
                step, now, f"no HELLO from the board within {settings.handshake_timeout_s:.1f} s of opening the port"
            )
        elif now - self._last_hello_request >= settings.handshake_retry_s:
            self._last_hello_request = now
            step.outgoing += self.encode(RequestHello())

    def _lose(self, step: SessionStep, now: float, detail: str) -> None:
        self._running = False
        self._report(step, now, LinkState.LOST, detail)
        step.action = LinkAction.RECONNECT

    def _on_error(self, error: FrameError, step: SessionStep, now: float) -> None:
        if error.fault is FrameFault.UNKNOWN_TYPE:
            # CRC-valid, so the line is fine: a newer minor version's message, ignored.
            self._bad_in_a_row = 0
            self._last_frame_at = now
            log.debug("ignored %s", error)
            return
        self.counters.frame_errors += 1
        if error.fault is FrameFault.OTHER_VERSION:
            # One such frame among ours is line noise that passed the CRC (1 in 65536): counted
            # and skipped. A board that really speaks another version sends nothing else.
            self.counters.other_version += 1
            self._other_version_in_a_row += 1
            if self._other_version_in_a_row < self._settings.other_version_limit:
                log.debug("skipped a frame of another protocol version: %s", error)
                return
            self._refuse(
                step,
                now,
                f"incompatible board: it speaks table-link protocol {error.version}, "
                f"this host speaks protocol {PROTOCOL_VERSION}; update jantaku or reflash the board",
            )
            return
        self._bad_in_a_row += 1
        log.debug("dropped %s", error)
        if self._bad_in_a_row >= self._settings.garbage_limit:
            self._lose(step, now, f"garbage on the line: {self._bad_in_a_row} bad frames in a row (last: {error})")

    def _refuse(self, step: SessionStep, now: float, detail: str) -> None:
        self._running = False
        self._report(step, now, LinkState.INCOMPATIBLE, detail)
        step.action = LinkAction.REFUSED

    def _on_frame(self, frame: Frame, step: SessionStep, now: float) -> None:
        message = frame.message
        if isinstance(message, Ack | Nak):
            if message.echoed_seq not in self._awaiting_answer:
                return  # not an answer to a command of ours: our own ACK of HELLO looped back
            self._awaiting_answer.discard(message.echoed_seq)
        elif message_type(message) not in BOARD_TO_HOST:
            return  # our own command echoed back (a loop-back port): not from the board
        self._bad_in_a_row = 0
        self._other_version_in_a_row = 0
        self._last_frame_at = now
        self.counters.frames += 1
        if isinstance(message, Hello):
            self._on_hello(frame.seq, message, step, now)
            return
        if not self._running:
            return  # until HELLO we do not know what the board is
        self._track_seq(frame.seq, isinstance(message, State))
        if isinstance(message, Ack | Nak):
            reason = "" if isinstance(message, Ack) else message.reason.name
            step.observations.append(CommandAnswer(now, message.echoed_seq, isinstance(message, Ack), reason))
            return
        if isinstance(message, State):
            self._picture.apply_state(message)
        elif isinstance(message, SlotChanged):
            if not self._picture.apply_slot(message):
                return
        elif isinstance(message, WallChanged):
            if not self._picture.apply_wall(message):
                return
        elif isinstance(message, Heartbeat):
            return
        self._offer(frame.seq, step, now)

    def _track_seq(self, seq: int, is_snapshot: bool) -> None:
        if self._board_seq is not None:
            missed = (seq - self._board_seq - 1) & 0xFFFF
            if missed:
                self.counters.lost_frames += missed
                log.debug("%d frame(s) lost before seq %d; waiting for the next snapshot", missed, seq)
                if not is_snapshot:
                    self._picture.invalidate()
        self._board_seq = seq

    def _on_hello(self, seq: int, hello: Hello, step: SessionStep, now: float) -> None:
        if hello.protocol_major != PROTOCOL_VERSION:
            self._refuse(
                step,
                now,
                f"incompatible board: its HELLO says protocol {hello.protocol_major}.{hello.protocol_minor}, "
                f"this host speaks protocol {PROTOCOL_VERSION}",
            )
            return
        slots = self._calibration.slots_per_tray
        if hello.slots_per_tray != slots:
            self._refuse(
                step,
                now,
                f"incompatible board: {hello.slots_per_tray} slots per tray, the calibration describes {slots}",
            )
            return
        continuing = (
            self._running
            and self._board is not None
            and self._board.board_id == hello.board_id
            and self._board_seq is not None
            and seq == (self._board_seq + 1) & 0xFFFF
        )
        step.outgoing += self.encode(Ack(seq))
        self._board_seq = seq
        if continuing:
            self._board = hello  # a periodic announcement (its calibration id may be new), not a restart
            return
        restarted = self._running
        self._running = True
        self._board = hello
        self._picture.invalidate()
        # The hand counter is counted by the board since its boot: a new HELLO starts a new count.
        self._readings.restart(new_board_session=True)
        detail = (
            f"board {hello.board_id:08x}, firmware {hello.firmware_text}, protocol "
            f"{hello.protocol_major}.{hello.protocol_minor}, calibration {hello.calibration_id}"
        )
        if restarted:
            detail += "; the board restarted"
        if hello.calibration_id != self._calibration.calibration_id:
            detail += f"; the host's calibration is {self._calibration.calibration_id}, readings use the host's"
        self._report(step, now, LinkState.CONNECTED, detail, hello, force=restarted)
        step.outgoing += self.encode(RequestState())

    def _offer(self, seq: int, step: SessionStep, now: float) -> None:
        reading = self._readings.offer(seq, now)
        if reading is not None:
            self.counters.readings += 1
            step.observations.append(reading)

    def _report(
        self,
        step: SessionStep,
        now: float,
        state: LinkState,
        detail: str,
        board: Hello | None = None,
        *,
        force: bool = False,
    ) -> None:
        if state is self._reported and not force:
            return
        self._reported = state
        log.info("table link %s: %s", state.value, detail)
        step.observations.append(LinkStatus(now, state, detail, board))
