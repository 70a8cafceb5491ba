import pytest
from hypothesis import given
from hypothesis import strategies as st

from table_app.domain.notation import (
    TileNotationError,
    format_tiles,
    from_tenhou6,
    from_tenhou136,
    parse_mjai,
    parse_tile,
    parse_tiles,
    to_mjai,
    to_tenhou6,
    to_tenhou136,
)
from table_app.domain.tile import UNKNOWN, Tile, all_kinds, red_fives, tile_of_kind

every_tile = st.sampled_from([*all_kinds(), *red_fives()])


def test_compact_hand_reads_in_order_with_red_fives():
    tiles = parse_tiles("123m406p789s11z")
    assert format_tiles(tiles) == "123m406p789s11z"
    assert tiles[4] == tile_of_kind(13, red=True)
    assert [t.kind for t in tiles[:3]] == [0, 1, 2]


def test_r5_is_a_red_five_and_prints_as_zero():
    assert parse_tiles("4r56p") == parse_tiles("406p")


def test_spaces_between_groups_are_allowed():
    assert parse_tiles("4555m 223344p 678s") == parse_tiles("4555m223344p678s")


@given(st.lists(every_tile, max_size=18))
def test_compact_round_trip(tiles):
    assert parse_tiles(format_tiles(tiles)) == tuple(tiles)


def test_sorted_format_puts_red_five_with_the_fives():
    assert format_tiles(parse_tiles("55m0m1m"), sort=True) == "1055m"


@pytest.mark.parametrize(
    ("text", "token", "position"),
    [
        ("123x", "x", 3),
        ("12", "12", 0),
        ("m", "m", 0),
        ("8z", "8z", 0),
        ("0z", "0z", 0),
        ("r4m", "r4", 0),
        ("12m 34", "34", 4),
    ],
)
def test_bad_compact_names_the_token(text, token, position):
    with pytest.raises(TileNotationError) as caught:
        parse_tiles(text)
    assert caught.value.token == token
    assert caught.value.position == position


@given(every_tile)
def test_mjai_round_trip(tile):
    assert parse_mjai(to_mjai(tile)) == tile


def test_mjai_names():
    assert [to_mjai(tile_of_kind(k)) for k in range(27, 34)] == ["E", "S", "W", "N", "P", "F", "C"]
    assert to_mjai(tile_of_kind(22, red=True)) == "5sr"
    assert parse_mjai("?") is UNKNOWN


@pytest.mark.parametrize("text", ["5zr", "4mr", "X", "10m", ""])
def test_bad_mjai(text):
    with pytest.raises(TileNotationError):
        parse_mjai(text)


@pytest.mark.parametrize(
    ("text", "expected"), [("5m", "5m"), ("0p", "0p"), ("5sr", "0s"), ("E", "1z"), ("C", "7z"), ("?", "?")]
)
def test_parse_tile_accepts_compact_and_mjai(text, expected):
    assert str(parse_tile(text)) == expected


def test_parse_tile_wants_one_tile():
    with pytest.raises(TileNotationError, match="exactly one"):
        parse_tile("12m")


def test_tenhou136_kinds_and_red_ids():
    assert from_tenhou136(0) == tile_of_kind(0)
    assert from_tenhou136(135) == tile_of_kind(33)
    assert from_tenhou136(16) == tile_of_kind(4, red=True)
    assert from_tenhou136(52).red
    assert from_tenhou136(88).red
    assert not from_tenhou136(17).red
    assert from_tenhou136(16, red_fives=False) == tile_of_kind(4)


@given(every_tile, st.integers(0, 3))
def test_tenhou136_round_trip_keeps_redness(tile, copy):
    assert from_tenhou136(to_tenhou136(tile, copy)) == tile


@pytest.mark.parametrize("tile_id", [-1, 136])
def test_tenhou136_out_of_range(tile_id):
    with pytest.raises(TileNotationError, match=r"0\.\.135"):
        from_tenhou136(tile_id)


def test_tenhou6_codes():
    assert from_tenhou6(11) == tile_of_kind(0)
    assert from_tenhou6(29) == tile_of_kind(17)
    assert from_tenhou6(47) == tile_of_kind(33)
    assert [from_tenhou6(c) for c in (51, 52, 53)] == list(red_fives())


@given(every_tile)
def test_tenhou6_round_trip(tile: Tile):
    assert from_tenhou6(to_tenhou6(tile)) == tile


@pytest.mark.parametrize("code", [10, 20, 48, 54, 60, 0])
def test_bad_tenhou6(code):
    with pytest.raises(TileNotationError):
        from_tenhou6(code)
