"""Verdicts: what the referee says about an act, as a value with a reason code.

A rule violation is not an exception: ``judge`` (see :mod:`table_app.rules.legality`)
returns a :class:`Verdict` naming the reason and what the profile does about it. The four
consequences are the ones the seeds name: the act is simply void (a call that came too
late, 001 第18条), chombo (a false win, noten riichi, an illegal closed kan after riichi:
000, 002), loss of rights for the rest of the hand (純麻雀 第18–23条), or nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from table_app.domain.seat import Seat
from table_app.rules.profiles import ChomboPenalty, RuleProfile


class Reason(StrEnum):
    # calls
    CALL_ON_OWN_DISCARD = "call_on_own_discard"
    CALL_NOT_LAST_DISCARD = "call_not_last_discard"
    CALL_AFTER_NEXT_DRAW = "call_after_next_draw"
    CHI_NOT_FROM_LEFT = "chi_not_from_left"
    CALL_IN_RIICHI = "call_in_riichi"
    CALL_PRIORITY = "call_priority"  # a ron outranks pon and kan, which outrank chi
    CALL_TILES_NOT_HELD = "call_tiles_not_held"  # 空吃/空ポン: the caller lacks the tiles
    NO_KANS = "no_kans"  # the profile has no kans
    KUIKAE = "kuikae"
    RIICHI_DISCARD_CHOICE = "riichi_discard_choice"  # a riichi player kept the drawn tile
    # riichi
    RIICHI_OPEN_HAND = "riichi_open_hand"
    RIICHI_TOO_FEW_POINTS = "riichi_too_few_points"
    RIICHI_TOO_FEW_TILES = "riichi_too_few_tiles"
    RIICHI_TWICE = "riichi_twice"
    RIICHI_NOT_TENPAI = "riichi_not_tenpai"
    RIICHI_KAN = "riichi_kan"  # closed kan after riichi that the profile's strictness forbids
    # wins
    FURITEN_RON = "furiten_ron"
    FALSE_WIN = "false_win"  # not a complete hand, no yaku, or no such tile to win on
    # draws
    NOTEN_RIICHI = "noten_riichi"
    DRAW_NOT_IN_PROFILE = "draw_not_in_profile"
    DRAW_CONDITIONS_UNMET = "draw_conditions_unmet"
    HAND_ENDED = "hand_ended"  # a win or a draw claimed after the hand ended (a second ron excepted)
    # penalties already given
    RIGHTS_LOST = "rights_lost"  # 純麻雀: the player lost this right earlier in the hand


class Consequence(StrEnum):
    ACCEPTED = "accepted"
    VOID = "void"  # the act does not count; play goes on, no penalty
    CHOMBO = "chombo"  # the profile's chombo penalty (its ``chombo`` switch says how)
    LOSS_OF_RIGHTS = "loss_of_rights"  # no more chi, pon, riichi (and for a false win: no win)


#: What the reason costs under a profile whose chombo is a payment or a tally deduction.
_STANDARD: dict[Reason, Consequence] = {
    Reason.CALL_ON_OWN_DISCARD: Consequence.VOID,
    Reason.CALL_NOT_LAST_DISCARD: Consequence.VOID,
    Reason.CALL_AFTER_NEXT_DRAW: Consequence.VOID,
    Reason.CHI_NOT_FROM_LEFT: Consequence.VOID,
    Reason.CALL_IN_RIICHI: Consequence.VOID,
    Reason.CALL_PRIORITY: Consequence.VOID,
    Reason.CALL_TILES_NOT_HELD: Consequence.CHOMBO,
    Reason.NO_KANS: Consequence.VOID,
    Reason.KUIKAE: Consequence.CHOMBO,
    Reason.RIICHI_DISCARD_CHOICE: Consequence.CHOMBO,
    Reason.RIICHI_OPEN_HAND: Consequence.VOID,
    Reason.RIICHI_TOO_FEW_POINTS: Consequence.VOID,
    Reason.RIICHI_TOO_FEW_TILES: Consequence.VOID,
    Reason.RIICHI_TWICE: Consequence.VOID,
    Reason.RIICHI_NOT_TENPAI: Consequence.CHOMBO,
    Reason.RIICHI_KAN: Consequence.CHOMBO,
    Reason.FURITEN_RON: Consequence.CHOMBO,
    Reason.FALSE_WIN: Consequence.CHOMBO,
    Reason.NOTEN_RIICHI: Consequence.CHOMBO,
    Reason.DRAW_NOT_IN_PROFILE: Consequence.VOID,
    Reason.DRAW_CONDITIONS_UNMET: Consequence.VOID,
    Reason.HAND_ENDED: Consequence.VOID,
    Reason.RIGHTS_LOST: Consequence.VOID,
}

#: 純麻雀 turns every penalty into a loss of rights (001 第18–23条): a false call (空吃,
#: 空ポン), a mis-spoken or false riichi, a false win shown (錯和: also no win, tsumogiri only).
_LOSS_OF_RIGHTS_INSTEAD = frozenset(
    {
        Reason.CALL_TILES_NOT_HELD,
        Reason.RIICHI_OPEN_HAND,
        Reason.RIICHI_TWICE,
        Reason.FURITEN_RON,
        Reason.FALSE_WIN,
        Reason.RIICHI_DISCARD_CHOICE,
    }
)


def consequence_of(reason: Reason, profile: RuleProfile) -> Consequence:
    if profile.chombo is ChomboPenalty.LOSS_OF_RIGHTS and (
        reason in _LOSS_OF_RIGHTS_INSTEAD or _STANDARD[reason] is Consequence.CHOMBO
    ):
        return Consequence.LOSS_OF_RIGHTS
    return _STANDARD[reason]


@dataclass(frozen=True, slots=True)
class Verdict:
    consequence: Consequence
    seat: Seat | None = None
    reason: Reason | None = None
    message: str = ""
    penalty: ChomboPenalty | None = None  # for CHOMBO: how this profile makes the offender pay

    @property
    def accepted(self) -> bool:
        return self.consequence is Consequence.ACCEPTED


ACCEPTED = Verdict(Consequence.ACCEPTED)


def reject(reason: Reason, seat: Seat | None, message: str, profile: RuleProfile) -> Verdict:
    consequence = consequence_of(reason, profile)
    penalty = profile.chombo if consequence is Consequence.CHOMBO else None
    return Verdict(consequence, seat, reason, message, penalty)
