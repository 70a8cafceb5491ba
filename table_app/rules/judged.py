"""Judge, then fold: the one way an act enters the game, live or replayed.

An act the judge refuses is not folded in: the game goes on as the table would after the
ruling (a void act did not happen; a chombo or a loss of rights is the referee's ``Chombo``
event, which comes next if the referee confirms it). The live referee (``interpret``) and
``jantaku replay`` both step through :func:`judge_and_apply`.
"""

from __future__ import annotations

from dataclasses import dataclass

from table_app.rules.events import Ankan, Chi, Chombo, Dahai, Daiminkan, GameEvent, Hora, Kakan, Pon, Reach, Ryukyoku
from table_app.rules.fold import apply
from table_app.rules.legality import judge
from table_app.rules.state import GameState
from table_app.rules.verdicts import ACCEPTED, Verdict

#: The acts a verdict is given on (the others are the table's own course: draws, dora, deals).
JUDGED_ACTS = (Chi, Pon, Daiminkan, Kakan, Ankan, Dahai, Reach, Hora, Ryukyoku)


@dataclass(frozen=True, slots=True)
class Judged:
    state: GameState  # after the act, or as it was if the act was refused
    verdict: Verdict

    @property
    def folded(self) -> bool:
        return self.verdict.accepted


def is_judged(event: GameEvent) -> bool:
    return isinstance(event, JUDGED_ACTS)


def judge_and_apply(state: GameState, event: GameEvent) -> Judged:
    """The verdict on ``event``, and the state after it if accepted (``apply`` may still raise
    :class:`~table_app.rules.turns.ImpossibleEventError` for an event no table could show)."""
    if state.hand is not None and not isinstance(event, Chombo):
        verdict = judge(state.hand, event, state.profile)
        if not verdict.accepted:
            return Judged(state, verdict)
    return Judged(apply(state, event), ACCEPTED)
