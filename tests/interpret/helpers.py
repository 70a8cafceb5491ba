"""Driving the pure referee core with observations, as the core thread does."""

from __future__ import annotations

from dataclasses import dataclass, field

from table_app.announce import Announcement, AnnouncementKind
from table_app.interpret import RefereeSession, TableSetup, step
from table_app.observations import DoraRevealed, HandStarted, LinkChanged, LinkHealth, Observation, Tick, TraysRead
from table_app.rules.events import GameEvent

#: What a correctly played logged game must never make the referee say.
FALSE_ALARMS = frozenset(
    {
        AnnouncementKind.QUESTION,
        AnnouncementKind.ILLEGAL_ACT,
        AnnouncementKind.WALL_DISAGREES,
        AnnouncementKind.DEPOSIT_DISAGREES,
        AnnouncementKind.TRAY_OFF,
    }
)


@dataclass
class Table:
    # Settle time 1 s (the tests' waits are written against it, whatever the config's default).
    session: RefereeSession = field(default_factory=lambda: RefereeSession(setup=TableSetup(settle_s=1.0)))
    events: list[GameEvent] = field(default_factory=list)
    said: list[Announcement] = field(default_factory=list)
    undos: int = 0
    clock: float = 0.0  # the core's clock, stepped by ticks

    def see(self, *observations: Observation) -> list[Announcement]:
        said: list[Announcement] = []
        for observation in observations:
            decision = step(self.session, observation)
            self.session = decision.session
            self.events.extend(decision.events)
            said.extend(decision.announcements)
            self.undos += decision.undo
        self.said.extend(said)
        return said

    def wait(self, seconds: float, tick_s: float = 0.25) -> list[Announcement]:
        """Let ``seconds`` pass on the core's clock, a tick every ``tick_s``; what was said meanwhile."""
        said: list[Announcement] = []
        end = self.clock + seconds
        while self.clock + tick_s <= end + 1e-9:
            self.clock += tick_s
            said.extend(self.see(Tick(self.clock)))
        return said

    def kinds(self) -> list[AnnouncementKind]:
        return [a.kind for a in self.said]

    @property
    def hand(self):
        assert self.session.game.hand is not None
        return self.session.game.hand

    def deal(self, indicator, *, board: bool = False) -> None:
        if board:
            self.see(LinkChanged(0.0, LinkHealth.CONNECTED), self.trays(wall=70))
        self.see(HandStarted(0.0), DoraRevealed(0.0, indicator))

    def trays(self, *, wall: int, deposit: int = 0, points=(25000, 25000, 25000, 25000)) -> TraysRead:
        return TraysRead(0.0, tuple(points), deposit, wall)
