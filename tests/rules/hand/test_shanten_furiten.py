import pytest
from hypothesis import given, settings

from table_app.domain.hand import Hand
from table_app.domain.meld import parse_meld
from table_app.domain.notation import parse_tiles
from table_app.rules.hand import decompositions, furiten_waits, is_furiten, shanten, waits

from .strategies import arbitrary_closed_hands, complete_hands, waiting_hands


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("111m22m333m888p66z", 0),
        ("111m22m333m888p66z2m", -1),
        ("111m22m333m888p66z1m", 0),  # a fourth 1m: still one away
        ("19m19p19s1234567z", 0),  # kokushi tenpai
        ("1122334455667m", 0),
        ("147m258p369s1234z", 6),  # worst regular shape is improved by kokushi/pairs
        ("123m456p789s1357z", 2),
    ],
)
def test_known_shanten(hand, expected):
    assert shanten(Hand.parse(hand)) == expected


def test_shanten_with_melds():
    hand = Hand.parse("123m45p789s99s", (parse_meld("pon:777z@right"),))
    assert shanten(hand) == 0


@settings(max_examples=200, deadline=None)
@given(waiting_hands())
def test_form_waits_iff_shanten_zero(hand):
    assert (shanten(hand) == 0) is bool(waits(hand))


@settings(max_examples=200, deadline=None)
@given(arbitrary_closed_hands(size=13))
def test_form_waits_iff_shanten_zero_on_arbitrary_hands(hand):
    assert (shanten(hand) == 0) is bool(waits(hand))


@settings(max_examples=150, deadline=None)
@given(complete_hands())
def test_complete_iff_shanten_minus_one(hand):
    if hand.size == 14:
        assert (shanten(hand) == -1) is bool(decompositions(hand))


def test_furiten_on_own_discard_of_a_wait():
    hand = Hand.parse("123m456p789s1122z")  # waits 1z 2z
    assert furiten_waits(hand, parse_tiles("9m2z")) == parse_tiles("2z")
    assert not is_furiten(hand, parse_tiles("9m3z"))


def test_red_five_discard_counts_as_its_kind():
    hand = Hand.parse("34m456p789s11222z")  # waits 2m 5m
    assert [str(t) for t in furiten_waits(hand, parse_tiles("0m"))] == ["5m"]


def test_unknown_discards_are_ignored():
    hand = Hand.parse("34m456p789s11222z")
    assert not is_furiten(hand, parse_tiles("??"))
