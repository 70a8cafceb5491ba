"""The table view built from the real game state: public information only, and every field the pages draw."""

from __future__ import annotations

import json
from pathlib import Path

from table_app.domain.tile import all_kinds, red_fives
from table_app.rules.events import Chi, Dahai, EndKyoku, Hora, Pon, Reach, StartKyoku
from table_app.rules.fold import apply, new_game, replay
from table_app.rules.record import GameLog
from table_app.view.build import RuntimeExtras, build_view
from table_app.view.model import AnnouncementText, DeviceStatus, RiichiView

NO_EXTRAS = RuntimeExtras()


def _index_of(log: GameLog, kind: type, start: int = 0) -> int:
    return next(i for i, event in enumerate(log.events) if i >= start and isinstance(event, kind))


def _view_after(log: GameLog, count: int, extras: RuntimeExtras = NO_EXTRAS):
    return build_view(replay(log.events[:count]), extras)


def test_before_the_game_there_is_no_round_and_everyone_has_the_start_points():
    view = build_view(new_game())
    assert view.round is None
    assert not view.in_hand
    assert [seat.score for seat in view.seats] == [25_000] * 4


def test_a_new_hand_shows_round_dealer_dora_and_wall_but_no_concealed_tiles(game_log):
    view = _view_after(game_log, 2)  # start_game, start_kyoku
    assert view.round is not None
    assert (view.round.en, view.round.ja) == ("East 1", "東1局")
    assert view.in_hand
    assert view.dealer == 0
    assert [seat.wind for seat in view.seats] == ["E", "S", "W", "N"]
    assert len(view.dora_indicators) == 1
    assert view.live_wall == 70
    assert all(seat.open_hand is None and seat.pond == () for seat in view.seats)
    assert view.seats[0].name  # Tenhou logs carry the players' names


def test_the_riichi_declaration_tile_lies_sideways(game_log):
    reach = _index_of(game_log, Reach)
    declaration = _index_of(game_log, Dahai, reach)
    actor = game_log.events[reach].actor
    seat = _view_after(game_log, declaration + 1).seats[actor]
    assert seat.riichi in (RiichiView.DECLARED, RiichiView.ACCEPTED)
    assert seat.pond[-1].riichi
    assert not any(tile.riichi for tile in seat.pond[:-1])


def test_a_chi_shows_the_called_tile_its_source_and_marks_the_discard_as_taken(game_log):
    chi_index = _index_of(game_log, Chi)
    chi = game_log.events[chi_index]
    view = _view_after(game_log, chi_index + 1)
    meld = view.seats[chi.actor].melds[-1]
    assert meld.kind == "chi"
    assert meld.called == str(chi.pai)
    assert meld.called_from == chi.target
    assert meld.relation == "left"
    assert view.seats[chi.target].pond[-1].called


def test_a_pon_names_where_the_tile_came_from(game_log):
    pon_index = _index_of(game_log, Pon)
    pon = game_log.events[pon_index]
    meld = _view_after(game_log, pon_index + 1).seats[pon.actor].melds[-1]
    assert (meld.kind, meld.called_from) == ("pon", pon.target)


def test_only_the_winner_lays_the_hand_open(game_log):
    hora_index = _index_of(game_log, Hora)
    hora = game_log.events[hora_index]
    view = _view_after(game_log, hora_index + 1)
    shown = {seat.seat: seat.open_hand for seat in view.seats if seat.open_hand is not None}
    assert list(shown) == [hora.actor]
    melded = sum(3 for _ in view.seats[hora.actor].melds)
    assert len(shown[hora.actor]) + melded == 14
    assert not view.in_hand


def test_between_hands_the_view_shows_the_hand_to_come(game_log):
    end = _index_of(game_log, EndKyoku)
    view = _view_after(game_log, end + 1)
    state = replay(game_log.events[: end + 1])
    assert state.next_hand is not None
    assert not view.in_hand
    assert view.round is not None
    assert view.honba == state.next_hand.honba
    assert view.dealer == state.next_hand.oya
    assert [seat.score for seat in view.seats] == list(state.scores)
    assert all(seat.pond == () for seat in view.seats)


