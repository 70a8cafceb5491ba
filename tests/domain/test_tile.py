import pytest

from table_app.domain.tile import (
    KIND_COUNT,
    UNKNOWN,
    Suit,
    Tile,
    all_kinds,
    red_fives,
    tile_of_kind,
)


def test_there_are_34_kinds_three_red_fives_and_an_unknown():
    assert len(all_kinds()) == KIND_COUNT == 34
    assert [str(t) for t in red_fives()] == ["0m", "0p", "0s"]
    assert UNKNOWN.is_unknown
    assert str(UNKNOWN) == "?"


@pytest.mark.parametrize(
    ("kind", "text", "suit", "number"),
    [
        (0, "1m", Suit.MAN, 1),
        (8, "9m", Suit.MAN, 9),
        (9, "1p", Suit.PIN, 1),
        (26, "9s", Suit.SOU, 9),
        (27, "1z", Suit.HONOUR, 1),
        (33, "7z", Suit.HONOUR, 7),
    ],
)
def test_kind_layout(kind, text, suit, number):
    tile = tile_of_kind(kind)
    assert (str(tile), tile.suit, tile.number) == (text, suit, number)


def test_terminals_and_honours():
    kinds = {str(t) for t in all_kinds() if t.is_terminal_or_honour}
    assert kinds == {"1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"}
    assert tile_of_kind(0).is_terminal
    assert not tile_of_kind(27).is_terminal
    assert tile_of_kind(27).is_honour
    assert not tile_of_kind(26).is_honour


def test_red_five_differs_from_plain_five_but_shares_the_kind():
    red = tile_of_kind(4, red=True)
    assert red != tile_of_kind(4)
    assert red.kind == 4
    assert red.plain == tile_of_kind(4)


@pytest.mark.parametrize("kind", [3, 27, 33])
def test_only_fives_can_be_red(kind):
    with pytest.raises(ValueError, match="only a five can be red"):
        Tile(kind, red=True)
    with pytest.raises(ValueError, match="only a five can be red"):
        tile_of_kind(kind, red=True)


@pytest.mark.parametrize("kind", [-1, 35, 99])
def test_kind_out_of_range_is_refused(kind):
    with pytest.raises(ValueError, match="outside"):
        Tile(kind)


def test_unknown_tile_has_no_suit():
    with pytest.raises(ValueError, match="unknown tile"):
        _ = UNKNOWN.suit
