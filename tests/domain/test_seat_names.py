"""The one way seats are named to people: wind this hand + name, else name, else 1-4."""

from __future__ import annotations

import pytest

from table_app.domain.seat import Seat
from table_app.domain.seat_names import SeatNaming, mention, seat_number, seat_of_number


def test_in_a_hand_a_seat_is_its_wind_and_the_players_name():
    seats = SeatNaming(("Aoki", "Baba", "", "Doi"), dealer=Seat.S2)
    assert [seats.en(s) for s in Seat] == ["West (Aoki)", "North (Baba)", "East", "South (Doi)"]
    assert [seats.ja(s) for s in Seat] == ["西家（Aoki）", "北家（Baba）", "東家", "南家（Doi）"]
    assert [seats.person(s) for s in Seat] == ["Aoki", "Baba", "Seat 3", "Doi"]


def test_without_a_hand_a_seat_is_the_name_else_its_number_1_to_4():
    seats = SeatNaming(("Aoki", " ", "", "Doi"))
    assert [seats.en(s) for s in Seat] == ["Aoki", "Seat 2", "Seat 3", "Doi"]
    assert [seats.ja(s) for s in Seat] == ["Aoki", "2番席", "3番席", "Doi"]
    assert SeatNaming().en(Seat.S3) == "Seat 4"


def test_speech_uses_the_wind_else_the_number_never_the_name():
    assert SeatNaming(("Aoki",) * 4, dealer=Seat.S1).kana(Seat.S1) == "とんちゃ"
    assert SeatNaming(("Aoki",) * 4).kana(Seat.S3) == "よんばんせき"


def test_numbers_people_use_are_1_to_4():
    assert [seat_number(s) for s in Seat] == [1, 2, 3, 4]
    assert [seat_of_number(n) for n in (1, 2, 3, 4)] == list(Seat)
    for wrong in (0, 5, -1):
        with pytest.raises(ValueError, match="seats are numbered 1-4, got"):
            seat_of_number(wrong)


def test_mentions_are_named_when_the_names_are_known():
    text = f"{mention(Seat.S1)} discarded 5m; {mention(3)} melded"
    seats = SeatNaming(("", "Baba", "", ""), dealer=Seat.S0)
    assert seats.fill_en(text) == "South (Baba) discarded 5m; North melded"
    assert seats.fill_ja(text) == "南家（Baba） discarded 5m; 北家 melded"
    assert SeatNaming().fill_en(text) == "Seat 2 discarded 5m; Seat 4 melded"


def test_a_game_names_seats_by_the_hand_in_play_then_by_the_hand_just_played():
    from importlib.resources import files

    from table_app.logs import read_log
    from table_app.rules.events import EndKyoku, StartKyoku
    from table_app.rules.fold import apply, new_game

    log = read_log(files("table_app.demo_data") / "demo-game.mjlog")[0]
    state = new_game()
    assert state.seat_naming().dealer is None  # before the first hand
    dealers = set()
    for event in log.events:
        state = apply(state, event)
        if isinstance(event, StartKyoku):
            assert state.seat_naming().dealer == event.oya
            dealer = event.oya
            dealers.add(dealer)
        if isinstance(event, EndKyoku):
            assert state.hand is None
            assert state.seat_naming().dealer == dealer  # its draw and payments are announced now
    assert len(dealers) == 4
