"""From the host's picture of the sensors to the readings the link reports.

Debounce first (a payment in progress is not a reading), then the one check that needs
history: the live wall may only go down within a hand.
"""

from __future__ import annotations

from firmware_bridge.debounce import Debouncer
from firmware_bridge.observations import TrayReading
from firmware_bridge.plausibility import WallMark, check_wall
from firmware_bridge.sensor_picture import Candidate, SensorPicture


class ReadingBuilder:
    def __init__(self, picture: SensorPicture, debounce_samples: int) -> None:
        self._picture = picture
        self._debouncer: Debouncer[Candidate] = Debouncer(debounce_samples)
        self._wall_mark: WallMark | None = None

    def restart(self, *, new_board_session: bool) -> None:
        """Report the next stable reading whatever came before; a new board session (its hand
        counter starts again) also forgets the wall history."""
        self._debouncer.reset()
        if new_board_session:
            self._wall_mark = None

    def offer(self, seq: int, now: float) -> TrayReading | None:
        """The reading to report after the view changed, if one became stable."""
        candidate = self._picture.candidate()
        key = (
            candidate.points,
            candidate.sticks,
            candidate.deposit,
            candidate.wall,
            candidate.kans,
            candidate.hand,
            frozenset(flag.kind for flag in candidate.flags),  # details hold raw codes, which jitter
        )
        stable = self._debouncer.offer(key, candidate)
        if stable is None:
            return None
        flags = stable.flags + tuple(check_wall(stable.hand, stable.wall, self._wall_mark))
        self._wall_mark = WallMark(stable.hand, stable.wall)
        return TrayReading(
            now,
            seq,
            stable.points,
            stable.sticks,
            self._picture.denominations,
            stable.deposit,
            stable.wall,
            stable.kans,
            stable.hand,
            flags,
            stable.raw,
            stable.deposit_raw,
        )
