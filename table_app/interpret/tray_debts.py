"""What the trays should read for the game's scores, a bust (トビ) included.

A player who cannot pay hands over every stick and owes the rest, so a real table never shows a
score below zero: that seat's tray is empty, and the players it owes are short of sticks by the
same amount in all (they hold IOUs instead). Which of them is short, and by how much, is the
table's business (the order the payments were made in); the total is not. So with a debt the
trays agree with the scores when every seat in debt reads 0 and the other seats are short by
no more than the debt and by exactly the debt together. Sticks are never created or lost, so
the link's check of the trays' total needs no change for a debt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TrayOff:
    """A tray that does not hold what the scores say it should."""

    seat: int
    expected: int
    read: int


def debt(scores: Sequence[int]) -> int:
    """Points owed on IOUs: everything below zero."""
    return sum(-score for score in scores if score < 0)


def trays_for_scores(scores: Sequence[int]) -> list[int]:
    """The trays of a real table standing at ``scores``: a seat below zero (a bust) holds no
    sticks and owes the rest, and whoever it owes holds an IOU for it instead of sticks; here
    that is the fullest tray, as the scores do not say who was paid short. Sticks are never
    created or lost, so the trays always add up to the scores."""
    trays = [max(score, 0) for score in scores]
    creditor = max(range(len(trays)), key=lambda seat: trays[seat])
    trays[creditor] -= debt(scores)
    return trays


def trays_off(scores: Sequence[int], trays: Sequence[int]) -> tuple[TrayOff, ...]:
    """Every tray that disagrees with ``scores`` (none: the payments are complete)."""
    owed = debt(scores)  # with no debt, every tray must hold its score exactly
    seats = [(seat, score, read) for seat, (score, read) in enumerate(zip(scores, trays, strict=True))]
    debtors = tuple(TrayOff(seat, 0, read) for seat, score, read in seats if score < 0 and read)
    others = [(seat, score, read) for seat, score, read in seats if score >= 0]
    shortfalls = [score - read for _, score, read in others]
    if all(0 <= short <= owed for short in shortfalls) and sum(shortfalls) == owed:
        return debtors
    # The IOUs do not explain it: name the trays no IOU can explain, else every tray that differs,
    # else (each tray at its score: the debt was paid in sticks that do not exist, which the
    # link's total check flags too) every tray that should be short.
    beyond = tuple(TrayOff(seat, score, read) for seat, score, read in others if not 0 <= score - read <= owed)
    differing = tuple(TrayOff(seat, score, read) for seat, score, read in others if score != read)
    everyone = tuple(TrayOff(seat, score, read) for seat, score, read in others)
    return debtors + (beyond or differing or everyone)
