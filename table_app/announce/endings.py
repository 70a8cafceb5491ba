"""What the referee says when a hand ends: the ending and its payments, from the rules core's
:class:`HandResult`. The live referee (at ``end_kyoku``) and ``jantaku replay --announce`` both
say exactly this, so a table and a replay of its game announce the same endings and payments.

Wins are said in the order the result holds them: from the discarder round the table (the
nearest first, who takes the honba and sticks). A result says nothing until the hand has
ended, which is why the wins are not said as each ron is called: a head bump or a triple ron
changes who wins only when the last call is in.
"""

from __future__ import annotations

from table_app.announce.announcement import Announcement, AnnouncementKind, ParamValue, announce
from table_app.rules.profiles import ChomboPenalty, RuleProfile, Scoring
from table_app.rules.record import HandEnding
from table_app.rules.results import HandResult, WinResult


def hand_ending(result: HandResult, profile: RuleProfile) -> tuple[Announcement, ...]:
    match result.ending:
        case HandEnding.WIN:
            return tuple(_win(win, profile) for win in result.wins)
        case HandEnding.EXHAUSTIVE:
            tenpai = tuple(int(s) for s in result.tenpai)
            return (announce(AnnouncementKind.EXHAUSTIVE_DRAW, tenpai=tenpai, deltas=result.deltas),)
        case HandEnding.NAGASHI_MANGAN:
            seats = tuple(int(s) for s in result.nagashi)
            return (announce(AnnouncementKind.NAGASHI_MANGAN, seats=seats, deltas=result.deltas),)
        case HandEnding.CHOMBO:
            tally = profile.chombo_tally_points if profile.chombo is ChomboPenalty.FINAL_TALLY else 0
            return (announce(AnnouncementKind.CHOMBO, result.offender, deltas=result.deltas, tally=tally),)
    return (announce(AnnouncementKind.ABORTIVE_DRAW, draw=result.ending.value),)


def _win(win: WinResult, profile: RuleProfile) -> Announcement:
    params: dict[str, ParamValue] = {
        "target": int(win.target),
        "han": win.han,
        "points": win.points,
        "yaku": win.yaku,
        "deltas": win.deltas,
    }
    if profile.scoring is Scoring.HAN_FU:
        params["fu"] = win.fu  # a fixed table (純麻雀) pays by han alone: no fu to say
    return announce(AnnouncementKind.WIN, win.winner, **params)
