import pytest

from table_app.domain.hand import Hand, HandError
from table_app.domain.meld import parse_meld


def test_size_counts_three_per_meld_even_for_kans():
    hand = Hand.parse("2224678m678p", (parse_meld("ankan:3333m"),))
    assert hand.size == 13
    assert hand.is_closed
    assert hand.held(2) == 4  # 3m: all four in the kan


def test_open_meld_opens_the_hand():
    assert not Hand.parse("123m456p789s1z", (parse_meld("pon:777z@right"),)).is_closed


def test_fifth_copy_is_refused_counting_melds():
    with pytest.raises(HandError, match="5 copies of 3m") as caught:
        Hand.parse("3m", (parse_meld("ankan:3333m"),))
    assert caught.value.token == "3m"


def test_two_red_fives_of_a_suit_are_refused():
    with pytest.raises(HandError, match="red fives"):
        Hand.parse("00m")


def test_unknown_tiles_cannot_be_analysed():
    with pytest.raises(HandError, match="known"):
        Hand.parse("123m?")


def test_require_size_names_the_hand():
    with pytest.raises(HandError, match="this one has 12"):
        Hand.parse("123456789m123p").require_size(13, 14)


def test_counts_are_of_the_concealed_part():
    hand = Hand.parse("11m0m", (parse_meld("pon:777z@right"),))
    counts = hand.counts()
    assert counts[0] == 2
    assert counts[4] == 1
    assert counts[33] == 0
