"""Who pays whom: wins (honba, sticks, pao), the exhaustive-draw pool, nagashi mangan.

Every function returns per-seat deltas (a tuple of four ints summing to the sticks paid out,
or to zero).
"""

from __future__ import annotations

from collections.abc import Collection

from table_app.domain.seat import Seat
from table_app.rules.profiles import RuleProfile
from table_app.rules.scoring import WinValue

SEATS = tuple(Seat)
MANGAN_BASE = 2000  # a mangan's base points: non-dealer ron 8000, dealer 12000


def _add(deltas: list[int], seat: Seat, amount: int) -> None:
    deltas[seat] += amount


def win_deltas(
    value: WinValue,
    winner: Seat,
    target: Seat,
    dealer: Seat,
    *,
    honba: int,
    sticks: int,
    pao: Seat | None,
    profile: RuleProfile,
) -> tuple[int, ...]:
    """Payments of one win. ``honba`` and ``sticks`` are zero for every winner of a multiple
    ron but the one who takes them (the first in turn order after the discarder)."""
    deltas = [0, 0, 0, 0]
    honba_total = honba * profile.honba_points
    if target != winner:
        if pao is not None and pao != target:
            half = value.points // 2
            _add(deltas, pao, -half)
            _add(deltas, target, -(value.points - half) - honba_total)
        else:
            _add(deltas, target, -value.points - honba_total)
    elif pao is not None:
        _add(deltas, pao, -value.points - honba_total)
    else:
        per_player_honba = honba_total // 3
        for seat in SEATS:
            if seat == winner:
                continue
            share = value.dealer_pays if seat == dealer else value.others_pay
            _add(deltas, seat, -share - per_player_honba)
    _add(deltas, winner, -sum(deltas) + profile.riichi_deposit * sticks)
    return tuple(deltas)


def noten_deltas(tenpai: Collection[Seat], pool: int) -> tuple[int, ...]:
    """The exhaustive-draw pool: noten players pay ``pool`` in all, split over the tenpai."""
    if not tenpai or len(tenpai) == len(SEATS) or pool == 0:
        return (0, 0, 0, 0)
    noten = len(SEATS) - len(tenpai)
    return tuple(pool // len(tenpai) if seat in tenpai else -pool // noten for seat in SEATS)


def nagashi_deltas(winners: Collection[Seat], dealer: Seat) -> tuple[int, ...]:
    """Nagashi mangan: each qualifying player is paid as a mangan tsumo (no honba, no sticks)."""
    deltas = [0, 0, 0, 0]
    for winner in winners:
        for seat in SEATS:
            if seat == winner:
                continue
            share = 2 * MANGAN_BASE if dealer in (winner, seat) else MANGAN_BASE
            _add(deltas, seat, -share)
            _add(deltas, winner, share)
    return tuple(deltas)


def chombo_deltas(offender: Seat, dealer: Seat) -> tuple[int, ...]:
    """A mangan payment by the offender, as if every other player had won a mangan tsumo off
    them: a dealer pays 4000 to each, a non-dealer 4000 to the dealer and 2000 to the others."""
    deltas = [0, 0, 0, 0]
    for seat in SEATS:
        if seat == offender:
            continue
        share = 2 * MANGAN_BASE if dealer in (offender, seat) else MANGAN_BASE
        _add(deltas, seat, share)
        _add(deltas, offender, -share)
    return tuple(deltas)
