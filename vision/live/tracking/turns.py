"""Putting one update's changes in the order they happened at the table.

Several changes can confirm in the same reading (two zones settling together, or all that
happened while the camera was lost or an arm hid a pond). They are replayed in turn order:
the seat due to act discards; a call comes right after the discard it takes (its pond's
``PondTileRemoved`` right after the meld, as the log feed posts them) and the caller acts
next; a closed or added kan comes in its owner's turn before their discard; a kan's new dora
indicator right after the kan. A new hand's first indicator comes before all of it, the ura
indicators and hands laid open after it (a win ends the turn). What fits no turn (a call on a
discard the camera never settled) is posted last, calls first, rather than dropped.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from table_app.domain.seat import Seat
from table_app.observations import (
    DoraRevealed,
    HandLaidOpen,
    MeldAppeared,
    MeldExtended,
    Observation,
    PondTileAdded,
    PondTileRemoved,
    UraIndicatorsRevealed,
)


@dataclass(frozen=True, slots=True)
class Call:
    meld: MeldAppeared
    discarder: Seat
    removal: PondTileRemoved | None = None  # the discarder's pond gave the tile up in this update
    unseen_discard: PondTileAdded | None = None  # the discard itself, inferred: its pond was not in view


@dataclass
class Batch:
    removals: list[PondTileRemoved] = field(default_factory=list)  # no call of this update explains them
    discards: dict[Seat, list[PondTileAdded]] = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)
    own_kans: dict[Seat, list[MeldAppeared | MeldExtended]] = field(default_factory=dict)
    first_dora: list[DoraRevealed] = field(default_factory=list)
    kan_dora: list[DoraRevealed] = field(default_factory=list)
    ura: UraIndicatorsRevealed | None = None
    hands: list[HandLaidOpen] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Turn:
    """Where play stands as far as the tracker has reported it."""

    to_act: Seat | None = None  # the seat expected to discard next
    last_discarder: Seat | None = None  # whose discard a call may still take


def _is_kan(observation: Observation) -> bool:
    if isinstance(observation, MeldExtended):
        return True
    return isinstance(observation, MeldAppeared) and len(observation.tiles) == 4


Kans = dict[Seat, deque[MeldAppeared | MeldExtended]]


def _first_to_act(discards: dict[Seat, deque[PondTileAdded]], own: Kans) -> Seat:
    """With no turn known (a hand's first discards), the seat that starts a run of acting seats."""
    acting = [s for s in Seat if discards.get(s) or own.get(s)]
    if not acting:
        return Seat.S0
    return next((s for s in acting if not discards.get(s.left)), acting[0])


def in_turn_order(batch: Batch, turn: Turn) -> tuple[tuple[Observation, ...], Turn]:
    out: list[Observation] = [*batch.first_dora, *batch.removals]
    kan_dora = deque(batch.kan_dora)
    discards = {s: deque(d) for s, d in batch.discards.items()}
    own = {s: deque(k) for s, k in batch.own_kans.items()}
    calls = list(batch.calls)
    for call in calls:
        if call.unseen_discard is not None:
            discards.setdefault(call.discarder, deque()).append(call.unseen_discard)
    to_act = turn.to_act if turn.to_act is not None else _first_to_act(discards, own)
    last = turn.last_discarder

    def emit(observation: Observation) -> None:
        out.append(observation)
        if kan_dora and _is_kan(observation):
            out.append(kan_dora.popleft())

    inferred = [c.unseen_discard for c in calls if c.unseen_discard is not None]
    idle = 0
    while idle < 4 and (calls or any(discards.values()) or any(own.values())):
        # A call takes the last discard; one inferred for it must have been posted first.
        taking = next((c for c in calls if c.discarder == last and c.unseen_discard not in inferred), None)
        if taking is not None:
            calls.remove(taking)
            emit(taking.meld)
            removal = taking.removal
            if removal is None and taking.unseen_discard is not None:
                removal = PondTileRemoved(taking.meld.at, taking.discarder, taking.unseen_discard.tile)
            if removal is not None:
                out.append(removal)
            to_act, last, idle = taking.meld.seat, None, 0
            continue
        if own.get(to_act):
            emit(own[to_act].popleft())
            idle = 0
            continue
        if discards.get(to_act):
            discard = discards[to_act].popleft()
            if discard in inferred:
                inferred.remove(discard)
            out.append(discard)
            last, to_act, idle = to_act, to_act.next, 0
            continue
        to_act, idle = to_act.next, idle + 1
    # Whatever fits no turn, in a fixed order: calls, kans, discards.
    for call in calls:
        emit(call.meld)
        if call.removal is not None:
            out.append(call.removal)
        to_act, last = call.meld.seat, None
    for seat in Seat:
        for kan in own.get(seat, ()):
            emit(kan)
        for discard in discards.get(seat, ()):
            out.append(discard)
            last, to_act = seat, seat.next
    out.extend(kan_dora)
    if batch.ura is not None:
        out.append(batch.ura)
    out.extend(batch.hands)
    return tuple(out), Turn(to_act, last)
