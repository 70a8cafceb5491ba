from collections import Counter

import pytest
from hypothesis import given, settings
from mahjong.agari import Agari

from table_app.domain.hand import Hand, HandError
from table_app.domain.meld import parse_meld
from table_app.domain.notation import parse_tiles
from table_app.rules.hand import HandForm, decompositions
from table_app.rules.hand.groups import GroupKind

from .strategies import complete_hands


def readings(text: str, *melds: str) -> set[str]:
    return {str(d) for d in decompositions(Hand.parse(text, tuple(parse_meld(m) for m in melds)))}


def test_every_reading_of_the_nine_gates_hand():
    assert readings("11123455678999m") == {"111m 234m 55m 678m 999m"}
    assert readings("11112345678999m") == {"111m 123m 456m 789m 99m"}


def test_all_triplets_or_all_sequences():
    assert readings("111222333m 888p 66z") == {"111m 222m 333m 888p 66z", "123m 123m 123m 888p 66z"}


def test_seven_pairs_and_ryanpeikou_both_read():
    found = decompositions(Hand.parse("22334455667788p"))
    forms = Counter(d.form for d in found)
    assert forms[HandForm.SEVEN_PAIRS] == 1
    assert forms[HandForm.REGULAR] >= 1
    assert "234p 234p 567p 567p 88p" in {str(d) for d in found}


def test_thirteen_orphans():
    (only,) = decompositions(Hand.parse("19m19p19s12345677z"))
    assert only.form is HandForm.THIRTEEN_ORPHANS
    assert [g.kind for g in only.groups].count(GroupKind.PAIR) == 1


def test_melds_are_kept_in_every_reading():
    found = decompositions(Hand.parse("123m456p99s", (parse_meld("pon:777z@right"), parse_meld("chi:312s"))))
    assert {str(d) for d in found} == {"123m 456p 99s + pon:777z@right chi:312s"}


def test_incomplete_hand_has_no_reading():
    assert decompositions(Hand.parse("123m456p789s12345z")) == ()


def test_readings_need_14_tiles():
    with pytest.raises(HandError, match="14"):
        decompositions(Hand.parse("123m456p789s123z"))


SEED_003_READINGS = [
    # The six 13-tile readings 003 lists for 3344455566677p, each with its two waits.
    ("345p 345p 456p 66p 77p", "6p 7p"),
    ("345p 345p 666p 77p 45p", "3p 6p"),
    ("444p 555p 666p 33p 77p", "3p 7p"),
    ("444p 567p 567p 33p 56p", "4p 7p"),
    ("456p 456p 456p 33p 77p", "3p 7p"),
    ("456p 567p 567p 33p 44p", "3p 4p"),
]


@pytest.mark.parametrize(("reading", "wait_tiles"), SEED_003_READINGS)
def test_the_six_readings_003_lists_each_appear_for_both_their_waits(reading, wait_tiles):
    for wait in wait_tiles.split():
        complete = Hand.parse("3344455566677p" + wait)
        groups = {str(d) for d in decompositions(complete)}
        wanted = Counter(parse_tiles(reading + " " + wait))
        assert any(Counter(parse_tiles(g)) == wanted for g in groups)


@settings(max_examples=300, deadline=None)
@given(complete_hands())
def test_readings_cover_the_hand_exactly_and_agree_with_agari(hand):
    if hand.size != 14:
        return
    found = decompositions(hand)
    full = hand.counts()
    open_sets = []
    for meld in hand.melds:
        kinds = [t.kind for t in meld.tiles]
        open_sets.append(kinds)
        for kind in kinds:
            full[kind] += 1
    assert bool(found) is Agari.is_agari(full, open_sets)
    assert len({d.signature() for d in found}) == len(found)  # no reading twice
    for reading in found:
        covered = Counter(kind for group in reading.groups for kind in group.kinds)
        assert covered == Counter(t.kind for t in hand.concealed)
        if reading.form is HandForm.REGULAR:
            assert sum(g.kind is GroupKind.PAIR for g in reading.groups) == 1
            assert len(reading.groups) + len(reading.melds) == 5
