"""Waits, checked against the ``mahjong`` package's agari check tried on each of the 34 tiles."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from mahjong.agari import Agari

from table_app.domain.hand import Hand, HandError
from table_app.domain.meld import parse_meld
from table_app.rules.hand import HandForm, is_tenpai, live_waits, tenpai_discards, waits
from table_app.rules.hand.waits import seven_pairs_wait_mask, wait_mask

from .strategies import arbitrary_closed_hands, waiting_hands


def reference_live_waits(hand: Hand) -> set[int]:
    """What a program built on the mahjong package does: add each obtainable tile, test agari."""
    full = hand.counts()
    open_sets = []
    for meld in hand.melds:
        kinds = [t.kind for t in meld.tiles]
        for kind in kinds:
            full[kind] += 1
        open_sets.append(kinds)
    found = set()
    for kind in range(34):
        if full[kind] >= 4:
            continue
        full[kind] += 1
        if Agari.is_agari(full, open_sets):
            found.add(kind)
        full[kind] -= 1
    return found


@settings(max_examples=400, deadline=None)
@given(waiting_hands())
def test_live_waits_agree_with_the_reference_on_near_complete_hands(hand):
    assert {w.tile.kind for w in live_waits(hand)} == reference_live_waits(hand)


@settings(max_examples=300, deadline=None)
@given(arbitrary_closed_hands())
def test_live_waits_agree_with_the_reference_on_arbitrary_hands(hand):
    assert {w.tile.kind for w in live_waits(hand)} == reference_live_waits(hand)


@settings(max_examples=200, deadline=None)
@given(waiting_hands())
def test_every_wait_completes_the_hand_and_exhausted_means_four_held(hand):
    for wait in waits(hand):
        assert wait.exhausted is (hand.held(wait.tile.kind) == 4)
    assert is_tenpai(hand) is bool(live_waits(hand))


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("1112345678999m", "1m 2m 3m 4m 5m 6m 7m 8m 9m"),  # 純正九蓮宝燈: nine-sided
        ("19m19p19s1234567z", "1m 9m 1p 9p 1s 9s 1z 2z 3z 4z 5z 6z 7z"),  # 国士無双 thirteen-sided
        ("19m19p19s1234566z", "7z"),
        ("1122335566p11z9s", "9s"),  # seven pairs only
        ("2233445566778p", "2p 5p 8p"),  # seven pairs and regular
        ("123m456p789s1122z", "1z 2z"),  # shanpon
        ("123m456p789s111z2z", "2z"),  # honour tanki
    ],
)
def test_known_waits(hand, expected):
    assert " ".join(str(w.tile) for w in waits(Hand.parse(hand))) == expected


def test_forms_are_reported():
    found = {str(w.tile): w.forms for w in waits(Hand.parse("2233445566778p"))}
    assert found["8p"] == (HandForm.REGULAR, HandForm.SEVEN_PAIRS)
    assert found["2p"] == (HandForm.REGULAR,)


def test_a_fifth_copy_wait_is_kept_but_marked():
    # 1111z held: the 1z tanki wait exists in form only.
    found = {str(w.tile): w.exhausted for w in waits(Hand.parse("123m456m789m1111z"))}
    assert found == {"1z": True}
    assert not is_tenpai(Hand.parse("123m456m789m1111z"))


def test_four_of_a_kind_is_not_two_pairs():
    hand = Hand.parse("1111m 2233p 4455s 6z")
    assert seven_pairs_wait_mask(hand.counts()) == 0
    assert waits(hand) == ()


def test_seven_pairs_and_orphans_need_a_closed_full_hand():
    pairs_hand = Hand.parse("1122335566778p", (parse_meld("ankan:9999s"),))
    with pytest.raises(HandError):
        waits(pairs_hand)  # 17 tiles: refused
    hand = Hand.parse("1122335566p", (parse_meld("pon:777z@right"),))
    assert all(HandForm.SEVEN_PAIRS not in w.forms for w in waits(hand))


def test_wait_mask_fast_path_matches_the_value_api():
    hand = Hand.parse("3344455566677p")
    mask = wait_mask(hand.counts(), closed_full=True)
    assert [k for k in range(34) if mask >> k & 1] == [w.tile.kind for w in waits(hand)]


def test_fourteen_tiles_have_no_waits():
    with pytest.raises(HandError, match="13"):
        waits(Hand.parse("11122333m888p66z1m"))


def test_tenpai_discards_of_a_14_tile_hand():
    found = {
        str(tile): [str(w.tile) for w in left] for tile, left in tenpai_discards(Hand.parse("123m456p789s11z22z9m"))
    }
    assert found == {"9m": ["1z", "2z"]}


def test_tenpai_discards_skip_a_discard_leaving_only_exhausted_waits():
    # Discarding 9s would leave 123m456m789m1111z: waiting on a fifth 1z only.
    found = [str(tile) for tile, _ in tenpai_discards(Hand.parse("123m456m789m1111z9s"))]
    assert found == ["1z"]


def test_tenpai_discards_keep_red_and_plain_fives_apart():
    found = [str(tile) for tile, _ in tenpai_discards(Hand.parse("055m456p789s111z22z"))]
    assert "0m" in found
    assert "5m" in found
