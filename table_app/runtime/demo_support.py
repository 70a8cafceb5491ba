"""What ``jantaku demo`` needs from the runtime, ready for the command the lead wires.

``demo_config`` is the config the demo runs under (a log, a journal, the board simulated over
a pty, and a camera source name when a vision pipeline is passed to ``build_runtime``);
``play_to_the_end`` runs it headless; ``check_against_log`` compares a refereed game with the
log's own record and gives the same summary line as ``jantaku replay --check``.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path

from table_app.announce.catalogue import Language
from table_app.domain.seat import Seat
from table_app.rules.check import Mismatch, compare_hand
from table_app.rules.profiles import TENHOU
from table_app.rules.record import GameLog
from table_app.rules.state import GameState
from table_app.runtime.app import Runtime
from table_app.runtime.config import CameraConfig, FeedConfig, TableConfig
from table_app.runtime.ports import CoreUpdate


def demo_config(
    log: Path,
    db: Path,
    *,
    pace_s: float = 0.5,
    camera: str | None = None,
    languages: tuple[Language, ...] = (Language.JA, Language.EN),
) -> TableConfig:
    """The demo's table: the log's game, the board simulated over a pty (read by the real link),
    the camera's observations from ``camera`` (a vision pipeline) or, without one, from the log."""
    return TableConfig(
        db=db,
        profile=TENHOU,
        names=("", "", "", ""),
        first_dealer=Seat.S0,
        languages=languages,
        speech=False,
        camera=CameraConfig(camera) if camera is not None else None,
        link=None,
        panel=None,
        # With a camera, the rendered world brings the board (on its own clock) with it.
        feed=FeedConfig(log, pace_s, trays=False, simulate_board=camera is None),
    )


@dataclass(frozen=True, slots=True)
class DemoCheck:
    hands: int
    mismatches: tuple[Mismatch, ...]

    @property
    def summary(self) -> str:
        """As ``jantaku replay --check`` ends: ``1 games, N hands, K mismatches``."""
        return f"1 games, {self.hands} hands, {len(self.mismatches)} mismatches"


def check_against_log(state: GameState, log: GameLog) -> DemoCheck:
    """Every hand the referee scored against the log's record, then the final scores."""
    found: list[Mismatch] = []
    for result, record in zip(state.results, log.hands, strict=False):
        found.extend(compare_hand(result, record))
    if len(state.results) != len(log.hands):
        found.append(Mismatch("game", f"{len(state.results)} hands refereed, the log has {len(log.hands)}"))
    if log.final is not None and state.finished and tuple(state.scores) != tuple(log.final.scores):
        found.append(Mismatch("game", f"final scores {state.scores}, log says {log.final.scores}"))
    return DemoCheck(len(state.results), tuple(found))


class _Finish:
    """Listens for the game's end."""

    def __init__(self) -> None:
        self.done = threading.Event()

    def on_update(self, update: CoreUpdate) -> None:
        if update.state.finished:
            self.done.set()


def play_to_the_end(runtime: Runtime, timeout_s: float, interrupt: threading.Event | None = None) -> GameState:
    """Start ``runtime``, wait until the game ends (or the feed has run out and been refereed,
    or ``timeout_s``, or ``interrupt`` is set), stop it, and return the final state."""
    finish = _Finish()
    runtime.core.add_listener(finish)
    runtime.start()
    try:
        deadline = time.monotonic() + timeout_s
        while not finish.done.wait(0.1) and time.monotonic() < deadline and not runtime.core.stopped.is_set():
            if interrupt is not None and interrupt.is_set():
                break
            if runtime.finished is not None and runtime.finished.is_set():
                runtime.core.drain()
                break
    finally:
        runtime.stop()
    return runtime.core.session.game
