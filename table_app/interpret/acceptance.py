"""Proposed events → judged, folded, announced. The one place a proposal becomes the truth.

Each proposal is judged by the rules core against the hand as it stands. Accepted, it is folded
in and announced (riichi, calls, wins, draws, the game's end). A void act is announced and
dropped. A chombo or loss of rights is announced and put to the referee to confirm, because a
misread tile looks exactly like a false win to a camera: the penalty is never guessed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

from table_app.announce.announcement import Announcement, AnnouncementKind, announce
from table_app.announce.endings import hand_ending
from table_app.domain.errors import InputError
from table_app.interpret.session import Question, RefereeSession
from table_app.rules.events import (
    Ankan,
    Chi,
    Chombo,
    Daiminkan,
    EndGame,
    EndKyoku,
    GameEvent,
    Hora,
    Kakan,
    Pon,
    ProfileChange,
    Reach,
    StartKyoku,
)
from table_app.rules.judged import judge_and_apply
from table_app.rules.turns import ImpossibleEventError
from table_app.rules.verdicts import Consequence

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Accepted:
    session: RefereeSession
    events: tuple[GameEvent, ...]
    announcements: tuple[Announcement, ...]


def ask(session: RefereeSession, question: Question) -> tuple[RefereeSession, Announcement]:
    numbered = replace(question, id=session.next_question)
    said = announce(
        AnnouncementKind.QUESTION, question.seat, question=numbered.id, topic=question.topic, options=question.options
    )
    return replace(session, question=numbered, next_question=numbered.id + 1), said


def accept(session: RefereeSession, proposals: tuple[GameEvent, ...]) -> Accepted:
    """Judge and fold ``proposals`` in order; stop at the first one that is not accepted."""
    events: list[GameEvent] = []
    said: list[Announcement] = []
    for index, event in enumerate(proposals):
        game = session.game
        try:
            judged = judge_and_apply(game, event)
        except (ImpossibleEventError, InputError) as error:
            # A reading the state cannot take (a meld with a tile nobody could hold, a tile the
            # hand does not have) is put to the referee; it must never stop the core thread.
            logger.warning("cannot follow %r: %s", event, error)
            session, question = ask(
                session, Question(0, None, f"cannot follow the game: {error}", ("misread: ignore",), ((),))
            )
            said.append(question)
            break
        verdict = judged.verdict
        if not judged.folded:
            reason = verdict.reason.value if verdict.reason is not None else ""
            said.append(
                announce(
                    AnnouncementKind.ILLEGAL_ACT, verdict.seat, reason=reason, consequence=verdict.consequence.value
                )
            )
            if verdict.consequence is not Consequence.VOID and verdict.seat is not None:
                session, question = ask(
                    session,
                    Question(
                        0,
                        verdict.seat,
                        f"penalty ({verdict.consequence.value}: {reason})",
                        ("penalty", "misread: ignore"),
                        ((Chombo(verdict.seat, reason),), ()),
                        refused=proposals[index:],
                    ),
                )
                said.append(question)
            break
        session = replace(session, game=judged.state)
        events.append(event)
        said.extend(_announcements_of(session, event))
        if isinstance(event, StartKyoku):
            session = replace(session, awaiting_deal=False, shown=(), ura=())
        if isinstance(event, EndKyoku):
            session = replace(session, awaiting_deal=True, payments_due=True, riichi_waiting=None, shown=())
    return Accepted(session, tuple(events), tuple(said))


def _announcements_of(session: RefereeSession, event: GameEvent) -> tuple[Announcement, ...]:
    game = session.game
    match event:
        case Reach():
            return (announce(AnnouncementKind.RIICHI, event.actor),)
        case Chi() | Pon():
            return (announce(AnnouncementKind.CALL, event.actor, call=type(event).__name__.lower()),)
        case Daiminkan() | Ankan() | Kakan():
            return (announce(AnnouncementKind.CALL, event.actor, call="kan"),)
        case Hora():
            # The call only: who wins and what is paid is said when the hand is ended, once the
            # last ron is in (a head bump or a triple ron changes it), as replay says it.
            return (
                announce(AnnouncementKind.CALL, event.actor, call="tsumo" if event.actor == event.target else "ron"),
            )
        case StartKyoku():
            return (
                announce(AnnouncementKind.HAND_START, round=f"{'ESWN'[event.bakaze]}{event.kyoku}", honba=event.honba),
            )
        case EndKyoku() if game.results:
            return hand_ending(game.results[-1], game.profile)
        case EndGame():
            return (announce(AnnouncementKind.GAME_END, scores=game.scores),)
        case ProfileChange():
            return (announce(AnnouncementKind.PROFILE_CHANGED, profile=game.profile.name),)
    return ()
