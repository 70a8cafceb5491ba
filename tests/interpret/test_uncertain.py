"""Low-confidence readings: taken as read, then put to the referee to confirm or correct."""

from __future__ import annotations

from table_app.announce import AnnouncementKind
from table_app.domain.notation import parse_mjai, parse_tiles
from table_app.domain.seat import Seat
from table_app.domain.seat_names import mention
from table_app.interpret import step
from table_app.observations import (
    ButtonPress,
    HandLaidOpen,
    MeldAppeared,
    PondTileAdded,
    RefereeButton,
    TileCorrected,
)
from table_app.rules.events import Dahai, EndKyoku, Hora, Pon
from tests.interpret.helpers import Table

M1, M3, Z5 = parse_mjai("1m"), parse_mjai("3m"), parse_mjai("P")


def questions(said):
    return [a for a in said if a.kind is AnnouncementKind.QUESTION]


def test_a_discard_read_above_the_floor_asks_nothing():
    table = Table()
    table.deal(parse_mjai("5s"))
    said = table.see(PondTileAdded(1.0, Seat.S0, M1, confidence=0.9))
    assert questions(said) == []
    assert table.hand.last_discard_tile == M1


def test_an_uncertain_discard_is_taken_as_read_and_put_to_the_referee():
    table = Table()
    table.deal(parse_mjai("5s"))
    said = table.see(PondTileAdded(1.0, Seat.S0, M1, confidence=0.35))
    assert table.events[-1] == Dahai(Seat.S0, M1, tsumogiri=False)  # the game goes on with it
    (asked,) = questions(said)
    assert "uncertain tile" in asked.text_param("topic")
    assert f"{mention(Seat.S0)} discarded 1m" in asked.text_param("topic")  # named at the edge
    assert table.session.question is not None
    events = len(table.events)
    table.see(ButtonPress(2.0, RefereeButton.CONFIRM))  # confirmed: nothing changes
    assert table.session.question is None
    assert len(table.events) == events


def test_an_uncertain_discard_is_corrected_from_the_console():
    table = Table()
    table.deal(parse_mjai("5s"))
    table.see(PondTileAdded(1.0, Seat.S0, M1, confidence=0.35))
    decision = step(table.session, TileCorrected(2.0, M3))
    # The last discard is named: the core replays the hand from it, as 3m.
    assert decision.correction == TileCorrected(2.0, M3, Seat.S0, 0)


def test_an_uncertain_discard_held_for_the_wall_is_asked_about_when_taken():
    table = Table()
    table.deal(parse_mjai("5s"), board=True)
    assert questions(table.see(PondTileAdded(1.0, Seat.S0, M1, confidence=0.2))) == []  # held, not taken
    said = table.see(table.trays(wall=69))
    assert Dahai(Seat.S0, M1, tsumogiri=False) in table.events
    assert len(questions(said)) == 1


def test_an_uncertain_meld_is_asked_about():
    table = Table()
    table.deal(parse_mjai("5s"))
    table.see(PondTileAdded(1.0, Seat.S0, Z5))
    said = table.see(MeldAppeared(2.0, Seat.S2, (Z5, Z5, Z5), Z5, Seat.S0, confidence=0.4))
    assert isinstance(table.events[-1], Pon)
    (asked,) = questions(said)
    assert f"{mention(Seat.S2)} melded" in asked.text_param("topic")


def test_a_pending_question_is_not_replaced():
    table = Table()
    table.deal(parse_mjai("5s"))
    table.see(PondTileAdded(1.0, Seat.S0, M1, confidence=0.3))
    first = table.session.question
    table.see(PondTileAdded(2.0, Seat.S1, M3, confidence=0.3))
    assert table.session.question == first


def test_confirm_ends_a_won_hand_even_with_an_uncertain_check_pending():
    # At the table the referee's one CONFIRM after a win ends the hand; an unanswered check on a
    # tile read unsurely must not swallow it (the hand would stay open into the next deal).
    table = Table()
    table.deal(parse_mjai("5s"))
    table.see(PondTileAdded(1.0, Seat.S0, M1, confidence=0.35))
    assert table.session.question is not None
    assert table.session.question.taken_as_read
    said = table.see(HandLaidOpen(2.0, Seat.S1, parse_tiles("23m456p789s11122z")))
    assert any(isinstance(e, Hora) for e in table.events)
    assert questions(said) == []  # the pending check is not replaced
    table.see(ButtonPress(3.0, RefereeButton.CONFIRM))
    assert table.session.question is None
    assert isinstance(table.events[-1], EndKyoku)


def test_a_penalty_question_still_takes_the_confirm():
    table = Table()
    table.deal(parse_mjai("5s"))
    table.see(PondTileAdded(1.0, Seat.S0, M1))
    table.see(HandLaidOpen(2.0, Seat.S2, parse_tiles("2468m2468p2468s9s")))
    assert table.session.question is not None
    assert not table.session.question.taken_as_read
    table.see(ButtonPress(3.0, RefereeButton.CONFIRM))
    assert not isinstance(table.events[-1], EndKyoku)
