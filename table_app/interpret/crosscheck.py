"""Sensor cross-checks: the board's live-wall count, riichi deposit and trays against the game.

A table's sensors settle slowly (a stick half placed, a tile being drawn, sticks changing
hands after a win) and a board may read a moment behind or ahead of the camera. So a reading
that differs from the game is only a *suspect* at first. It is announced once it has stood,
unchanged and still disagreeing, for the table's settle time (``TableSetup.settle_s``), timed
by the core's ticks. After every step the suspects are checked again against the game as it
now stands: one that the game or a new reading resolves is dropped without a word. An
announced disagreement is not said again until the reading changes (the game moving on does
not repeat it).

What the board should read:
- wall: the game's live wall, or one less while a draw is due (the tile is in a hand before
  the camera sees the discard);
- deposit: the game's riichi sticks, plus one for each declaration not yet accepted (its stick
  goes down with the sideways tile); between hands, the sticks carried to the next hand;
- trays: the scores, less a declared stick; between hands, the new scores (a bust's debt on
  IOUs, :mod:`table_app.interpret.tray_debts`).
From a win or draw until the hand is ended, sticks are moving: nothing is checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from table_app.announce.announcement import Announcement, AnnouncementKind, announce
from table_app.domain.seat import Seat
from table_app.interpret import tray_debts
from table_app.interpret.board_wall import board_wall
from table_app.interpret.session import Check, RefereeSession, Suspect
from table_app.observations import TraysRead
from table_app.rules.profiles import RuleProfile
from table_app.rules.state import KyokuState, RiichiStage

RIICHI_STICK = 1000

_KINDS = {Check.WALL: AnnouncementKind.WALL_DISAGREES, Check.DEPOSIT: AnnouncementKind.DEPOSIT_DISAGREES}


def tick(session: RefereeSession, at: float) -> RefereeSession:
    """The core's clock moved to ``at``: suspects not timed yet start their settle time now."""
    timed = tuple(s if s.since is not None else replace(s, since=at) for s in session.suspects)
    return replace(session, now=at, suspects=timed)


def reconcile(session: RefereeSession) -> tuple[RefereeSession, tuple[Announcement, ...]]:
    """Check the last reading against the game as it now stands; say what has settled."""
    earlier = {(s.check, s.seat): s for s in session.suspects}
    suspects: list[Suspect] = []
    disagreements = _disagreements(session)
    for found in disagreements or ():
        before = earlier.get((found.check, found.seat))
        # The same reading still off: its time runs on (the game may have moved meanwhile).
        suspects.append(replace(before, expected=found.expected) if before and before.read == found.read else found)
    session = replace(session, suspects=tuple(suspects))
    session, complete = _payments_complete(session, checked=disagreements is not None)
    session, settled = _settled(session, again=False)
    return session, (*complete, *settled)


def trays_now(session: RefereeSession) -> tuple[RefereeSession, tuple[Announcement, ...]]:
    """The referee says payments are done: name each tray that has settled off the scores (again,
    if it was said before); one still moving is named once it settles."""
    return _settled(session, again=True, only=Check.TRAY)


def _settled(
    session: RefereeSession, *, again: bool, only: Check | None = None
) -> tuple[RefereeSession, tuple[Announcement, ...]]:
    now = session.now
    said: list[Announcement] = []
    suspects: list[Suspect] = []
    for suspect in session.suspects:
        due = suspect.since is not None and now is not None and now - suspect.since >= session.setup.settle_s
        if due and (again or not suspect.announced) and only in (None, suspect.check):
            said.append(_announcement(suspect))
            suspects.append(replace(suspect, announced=True))
        else:
            suspects.append(suspect)
    return replace(session, suspects=tuple(suspects)), tuple(said)


def _announcement(suspect: Suspect) -> Announcement:
    if suspect.check is Check.TRAY:
        return announce(AnnouncementKind.TRAY_OFF, suspect.seat, expected=suspect.expected, read=suspect.read)
    return announce(_KINDS[suspect.check], expected=suspect.expected, read=suspect.read)


def _payments_complete(session: RefereeSession, checked: bool) -> tuple[RefereeSession, tuple[Announcement, ...]]:
    """After a hand: the trays came to the new scores (said once). ``checked``: the trays were
    checked just now. The next hand may be under way (a riichi stick already down): the trays
    are then held to that hand's scores, which carry on from the new ones."""
    if not session.payments_due or not checked or any(s.check is Check.TRAY for s in session.suspects):
        return session, ()
    return replace(session, payments_due=False), (announce(AnnouncementKind.PAYMENTS_COMPLETE),)


def _disagreements(session: RefereeSession) -> tuple[Suspect, ...] | None:
    """What the last reading disagrees on; ``None`` when nothing can be checked now."""
    reading = session.trays
    if not session.link_up or reading is None:
        return None
    game = session.game
    hand = game.hand
    if hand is None:
        if not game.hands_played:
            return None  # before the first hand the trays hold whatever the table started with
        sticks = game.next_hand.kyotaku if game.next_hand is not None and not game.finished else None
        return (*_deposit(sticks, reading), *_trays(game.scores, reading))
    if hand.wins or hand.result is not None:
        return None  # payments and the deposit are moving until the hand is ended
    declared = [seat for seat, p in enumerate(hand.players) if p.riichi is RiichiStage.DECLARED]
    scores = [score - RIICHI_STICK * (seat in declared) for seat, score in enumerate(hand.scores)]
    return (
        *_wall(hand, game.profile, reading),
        *_deposit(hand.kyotaku + len(declared), reading),
        *_trays(scores, reading),
    )


def _wall(hand: KyokuState, profile: RuleProfile, reading: TraysRead) -> tuple[Suspect, ...]:
    high = board_wall(hand, profile)
    if high is None:
        return ()  # the board reads 0 for the last tiles of a wall with a smaller dead wall
    low = max(0, high - 1) if hand.turn is None else high  # a draw is due: it may be in a hand
    if low <= reading.wall <= high:
        return ()
    expected = high if reading.wall > high else low
    return (Suspect(Check.WALL, None, expected, reading.wall),)


def _deposit(expected: int | None, reading: TraysRead) -> tuple[Suspect, ...]:
    if expected is None or reading.deposit == expected:
        return ()
    return (Suspect(Check.DEPOSIT, None, expected, reading.deposit),)


def _trays(scores: Sequence[int], reading: TraysRead) -> tuple[Suspect, ...]:
    return tuple(
        Suspect(Check.TRAY, Seat(off.seat), off.expected, off.read)
        for off in tray_debts.trays_off(scores, reading.points)
    )
