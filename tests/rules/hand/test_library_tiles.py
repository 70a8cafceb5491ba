"""Tiles handed to the mahjong package: red fives on their red ids, four plain fives where
the rules have no red fives (found by this test: JPML hands with 5555 were scored as no win)."""

import pytest

from table_app.domain.meld import parse_meld
from table_app.domain.notation import parse_tile, parse_tiles
from table_app.domain.seat import Wind
from table_app.rules.hand.library_tiles import LibraryTileIds
from table_app.rules.profiles import JPML
from table_app.rules.scoring import WinSituation, score_win


def test_red_five_takes_its_red_id_and_plain_fives_avoid_it():
    ids = LibraryTileIds(red_fives=True)
    assert ids.take(parse_tile("0m")) == 16
    assert [ids.take(parse_tile("5m")) for _ in range(3)] == [17, 18, 19]
    with pytest.raises(ValueError, match="too many copies of 5m"):
        ids.take(parse_tile("5m"))


def test_without_red_fives_all_four_ids_are_plain():
    ids = LibraryTileIds(red_fives=False)
    assert [ids.take(parse_tile("5p")) for _ in range(4)] == [52, 53, 54, 55]


def test_a_second_red_five_of_a_suit_is_refused():
    ids = LibraryTileIds(red_fives=True)
    ids.take(parse_tile("0s"))
    with pytest.raises(ValueError, match="two red 5s"):
        ids.take(parse_tile("0s"))


def test_jpml_scores_a_hand_with_four_plain_fives():
    # 5m 345m 555m... : 55m pair + 345m + 555m holds four plain 5m; JPML plays without red fives.
    situation = WinSituation(tsumo=True, dealer=False, seat_wind=Wind.SOUTH, round_wind=Wind.EAST, riichi=True)
    value = score_win(
        parse_tiles("345m 555m 234p 678s 9s"),
        win=parse_tile("9s"),
        melds=(),
        situation=situation,
        dora_markers=parse_tiles("1z"),
        ura_markers=(),
        profile=JPML,
    )
    assert value.error is None, value.error
    assert value.han >= 2  # riichi and menzen tsumo at least


def test_jpml_scores_a_closed_kan_of_plain_fives():
    situation = WinSituation(tsumo=False, dealer=False, seat_wind=Wind.SOUTH, round_wind=Wind.EAST, riichi=True)
    value = score_win(
        parse_tiles("234p 678s 123m 9s"),
        win=parse_tile("9s"),
        melds=(parse_meld("ankan:5555m"),),
        situation=situation,
        dora_markers=parse_tiles("1z"),
        ura_markers=(),
        profile=JPML,
    )
    assert value.error is None, value.error
