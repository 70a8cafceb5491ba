"""``step(session, observation) -> Decision``: the referee core's one pure function.

The core thread calls it for every observation, journals the decision's events, then shows
its announcements. Observations are read as follows (see docs/runtime.md for the whole table):
- a tile at the end of a pond is a discard, once the board's wall count stepped for the draw
  (it is held until then, and taken from the camera alone when the link is down or the wall
  never steps: a disagreement is announced, the camera sees the tile);
- a sideways tile is a riichi; the stick on the deposit is checked when the next act accepts it;
- a meld with a turned tile is a call from the seat the tile points at; four tiles with none
  turned, a closed kan; a tile added to a pon, an added kan;
- a dora indicator after a kan is a new dora; the first one after a deal starts the hand;
- a hand laid open is a win (ron on the last discard, or tsumo) or, with the wall empty,
  tenpai shown at the draw;
- CONFIRM answers the referee's question with its first option, or ends the hand as it
  stands (the wins shown, an exhaustive draw, four riichi), or after a hand checks the trays.
After every step the board's last reading is checked against the game as it now stands
(:mod:`table_app.interpret.crosscheck`): a disagreement is announced once it has settled.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from table_app.announce.announcement import Announcement, AnnouncementKind, announce
from table_app.domain.seat import Seat
from table_app.interpret import crosscheck, moves
from table_app.interpret.acceptance import accept, ask
from table_app.interpret.board_wall import board_wall
from table_app.interpret.correction import pond_discard
from table_app.interpret.deal import deal
from table_app.interpret.ruling import Ruling, refused
from table_app.interpret.session import Decision, Question, RefereeSession
from table_app.interpret.uncertain import confirm_uncertain
from table_app.observations import (
    ButtonPress,
    CameraLost,
    CameraRestored,
    DoraRevealed,
    HandLaidOpen,
    HandStarted,
    LinkChanged,
    LinkHealth,
    MeldAppeared,
    MeldExtended,
    Observation,
    PondTileAdded,
    ProfileChosen,
    RefereeAnswer,
    RefereeButton,
    Tick,
    TileCorrected,
    TraysRead,
    UraIndicatorsRevealed,
)
from table_app.rules.draw_conditions import four_kans_unmet, four_winds_on_table
from table_app.rules.events import (
    Dahai,
    Dora,
    DrawKind,
    EndGame,
    EndKyoku,
    GameEvent,
    Hora,
    ProfileChange,
    Reach,
    ReachAccepted,
    Ryukyoku,
    ShownHand,
    StartGame,
)
from table_app.rules.profiles import profile_named

logger = logging.getLogger(__name__)

Proposal = tuple[GameEvent, ...] | Question


def step(session: RefereeSession, observation: Observation) -> Decision:
    decision = confirm_uncertain(session, observation, _step(session, observation))
    if decision.undo:
        return decision  # the core folds the journal back first; the next step checks again
    checked, said = crosscheck.reconcile(decision.session)
    return replace(decision, session=checked, announcements=(*decision.announcements, *said))


def _step(session: RefereeSession, observation: Observation) -> Decision:
    said: tuple[Announcement, ...] = ()
    match observation:
        case Tick():
            return Decision(crosscheck.tick(session, observation.at))
        case LinkChanged():
            return _link(session, observation)
        case CameraLost():
            return Decision(replace(session, camera_ok=False), announcements=(announce(AnnouncementKind.CAMERA_LOST),))
        case CameraRestored():
            return Decision(
                replace(session, camera_ok=True), announcements=(announce(AnnouncementKind.CAMERA_RESTORED),)
            )
        case TraysRead():
            return _trays(session, observation)
        case ButtonPress():
            return _button(session, observation)
        case RefereeAnswer():
            return _answer(session, observation.question, observation.choice)
        case TileCorrected():
            return _correct(session, observation)
        case ProfileChosen():
            return _profile(session, observation)
        case HandStarted():
            hand = session.game.hand
            if hand is not None and not hand.wins and hand.result is None:
                # A new-deal signal while the hand is still in play (the board's hand counter ran
                # ahead of the camera, or a misread): the hand's end will open the next deal, and
                # taking it now would read the next dora indicator (a kan's) as a new hand's.
                logger.info("new deal signalled while %s is in play: ignored", hand.label())
                return Decision(session)
            if hand is not None and (hand.wins or hand.result is not None):
                return _propose(session, (EndKyoku(),))
            return Decision(replace(session, awaiting_deal=True))
    # A game observation: a discard still waiting for its wall step is taken now.
    session, held_events, said = _release_pending(session)
    hand = session.game.hand
    proposal: Proposal | None
    match observation:
        case DoraRevealed():
            proposal = deal(session, observation.indicator) if session.awaiting_deal else (Dora(observation.indicator),)
        case UraIndicatorsRevealed():
            return Decision(replace(session, ura=observation.indicators), held_events, said)
        case _ if hand is None:
            logger.info("no hand in play: %r ignored", observation)
            proposal = None
        case PondTileAdded():
            if _wall_pending(session, observation):
                return Decision(replace(session, pending_discard=observation), held_events, said)
            proposal = _before_act(session, moves.discard(hand, observation))
        case MeldAppeared():
            proposal = _before_act(session, moves.meld(hand, observation))
        case MeldExtended():
            proposal = _before_act(session, moves.added_kan(hand, observation))
        case HandLaidOpen():
            proposal = moves.laid_open(hand, observation, session.ura, _wall_stepped(session))
            proposal = None if proposal is None else _before_act(session, proposal)
            if proposal is None:
                shown = tuple(s for s in session.shown if s.seat != observation.seat)
                session = replace(session, shown=(*shown, ShownHand(observation.seat, observation.tiles)))
        case _:
            proposal = None
    if proposal is None:
        return Decision(session, held_events, said)
    return _with(_propose(session, proposal), events=held_events, before=said)


def _with(decision: Decision, events: tuple[GameEvent, ...] = (), before: tuple[Announcement, ...] = ()) -> Decision:
    return replace(decision, events=(*events, *decision.events), announcements=(*before, *decision.announcements))


def _propose(session: RefereeSession, proposal: Proposal) -> Decision:
    if isinstance(proposal, Question):
        session, question = ask(session, proposal)
        return Decision(session, announcements=(question,))
    outcome = accept(session, proposal)
    session = outcome.session
    said = outcome.announcements
    for event in outcome.events:
        if isinstance(event, StartGame):
            session = replace(session, started=True)
        elif isinstance(event, Reach):
            session = replace(session, riichi_waiting=event.actor)
        elif isinstance(event, ReachAccepted):
            session = replace(session, riichi_waiting=None)
    events = outcome.events
    game = session.game
    if events and isinstance(events[-1], Dahai) and game.profile.four_winds and four_winds_on_table(game.hand):
        # 四風子連打 is plain to see: no question, the hand ends (where the rule set has it;
        # elsewhere nobody declared anything and play goes on).
        aborted = _propose(session, (Ryukyoku(DrawKind.FOUR_WINDS), EndKyoku()))
        return Decision(aborted.session, (*events, *aborted.events), (*said, *aborted.announcements))
    if events and isinstance(events[-1], EndKyoku):
        # The trays may have settled before the referee ended the hand: the board reports
        # changes only, so the last reading is checked now (before the game's end is said).
        session, more = crosscheck.reconcile(session)
        said = (*said, *more)
        next_hand = session.game.next_hand
        if next_hand is not None and next_hand.game_over:
            finish = accept(session, (EndGame(),))
            session, events, said = finish.session, (*events, *finish.events), (*said, *finish.announcements)
    return Decision(session, events, said)


def _before_act(session: RefereeSession, proposal: Proposal) -> Proposal:
    """A riichi is accepted when the next act shows its tile passed (not a ron on it)."""
    if isinstance(proposal, Question) or session.riichi_waiting is None:
        return proposal
    if any(isinstance(e, Hora) and e.target == session.riichi_waiting for e in proposal):
        return proposal  # a ron on the riichi tile: the stick is never paid
    return (ReachAccepted(session.riichi_waiting), *proposal)


def _board_count(session: RefereeSession) -> int | None:
    """The board's wall count as it should read before the next draw, where a draw would show
    on it (``None``: no board, no hand, or a wall the board no longer counts)."""
    hand = session.game.hand
    if hand is None or not session.link_up or session.trays is None:
        return None
    count = board_wall(hand, session.game.profile)
    return count if count is not None and count > 0 else None


def _wall_stepped(session: RefereeSession) -> bool | None:
    """Whether the board's wall count shows a draw the game has not seen (``None``: no board)."""
    count = _board_count(session)
    if count is None or session.trays is None:
        return None
    return session.trays.wall == count - 1


