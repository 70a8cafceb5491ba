"""Hall standings: every finished game of every table, totalled per player by name.

Each game is tallied under its own rule profile's uma and oka (and chombo deduction), as
``jantaku standings`` does by default (:mod:`table_app.rules.standings`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from table_app.rules.profiles import ChomboPenalty
from table_app.rules.standings import SeatStanding, game_standing, standings_rule_of
from table_app.rules.state import GameState


@dataclass(frozen=True, slots=True)
class PlayerTotal:
    name: str
    points: float
    games: int
    ranks: tuple[int, int, int, int]  # how many firsts, seconds, thirds, fourths
    chombos: int

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "points": round(self.points, 1),
            "games": self.games,
            "ranks": list(self.ranks),
            "chombos": self.chombos,
        }


def game_points(state: GameState) -> tuple[SeatStanding, ...]:
    """A finished game's standing under its profile's own tally."""
    chombos = tuple(sum(1 for r in state.results if r.offender == seat) for seat in range(4))
    paid = state.profile.chombo is ChomboPenalty.MANGAN_PAYMENT
    rule = standings_rule_of(state.profile)
    return game_standing(tuple(state.scores), rule, first_dealer=state.first_dealer, chombos=chombos, chombos_paid=paid)


def hall_totals(games: Iterable[tuple[str, GameState]]) -> list[PlayerTotal]:
    """``games``: (table, finished game); an unnamed seat counts as ``<table> seat N``. Best first."""
    totals: dict[str, tuple[float, list[int], int]] = {}
    for table, state in games:
        for seat in game_points(state):
            name = state.names[seat.seat].strip() if seat.seat < len(state.names) else ""
            name = name or f"{table} seat {int(seat.seat) + 1}"
            points, ranks, chombos = totals.get(name, (0.0, [], 0))
            totals[name] = (points + seat.points, [*ranks, seat.rank], chombos + seat.chombos)
    players = [
        PlayerTotal(name, round(points, 1), len(ranks), _places(ranks), chombos)
        for name, (points, ranks, chombos) in totals.items()
    ]
    return sorted(players, key=lambda p: (-p.points, p.name))


def _places(ranks: list[int]) -> tuple[int, int, int, int]:
    return (ranks.count(1), ranks.count(2), ranks.count(3), ranks.count(4))
