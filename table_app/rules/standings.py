"""Standings as clubs and leagues keep them: game points from a game's final scores.

A game's points are ``(score - return points) / 1000`` plus the uma of its rank, the top
also taking the oka (``4 × (return - start) / 1000``, the difference every player put in),
less a fixed deduction for each chombo where the rules charge it on the tally. Each league
says how ties are settled: by seat (the one nearer the first dealer ranks higher: Tenhou)
or by sharing (tied players split the uma and oka of the places they hold). Presets follow
the published rules (``docs/rules.md``, "Standings"); a value marked there with * should be
confirmed against the current rule book before a sanctioned event.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from table_app.domain.seat import Seat
from table_app.rules.game_flow import ranking
from table_app.rules.profiles import ChomboPenalty, RuleProfile


class Ties(StrEnum):
    BY_SEAT = "by_seat"  # the seat nearer the first dealer ranks higher
    SHARED = "shared"  # tied players split the uma (and oka) of the places they hold


@dataclass(frozen=True, slots=True)
class StandingsRule:
    name: str
    start_points: int
    return_points: int
    uma: tuple[float, float, float, float]  # in thousands, by rank
    ties: Ties = Ties.BY_SEAT
    chombo_points: float = 0.0  # off the tally for each chombo not already paid at the table
    whole_thousands: bool = False  # Tenhou: non-top scores rounded to 1000s (五捨六入) first

    @property
    def oka(self) -> float:
        return 4 * (self.return_points - self.start_points) / 1000


STANDINGS_PRESETS: Final[tuple[StandingsRule, ...]] = (
    StandingsRule("tenhou", 25_000, 30_000, (20, 10, -10, -20), whole_thousands=True),
    StandingsRule("mleague", 25_000, 30_000, (30, 10, -10, -30), chombo_points=20),
    StandingsRule("jpml", 30_000, 30_000, (15, 5, -5, -15), Ties.SHARED, chombo_points=20),
    StandingsRule("wrc", 30_000, 30_000, (15, 5, -5, -15), Ties.SHARED, chombo_points=20),
    StandingsRule("ema", 30_000, 30_000, (15, 5, -5, -15), Ties.SHARED, chombo_points=20),
)


def standings_rule_named(name: str) -> StandingsRule:
    for rule in STANDINGS_PRESETS:
        if rule.name == name:
            return rule
    names = ", ".join(rule.name for rule in STANDINGS_PRESETS)
    raise ValueError(f"unknown standings preset {name!r} (one of {names})")


def standings_rule_of(profile: RuleProfile) -> StandingsRule:
    """The tally a rule profile itself plays to (its uma, start and return points)."""
    chombo = float(profile.chombo_tally_points) if profile.chombo is ChomboPenalty.FINAL_TALLY else 0.0
    uma = (float(profile.uma[0]), float(profile.uma[1]), float(profile.uma[2]), float(profile.uma[3]))
    return StandingsRule(
        profile.name,
        profile.start_points,
        profile.return_points,
        uma,
        chombo_points=chombo,
        whole_thousands=profile.tally_in_whole_thousands,
    )


@dataclass(frozen=True, slots=True)
class SeatStanding:
    seat: Seat
    rank: int  # 1-4; tied players share a rank when ties are shared
    score: int
    base: float  # (score - return) / 1000, as the rule rounds it
    uma: float  # the uma of the rank, the oka included for the top (shares when tied)
    chombos: int
    penalty: float  # the chombo deduction
    points: float


def game_standing(
    scores: tuple[int, ...],
    rule: StandingsRule,
    *,
    first_dealer: Seat = Seat.S0,
    chombos: tuple[int, ...] = (0, 0, 0, 0),
    chombos_paid: bool = False,
) -> tuple[SeatStanding, ...]:
    """Each seat's standing in one game, in rank order. ``chombos``: each seat's chombo count;
    ``chombos_paid``: they were paid at the table (a mangan payment), so not charged again."""
    order = ranking(scores, first_dealer)
    bonus = [rule.uma[0] + rule.oka, *rule.uma[1:]]
    places: dict[Seat, tuple[int, float]] = {}
    place = 0
    while place < 4:
        tied = [order[place]]
        if rule.ties is Ties.SHARED:
            while place + len(tied) < 4 and scores[order[place + len(tied)]] == scores[tied[0]]:
                tied.append(order[place + len(tied)])
        share = sum(bonus[place : place + len(tied)]) / len(tied)
        for seat in tied:
            places[seat] = (place + 1, share)
        place += len(tied)
    bases = {seat: _base(scores[seat], rule) for seat in Seat}
    if rule.whole_thousands:
        # Rounding the others leaves the top whatever makes the table sum to zero.
        top = order[0]
        bases[top] = -sum(bases[s] + places[s][1] for s in Seat if s != top) - places[top][1]
    standings = []
    for seat in order:
        rank, uma = places[seat]
        penalty = 0.0 if chombos_paid else rule.chombo_points * chombos[seat]
        points = round(bases[seat] + uma - penalty, 1)
        standings.append(
            SeatStanding(seat, rank, scores[seat], round(bases[seat], 1), uma, chombos[seat], penalty, points)
        )
    return tuple(standings)


def _base(score: int, rule: StandingsRule) -> float:
    if not rule.whole_thousands:
        return (score - rule.return_points) / 1000
    sign = -1 if score < 0 else 1
    return float(sign * ((abs(score) + 500) // 1000) - rule.return_points // 1000)
