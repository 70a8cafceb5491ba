"""Sensor cross-checks: the wall count against the discards, the deposit against the riichi
count, the trays against the score. Each disagreement is announced once until it changes."""

from __future__ import annotations

from dataclasses import replace

from table_app.announce.announcement import Announcement, AnnouncementKind, announce
from table_app.domain.seat import Seat
from table_app.interpret import tray_debts
from table_app.interpret.session import RefereeSession
from table_app.observations import TraysRead


def _once(session: RefereeSession, key: str, said: Announcement) -> tuple[RefereeSession, tuple[Announcement, ...]]:
    if key in session.disagreements:
        return session, ()
    return replace(session, disagreements=session.disagreements | {key}), (said,)


def wall_after_draw(session: RefereeSession, expected: int) -> tuple[RefereeSession, tuple[Announcement, ...]]:
    """The wall the board reads against ``expected`` (what the discards say) when a discard is seen."""
    if not session.link_up or session.trays is None or session.trays.wall == expected:
        return session, ()
    read = session.trays.wall
    return _once(
        session, f"wall:{expected}:{read}", announce(AnnouncementKind.WALL_DISAGREES, expected=expected, read=read)
    )


def expected_deposit(session: RefereeSession) -> int | None:
    """Sticks that should be on the deposit: the game's, plus a declaration's not yet accepted
    (its stick goes down with the sideways tile)."""
    hand = session.game.hand
    if hand is None:
        return None
    return hand.kyotaku + (session.riichi_waiting is not None)


def deposit(session: RefereeSession) -> tuple[RefereeSession, tuple[Announcement, ...]]:
    """Riichi sticks on the deposit against the riichi the game counts (checked an act after a
    riichi is accepted, so the board has had time to read the stick)."""
    expected = expected_deposit(session)
    if expected is None or not session.link_up or session.trays is None:
        return session, ()
    read = session.trays.deposit
    if read == expected:
        return session, ()
    return _once(
        session,
        f"deposit:{expected}:{read}",
        announce(AnnouncementKind.DEPOSIT_DISAGREES, expected=expected, read=read),
    )


def trays_match(session: RefereeSession, reading: TraysRead) -> bool:
    """The trays hold the scores, as a real table holds them (a bust's debt on IOUs)."""
    return not tray_debts.trays_off(session.game.scores, reading.points)


def payments(session: RefereeSession, reading: TraysRead) -> tuple[RefereeSession, tuple[Announcement, ...]]:
    """After a hand: the trays came to the new scores (said once), or nothing yet (payments go on)."""
    if not session.payments_due or not trays_match(session, reading):
        return session, ()
    return replace(session, payments_due=False), (announce(AnnouncementKind.PAYMENTS_COMPLETE),)


def trays_off(session: RefereeSession) -> tuple[RefereeSession, tuple[Announcement, ...]]:
    """The referee says payments are done (or the next deal began): name each tray that is off."""
    if not session.payments_due or not session.link_up or session.trays is None:
        return session, ()
    said = tuple(
        announce(AnnouncementKind.TRAY_OFF, Seat(off.seat), expected=off.expected, read=off.read)
        for off in tray_debts.trays_off(session.game.scores, session.trays.points)
    )
    if not said:
        return replace(session, payments_due=False), (announce(AnnouncementKind.PAYMENTS_COMPLETE),)
    return session, said