def _wall_pending(session: RefereeSession, seen: PondTileAdded) -> bool:
    """Hold a discard that needs a draw while the board's wall count has not stepped yet."""
    hand = session.game.hand
    count = _board_count(session)
    if hand is None or count is None or session.trays is None:
        return False
    return moves.draw_if_due(hand, seen.seat) not in (None, ()) and session.trays.wall == count


def _release_pending(session: RefereeSession) -> tuple[RefereeSession, tuple[GameEvent, ...], tuple[Announcement, ...]]:
    """Take the discard held for its wall step: the step came, or the next act (or a lost link)
    says it will not (the wall cross-check then says so, if the board stays off)."""
    seen = session.pending_discard
    hand = session.game.hand
    if seen is None or hand is None:
        return session, (), ()
    session = replace(session, pending_discard=None)
    decision = _propose(session, _before_act(session, moves.discard(hand, seen)))
    return decision.session, decision.events, decision.announcements


def _link(session: RefereeSession, change: LinkChanged) -> Decision:
    was_up = session.link is LinkHealth.CONNECTED
    session = replace(session, link=change.health)
    if change.health is LinkHealth.CONNECTED:
        if not session.link_lost:
            return Decision(session)
        return Decision(replace(session, link_lost=False), announcements=(announce(AnnouncementKind.LINK_RESTORED),))
    if not was_up:
        return Decision(session)
    # Refereeing goes on from the camera: a discard waiting for the wall is taken now.
    session = replace(session, trays=None, link_lost=True)
    session, events, more = _release_pending(session)
    return Decision(session, events, (announce(AnnouncementKind.LINK_LOST), *more))


