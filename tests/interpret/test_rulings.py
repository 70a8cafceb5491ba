"""The pure step rules on what a person asks of it: done, or refused with the reason why."""

from __future__ import annotations

from table_app.domain.notation import parse_mjai
from table_app.domain.seat import Seat
from table_app.interpret import step
from table_app.interpret.ruling import DONE, Ruling
from table_app.observations import (
    ButtonPress,
    PondTileAdded,
    ProfileChosen,
    RefereeAnswer,
    RefereeButton,
    TileCorrected,
)
from tests.interpret.helpers import Table


def _in_play() -> Table:
    table = Table()
    table.deal(parse_mjai("5s"))
    table.see(PondTileAdded(1.0, Seat.S0, parse_mjai("1m")))
    return table


def test_a_profile_is_chosen_between_hands_and_refused_in_play_with_its_reason():
    between = Table()
    chosen = step(between.session, ProfileChosen(0.0, "jpml"))
    assert chosen.ruling == DONE
    assert chosen.session.game.profile.name == "jpml"
    assert step(between.session, ProfileChosen(0.0, "tenhou")).ruling == Ruling(True, "already in use")
    unknown = step(between.session, ProfileChosen(0.0, "house")).ruling
    assert not unknown.accepted
    assert "unknown rule profile 'house'" in unknown.reason
    in_play = step(_in_play().session, ProfileChosen(2.0, "jpml"))
    assert in_play.ruling == Ruling(False, "a hand is in play: the rule profile changes between hands only")
    assert in_play.events == ()


def test_a_correction_of_no_such_discard_or_to_the_same_tile_is_refused_with_its_reason():
    session = _in_play().session
    assert step(session, TileCorrected(2.0, parse_mjai("2m"), Seat.S0, 0)).ruling == DONE
    assert step(session, TileCorrected(2.0, parse_mjai("1m"), Seat.S0, 0)).ruling == Ruling(
        False, "East's discard 1 is already 1m"
    )
    assert step(session, TileCorrected(2.0, parse_mjai("2m"), Seat.S1, 0)).ruling == Ruling(
        False, "South has no discard 1 (their pond holds 0)"
    )


def test_an_answer_to_no_open_question_is_refused_and_a_button_accepted():
    session = _in_play().session
    answered = step(session, RefereeAnswer(2.0, 7, 0)).ruling
    assert (answered.accepted, answered.reason) == (False, "no question 7 with an option 0 is open")
    assert step(session, ButtonPress(2.0, RefereeButton.CONFIRM)).ruling == DONE


def test_a_profile_chosen_in_a_game_under_way_is_an_event_and_before_it_the_setup():
    from dataclasses import replace

    from table_app.announce import AnnouncementKind
    from table_app.rules.events import ProfileChange

    between_hands = replace(Table().session, started=True)
    chosen = step(between_hands, ProfileChosen(0.0, "jpml"))
    assert chosen.events == (ProfileChange("jpml"),)  # journaled, and folded like any event
    assert chosen.session.game.profile.name == chosen.session.setup.profile.name == "jpml"
    assert [a.kind for a in chosen.announcements] == [AnnouncementKind.PROFILE_CHANGED]
    before_the_game = step(Table().session, ProfileChosen(0.0, "jpml"))
    assert before_the_game.events == ()  # no game to journal it in: the game starts under it
    assert before_the_game.session.setup.profile.name == "jpml"
    assert [a.kind for a in before_the_game.announcements] == [AnnouncementKind.PROFILE_CHANGED]
