"""Tiles the camera read with low confidence: taken as read, and put to the referee to confirm.

A discard, meld or hand laid open whose ``confidence`` is below ``TableSetup.confidence_floor``
is judged and accepted like any other (the game goes on; holding it would stall every act after
it), then announced as a question with one option, CONFIRM: "uncertain tile, please confirm or
correct". The referee confirms, or corrects from the console (a discard's tile) or with UNDO.
The camera's guess is never silently the truth. A question already pending is not replaced.
The question is a check (``Question.taken_as_read``): a CONFIRM that would end the hand ends
it, acknowledging the check on the way, so that an unanswered check cannot hold a hand open.
"""

from __future__ import annotations

from dataclasses import replace

from table_app.domain.seat_names import mention
from table_app.interpret.acceptance import ask
from table_app.interpret.session import Decision, Question, RefereeSession
from table_app.observations import HandLaidOpen, MeldAppeared, Observation, PondTileAdded
from table_app.rules.events import Ankan, Chi, Dahai, Daiminkan, GameEvent, Hora, Pon, Ryukyoku

Seen = PondTileAdded | MeldAppeared | HandLaidOpen


def _taken(seen: Seen, events: tuple[GameEvent, ...], session: RefereeSession) -> bool:
    """Whether the decision took ``seen`` as the truth (an event of it, or a hand shown at a draw)."""
    kinds: tuple[type, ...]
    match seen:
        case PondTileAdded():
            kinds = (Dahai,)
        case MeldAppeared():
            kinds = (Chi, Pon, Daiminkan, Ankan)
        case HandLaidOpen():
            kinds = (Hora, Ryukyoku)
            if any(s.seat == seen.seat and s.tiles == seen.tiles for s in session.shown):
                return True
    return any(isinstance(e, kinds) and getattr(e, "actor", None) == seen.seat for e in events)


def _what(seen: Seen) -> str:
    seat = f"{mention(seen.seat)}"
    match seen:
        case PondTileAdded():
            return f"{seat} discarded {seen.tile}"
        case MeldAppeared():
            return f"{seat} melded {''.join(str(t) for t in seen.tiles)}"
        case HandLaidOpen():
            return f"{seat} laid open {''.join(str(t) for t in seen.tiles)}"


def confirm_uncertain(before: RefereeSession, observation: Observation, decision: Decision) -> Decision:
    """``decision`` with a question added for each low-confidence reading it accepted."""
    floor = before.setup.confidence_floor
    candidates: list[Seen] = []
    if isinstance(observation, (PondTileAdded, MeldAppeared, HandLaidOpen)):
        candidates.append(observation)
    held = before.pending_discard
    if held is not None and decision.session.pending_discard is not held:
        candidates.append(held)  # a discard that waited for the wall step was taken now
    session = decision.session
    doubtful = [c for c in candidates if c.confidence < floor and _taken(c, decision.events, session)]
    if not doubtful or session.question is not None:
        return decision
    lowest = min(c.confidence for c in doubtful)
    topic = f"uncertain tile, please confirm or correct: {'; '.join(_what(c) for c in doubtful)} ({lowest:.2f})"
    seat = doubtful[0].seat
    session, said = ask(session, Question(0, seat, topic, ("confirmed as read",), ((),), taken_as_read=True))
    return replace(decision, session=session, announcements=(*decision.announcements, said))