def test_trays_show_their_difference_from_the_score_and_runtime_extras_pass_through(game_log):
    announcement = AnnouncementText("tray_mismatch", 2, "西家の点棒が1000点多い", "West's tray is 1000 over")
    extras = RuntimeExtras(
        sequence=7,
        announcement=announcement,
        link=DeviceStatus.LOST,
        camera=DeviceStatus.OK,
        trays=(25_000, 24_000, 26_000, None),
    )
    view = _view_after(game_log, 2, extras)
    trays = [seat.tray for seat in view.seats]
    assert [t.difference if t else None for t in trays] == [0, -1000, 1000, None]
    assert (view.sequence, view.announcement, view.link, view.camera) == (
        7,
        announcement,
        DeviceStatus.LOST,
        DeviceStatus.OK,
    )


def test_the_json_form_is_plain_json_with_tiles_in_compact_notation(game_log):
    chi_index = _index_of(game_log, Chi)
    view = _view_after(game_log, chi_index + 1)
    data = json.loads(json.dumps(view.to_json(), ensure_ascii=False))
    assert data["round"]["ja"] == view.round.ja
    assert data["seats"][0]["pond"][0]["tile"] == view.seats[0].pond[0].tile
    assert data["seats"][0]["open_hand"] is None
    assert all(isinstance(tile, str) and len(tile) == 2 for tile in data["dora_indicators"])


def test_through_a_whole_game_no_concealed_tile_is_shown_while_a_hand_is_played(game_log):
    state = new_game()
    shown_at_ends = 0
    for event in game_log.events:
        state = apply(state, event)
        view = build_view(state)
        json.dumps(view.to_json(), ensure_ascii=False)  # every view of the game serialises
        if view.in_hand:
            assert all(seat.open_hand is None for seat in view.seats)
            hand = state.hand
            assert [len(seat.pond) for seat in view.seats] == [len(player.pond) for player in hand.players]
        else:
            shown_at_ends += sum(seat.open_hand is not None for seat in view.seats)
    assert state.finished
    assert view.finished
    assert view.final_points == state.final_points
    assert shown_at_ends > 0  # winners' hands were laid open at some point


def test_every_tile_the_view_can_name_has_a_picture():
    tiles = Path(__file__).resolve().parents[2] / "table_app" / "web" / "static" / "tiles"
    codes = [str(tile) for tile in (*all_kinds(), *red_fives())] + ["back"]
    missing = [code for code in codes if not (tiles / f"{code}.png").is_file()]
    assert missing == []


def test_seats_are_labelled_for_people_by_wind_and_name_never_by_index(game_log):
    before = build_view(new_game())
    assert [(s.label.number, s.label.en, s.label.ja, s.label.person) for s in before.seats][:2] == [
        (1, "Seat 1", "1番席", "Seat 1"),
        (2, "Seat 2", "2番席", "Seat 2"),
    ]
    dealt = next(i for i, e in enumerate(game_log.events) if isinstance(e, StartKyoku) and e.oya == 1)
    state = replay(game_log.events[: dealt + 1])
    assert state.hand is not None
    assert state.hand.oya == 1  # the deal moved on: seat 0 is North now
    view = build_view(state)
    names = state.names
    assert [s.label.en for s in view.seats] == [
        f"North ({names[0]})",
        f"East ({names[1]})",
        f"South ({names[2]})",
        f"West ({names[3]})",
    ]
    assert view.seats[1].label.ja == f"東家（{names[1]}）"
    assert [s.label.person for s in view.seats] == list(names)
    assert [s.label.number for s in view.seats] == [1, 2, 3, 4]
    shown = view.to_json()["seats"][0]
    assert (shown["seat"], shown["label"]["number"], shown["label"]["en"]) == (0, 1, f"North ({names[0]})")
