"""IOUs on the simulated table: what a real table does when a player cannot pay (a bust, トビ).

The payer hands over every stick it has and writes an IOU to the payee for the rest, so sticks
only ever change hands and the table's total holds. A player holding an IOU's debt hands on
any stick it receives later to its creditors (oldest IOU first) until the debt is paid, as
players settle an IOU as soon as they can.
"""

from __future__ import annotations

from dataclasses import dataclass

Points = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Iou:
    debtor: int
    creditor: int
    points: int


def pay_or_owe(
    points: Points, ious: tuple[Iou, ...], payer: int, payee: int, amount: int
) -> tuple[Points, tuple[Iou, ...]]:
    """``payer`` pays ``payee`` ``amount`` from its tray; what the tray cannot cover is an IOU."""
    handed = min(amount, points[payer])
    trays = list(points)
    trays[payer] -= handed
    trays[payee] += handed
    if amount > handed:
        ious = (*ious, Iou(payer, payee, amount - handed))
    return repay((trays[0], trays[1], trays[2], trays[3]), ious)


def repay(points: Points, ious: tuple[Iou, ...]) -> tuple[Points, tuple[Iou, ...]]:
    """Every stick a debtor holds goes to its creditors until it holds none or owes nothing
    (a creditor repaid may itself owe: it pays on, so the loop runs until nothing moves)."""
    trays = list(points)
    open_ious = list(ious)
    moved = True
    while moved:  # each pass that moves sticks shrinks the debt, so this ends
        moved = False
        for index, iou in enumerate(open_ious):
            handed = min(trays[iou.debtor], iou.points)
            if handed:
                trays[iou.debtor] -= handed
                trays[iou.creditor] += handed
                open_ious[index] = Iou(iou.debtor, iou.creditor, iou.points - handed)
                moved = True
        open_ious = [iou for iou in open_ious if iou.points]
    return (trays[0], trays[1], trays[2], trays[3]), tuple(open_ious)


def owed_by_seat(ious: tuple[Iou, ...]) -> Points:
    owed = [0, 0, 0, 0]
    for iou in ious:
        owed[iou.debtor] += iou.points
    return (owed[0], owed[1], owed[2], owed[3])
