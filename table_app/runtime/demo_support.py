"""What ``jantaku demo`` needs from the runtime, ready for the command the lead wires.

``demo_config`` is the config the demo runs under (a log, a journal, the board simulated over
a pty, and a camera source name when a vision pipeline is passed to ``build_runtime``);
``check_against_log`` compares a refereed game with the log's own record and gives the same
summary line as ``jantaku replay --check``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from table_app.announce.catalogue import Language
from table_app.domain.seat import Seat
from table_app.rules.check import Mismatch, compare_hand
from table_app.rules.profiles import TENHOU
from table_app.rules.record import GameLog
from table_app.rules.state import GameState
from table_app.runtime.config import CameraConfig, FeedConfig, TableConfig


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
        feed=FeedConfig(log, pace_s, trays=False, simulate_board=True),
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