def _trays(session: RefereeSession, reading: TraysRead) -> Decision:
    if not reading.plausible:
        # The link flagged it (a slot between two stick counts, a wall that rose...): no
        # cross-check rests on it; the next good reading follows.
        logger.info("implausible reading not used: %r", reading)
        return Decision(session)
    session = replace(session, trays=reading)
    count = _board_count(session)
    if session.pending_discard is not None and count is not None and reading.wall == count - 1:
        session, events, said = _release_pending(session)
        return Decision(session, events, said)
    return Decision(session)


def _button(session: RefereeSession, press: ButtonPress) -> Decision:
    if press.button is RefereeButton.UNDO:
        return Decision(replace(session, question=None, pending_discard=None), undo=True)
    if press.button is not RefereeButton.CONFIRM:
        return Decision(session)
    if session.question is not None:
        if not session.question.taken_as_read:
            return _answer(session, session.question.id, 0)
        # Ending the hand confirms the readings it rests on; nothing else to do, the press only
        # acknowledges the check.
        session = replace(session, question=None)
    hand = session.game.hand
    if hand is None:
        session, said = crosscheck.trays_now(session)
        return Decision(session, announcements=said)
    if hand.wins or hand.result is not None:
        return _propose(session, (EndKyoku(),))
    accepted: tuple[GameEvent, ...] = () if session.riichi_waiting is None else (ReachAccepted(session.riichi_waiting),)
    riichi = sum(p.in_riichi for p in hand.players)
    # An abortive draw declared by CONFIRM stands on its own; the next CONFIRM ends the hand (as
    # after a win), so that a noten riichi found among the hands shown is ruled on first.
    if riichi == 4:
        return _propose(session, (*accepted, Ryukyoku(DrawKind.FOUR_RIICHI, session.shown)))
    if not four_kans_unmet(hand) and hand.turn is None:
        return _propose(session, (*accepted, Ryukyoku(DrawKind.FOUR_KANS, session.shown)))
    if hand.live_wall == 0 and hand.turn is None:
        return _propose(session, (*accepted, Ryukyoku(DrawKind.EXHAUSTIVE, session.shown), EndKyoku()))
    logger.info("CONFIRM with nothing to confirm")
    return Decision(session)


