"""A misread discard corrected from the console: the hand replayed from it and re-judged.

Any discard of the hand in play may be corrected, not only the last. The right tile goes in
where the wrong one was; a call or ron that took that very tile takes the right one with it
(the same tile on the table). Then every act after it is judged again, in order, against the
hand as it now stands: what still stands is kept; the first act that no longer stands (a ron
now furiten, a call the tile does not fit) is announced and put to the referee as it would
have been live, and it and everything after it no longer stand. A win the judge refused
before (the question still open) is proposed again: the right tile may make it stand. Only
what the correction changes is announced (a win worth something else, an act now illegal),
after the correction itself.

The core finds the discard in the journal, journals the outcome (the correction as its own
record, the acts taken back, the acts added) and then takes the session from here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from table_app.announce.announcement import Announcement, AnnouncementKind, announce
from table_app.announce.words import Form, reason_words
from table_app.domain.seat import Seat
from table_app.domain.tile import Tile
from table_app.interpret.acceptance import accept
from table_app.interpret.session import RefereeSession
from table_app.rules.events import Chi, Dahai, Daiminkan, GameEvent, Hora, Pon
from table_app.rules.fold import apply
from table_app.rules.legality import judge
from table_app.rules.state import GameState, RiichiStage


@dataclass(frozen=True, slots=True)
class CorrectedHand:
    """The outcome: ``replaced`` pairs a position in ``later`` (-1: the discard itself) with the
    event that now stands there; the last ``dropped`` of ``later`` no longer stand; ``appended``
    follow them. ``refusal`` says why nothing changed (the corrected discard itself is illegal)."""

    session: RefereeSession
    replaced: tuple[tuple[int, GameEvent], ...] = ()
    dropped: int = 0
    appended: tuple[GameEvent, ...] = ()
    announcements: tuple[Announcement, ...] = ()
    refusal: str = ""


def pond_discard(game: GameState, seat: Seat, index: int) -> str:
    """Why ``seat``'s pond tile ``index`` cannot be corrected ("" if it can)."""
    hand = game.hand
    if hand is None:
        return "no hand in play: only the hand in play can be corrected"
    pond = hand.player(seat).pond
    if not 0 <= index < len(pond):
        return f"{game.seat_naming().en(seat)} has no discard {index + 1} (their pond holds {len(pond)})"
    return ""


def correct_discard(
    session: RefereeSession, before: GameState, misread: Dahai, tile: Tile, *, index: int, later: Sequence[GameEvent]
) -> CorrectedHand:
    """``misread`` (folded on ``before``) was really ``tile``; ``later``: the hand's acts after it."""
    hand = before.hand
    assert hand is not None
    corrected = replace(misread, pai=tile)
    verdict = judge(hand, corrected, before.profile)
    if not verdict.accepted:
        reason = reason_words(verdict.reason.value if verdict.reason is not None else "", Form.EN)
        return CorrectedHand(session, refusal=f"{tile} cannot have been discarded there: {reason}")
    was = _rejudge(_at(session, apply(before, misread)), misread, misread, later)
    now = _rejudge(_at(session, apply(before, corrected)), misread, corrected, later)
    said = (
        announce(AnnouncementKind.CORRECTED, misread.actor, index=index, was=str(misread.pai), tile=str(tile)),
        *_changed(was.announcements, now.announcements),
    )
    replaced = ((-1, corrected), *((i, e) for i, e in enumerate(now.events) if e != later[i]))
    question = session.question
    after = now.session if now.session.question is not None else replace(now.session, question=question)
    outcome = CorrectedHand(after, replaced, len(later) - len(now.events), (), said)
    if question is None or not question.refused or len(now.events) < len(later):
        return outcome
    # A win the judge refused may stand on the right tile: judged again where it was.
    retry = accept(replace(now.session, question=None), _following(question.refused, misread, corrected, now.session))
    if not retry.events:
        return outcome  # still refused: the question stays open, nothing said again
    return replace(
        outcome,
        session=resync(retry.session),
        appended=retry.events,
        announcements=(*said, *retry.announcements),
    )


def _changed(was: tuple[Announcement, ...], now: tuple[Announcement, ...]) -> tuple[Announcement, ...]:
    """What is said now and was not said before, in the order it is said now."""
    before = Counter(was)
    changed = []
    for said in now:
        if before[said]:
            before[said] -= 1
        else:
            changed.append(said)
    return tuple(changed)


@dataclass(frozen=True, slots=True)
class _Rejudged:
    session: RefereeSession
    events: tuple[GameEvent, ...]  # the first of ``later`` that still stand, as they now stand
    announcements: tuple[Announcement, ...]


def _rejudge(session: RefereeSession, misread: Dahai, discard: Dahai, later: Sequence[GameEvent]) -> _Rejudged:
    events: list[GameEvent] = []
    said: list[Announcement] = []
    for event in later:
        (taken,) = _following((event,), misread, discard, session)
        outcome = accept(session, (taken,))
        said.extend(outcome.announcements)
        if not outcome.events:
            return _Rejudged(resync(outcome.session), tuple(events), tuple(said))
        session = outcome.session
        events.append(taken)
    return _Rejudged(resync(session), tuple(events), tuple(said))


def _following(
    events: Sequence[GameEvent], misread: Dahai, discard: Dahai, session: RefereeSession
) -> tuple[GameEvent, ...]:
    """A call or ron on the corrected discard itself takes the right tile (the same tile)."""
    hand = session.game.hand
    on_it = hand is not None and hand.last_discard == discard.actor and hand.last_discard_tile == discard.pai
    if not on_it or misread.pai == discard.pai:
        return tuple(events)
    return tuple(
        replace(e, pai=discard.pai)
        if isinstance(e, (Chi, Pon, Daiminkan, Hora)) and e.target == discard.actor and e.pai == misread.pai
        else e
        for e in events
    )


def _at(session: RefereeSession, game: GameState) -> RefereeSession:
    return resync(replace(session, game=game, question=None))


def resync(session: RefereeSession) -> RefereeSession:
    """The session's memory of the hand, as the replayed game has it."""
    hand = session.game.hand
    declared = None
    if hand is not None:
        declared = next((Seat(s) for s, p in enumerate(hand.players) if p.riichi is RiichiStage.DECLARED), None)
    return replace(session, riichi_waiting=declared, awaiting_deal=hand is None)
