"""Chombo as each profile settles it (spec §5, §7; 002; 001 第18–23条).

- mangan payment: the offender pays a mangan; the hand is void and replayed (same dealer,
  same honba); riichi sticks put down this hand go back to their players;
- final tally: no payment now, the offender loses ``chombo_tally_points`` on the final
  tally (JPML); the hand is void and replayed as above;
- loss of rights (純麻雀): nothing is paid and the hand goes on; the offender may no longer
  chi, pon or declare riichi, and after a false win or furiten ron may no longer win.
"""

from __future__ import annotations

from dataclasses import replace

from table_app.domain.seat import Seat
from table_app.rules.events import Chombo
from table_app.rules.payments import chombo_deltas
from table_app.rules.profiles import ChomboPenalty, RuleProfile
from table_app.rules.record import HandEnding
from table_app.rules.results import HandResult
from table_app.rules.state import KyokuState, RiichiStage

#: Reasons after which 純麻雀 also takes away the right to win (錯和 / 空栄).
_LOSES_WIN_RIGHT = frozenset({"false_win", "furiten_ron"})


def on_chombo(hand: KyokuState, event: Chombo, profile: RuleProfile) -> KyokuState:
    if profile.chombo is ChomboPenalty.LOSS_OF_RIGHTS:
        player = replace(
            hand.player(event.actor),
            lost_call_rights=True,
            lost_win_right=hand.player(event.actor).lost_win_right or event.reason in _LOSES_WIN_RIGHT,
        )
        return replace(hand, players=hand.with_player(event.actor, player))
    returned = [seat for seat in Seat if hand.player(seat).riichi is RiichiStage.ACCEPTED]
    paid = chombo_deltas(event.actor, hand.oya) if profile.chombo is ChomboPenalty.MANGAN_PAYMENT else (0, 0, 0, 0)
    deltas = tuple(d + (profile.riichi_deposit if seat in returned else 0) for seat, d in enumerate(paid))
    result = HandResult(hand.label(), HandEnding.CHOMBO, deltas, offender=event.actor)
    sticks_left = hand.kyotaku - (len(returned) if profile.riichi_deposit else 0)
    return replace(hand, kyotaku=sticks_left, result=result)