def _correct(session: RefereeSession, correction: TileCorrected) -> Decision:
    """A misread discard of the hand in play (with no seat named: the last one). The core finds
    it in the journal and replays the hand from there (:mod:`table_app.interpret.correction`)."""
    hand = session.game.hand
    if correction.seat is None or correction.index is None:
        players = () if hand is None else hand.players
        ponds = [(tile.order, seat, i) for seat, player in enumerate(players) for i, tile in enumerate(player.pond)]
        if not ponds:
            logger.warning("a corrected tile with no discard to correct: ignored")
            return Decision(session, ruling=refused("no discard in play to correct"))
        _, seat, index = max(ponds)
        correction = replace(correction, seat=Seat(seat), index=index)
    assert correction.seat is not None
    assert correction.index is not None
    refusal = pond_discard(session.game, correction.seat, correction.index)
    if not refusal:
        assert hand is not None
        read = hand.player(correction.seat).pond[correction.index].tile
        if read == correction.tile:
            who = session.game.seat_naming().en(correction.seat)
            refusal = f"{who}'s discard {correction.index + 1} is already {read}"
    if refusal:
        logger.warning("correction ignored: %s", refusal)
        return Decision(session, ruling=refused(refusal))
    return Decision(session, correction=correction)


def _profile(session: RefereeSession, chosen: ProfileChosen) -> Decision:
    """The rule profile changes between hands only: a hand is played under one set of rules."""
    try:
        profile = profile_named(chosen.profile)
    except ValueError as error:
        logger.warning("profile change ignored: %s", error)
        return Decision(session, ruling=refused(str(error)))
    if profile == session.game.profile:
        return Decision(session, ruling=Ruling(accepted=True, reason="already in use"))
    if session.game.hand is not None:
        logger.warning("profile change to %s ignored: a hand is in play", profile.name)
        return Decision(session, ruling=refused("a hand is in play: the rule profile changes between hands only"))
    session = replace(session, setup=replace(session.setup, profile=profile))
    if session.started:
        # A game under way: the change is one of its events, journaled and folded like any other.
        return _propose(session, (ProfileChange(profile.name),))
    # No game yet: it starts under the new profile (the journal's game is made with it).
    said = announce(AnnouncementKind.PROFILE_CHANGED, profile=profile.name)
    return Decision(replace(session, game=replace(session.game, profile=profile)), announcements=(said,))


def _answer(session: RefereeSession, question_id: int, choice: int) -> Decision:
    question = session.question
    if question is None or question.id != question_id or not 0 <= choice < len(question.outcomes):
        logger.warning("answer %d to question %d: no such question or option", choice, question_id)
        return Decision(session, ruling=refused(f"no question {question_id} with an option {choice} is open"))
    session = replace(session, question=None)
    outcome = question.outcomes[choice]
    return _propose(session, outcome) if outcome else Decision(session)
