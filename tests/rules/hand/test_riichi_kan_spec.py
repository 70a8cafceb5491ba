"""Every closed-kan-after-riichi example of spec/rules.md §2, at every level it names.

Columns: riichi hand (13-shaped), drawn tile, kan tile, the waits the spec gives, then the
expected verdict per strictness level (None: the spec names no verdict at that level).
Levels: W = waits only (lenient, 003), D = decompositions (strict standard: readings and
waits kept, kan uses the drawn tile), Y = JPML (also no yaku lost).
"""

from dataclasses import dataclass

import pytest

from table_app.domain.hand import Hand, HandError
from table_app.domain.meld import parse_meld
from table_app.domain.notation import parse_tile, parse_tiles
from table_app.rules.hand import KanReason, KanStrictness, check_riichi_closed_kan, waits

W, D, Y = KanStrictness.WAITS, KanStrictness.DECOMPOSITIONS, KanStrictness.YAKU


@dataclass(frozen=True)
class Example:
    source: str
    hand: str
    drawn: str
    kan: str
    waits: str
    verdicts: dict[KanStrictness, bool | None]
    reason_has: str = ""
    melds: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.source}:{self.hand.replace(' ', '')}+{self.drawn}:kan{self.kan}"


EXAMPLES = [
    # --- 000 (Japanese Wikipedia 立直) ---
    Example("000", "4555m 223344p 678s", "5m", "5m", "3m 4m 6m", {W: False, D: False, Y: False}, "6m lost"),
    Example("000", "222m 4555m 234p 234s", "5m", "5m", "3m 4m 6m", {W: False, D: False, Y: False}, "waits change"),
    Example("000", "222m 4555m 234p 234s", "2m", "2m", "3m 4m 6m", {W: True, D: False, Y: False}, "22m 234m"),
    Example("000", "111m 22m 333m 888p 66z", "1m", "1m", "2m 6z", {W: True, D: False, Y: False}, "123m 123m 123m"),
    Example("000", "111m 22m 333m 888p 66z", "3m", "3m", "2m 6z", {W: True, D: False, Y: False}, "123m 123m 123m"),
    Example("000", "111m 22m 333m 888p 66z", "8p", "8p", "2m 6z", {W: True, D: True, Y: True}),
    Example("000", "222333444p 77m 67s", "2p", "2p", "5s 8s", {W: True, D: False, Y: False}, "234p 234p 234p"),
    Example("000", "222333444p 77m 67s", "3p", "3p", "5s 8s", {W: True, D: False, Y: False}, "234p 234p 234p"),
    Example("000", "222333444p 77m 67s", "4p", "4p", "5s 8s", {W: True, D: False, Y: False}, "234p 234p 234p"),
    Example("000", "5555m 67m 33p 678p 67s", "8m", "5m", "5s 8s", {W: True, D: False, Y: False}, "okuri-kan"),
    Example("000", "1112455678999m", "1m", "1m", "3m", {W: True, D: True, Y: False}, "Chuuren Poutou"),
    Example("000", "1112455678999m", "9m", "9m", "3m", {W: True, D: True, Y: False}, "Chuuren Poutou"),
    # --- 003 (Chinese wiki 立直) ---
    Example("003", "111p 111s 111m 77z 66z", "1p", "1p", "6z 7z", {W: True, D: True, Y: True}),
    Example("003", "111p 111s 111m 77z 66z", "1s", "1s", "6z 7z", {W: True, D: True, Y: True}),
    Example("003", "111p 111s 111m 77z 66z", "1m", "1m", "6z 7z", {W: True, D: True, Y: True}),
    Example("003", "3344455566677p", "4p", "4p", "3p 4p 6p 7p", {W: None, D: False, Y: False}),
    Example("003", "3344455566677p", "5p", "5p", "3p 4p 6p 7p", {W: None, D: False, Y: False}),
    Example("003", "3344455566677p", "6p", "6p", "3p 4p 6p 7p", {W: None, D: False, Y: False}),
    Example("003", "111m 222m 333m 111z 4z", "1m", "1m", "4z", {W: True, D: False, Y: False}, "123m 123m 123m"),
    Example("003", "111m 222m 333m 111z 4z", "2m", "2m", "4z", {W: True, D: False, Y: False}, "123m 123m 123m"),
    Example("003", "111m 222m 333m 111z 4z", "3m", "3m", "4z", {W: True, D: False, Y: False}, "123m 123m 123m"),
    Example("003", "111m 222m 333m 111z 4z", "1z", "1z", "4z", {W: True, D: True, Y: True}),
    Example("003", "123p 333345s 78m 11z", "6s", "3s", "6m 9m", {W: True, D: False, Y: False}, "okuri-kan"),
]


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.id)
def test_waits_are_the_ones_the_spec_gives(example):
    hand = Hand(parse_tiles(example.hand), tuple(parse_meld(m) for m in example.melds))
    assert {str(w.tile) for w in waits(hand)} == set(example.waits.split())


CASES = [(e, level) for e in EXAMPLES for level, legal in e.verdicts.items() if legal is not None]


@pytest.mark.parametrize(("example", "level"), CASES, ids=lambda v: v.id if isinstance(v, Example) else v.value)
def test_verdict_at_each_level_the_spec_names(example, level):
    hand = Hand.parse(example.hand)
    verdict = check_riichi_closed_kan(hand, parse_tile(example.drawn), parse_tile(example.kan), level)
    assert verdict.legal is example.verdicts[level], verdict.reason
    if not verdict.legal and level is D and example.reason_has:
        assert example.reason_has in verdict.reason
    if verdict.legal:
        assert verdict.code is KanReason.UNCHANGED


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.id)
def test_forbidden_level_refuses_every_kan(example):
    verdict = check_riichi_closed_kan(
        Hand.parse(example.hand), parse_tile(example.drawn), parse_tile(example.kan), KanStrictness.FORBIDDEN
    )
    assert not verdict.legal
    assert verdict.code is KanReason.FORBIDDEN


def test_yaku_level_names_the_lost_yaku():
    verdict = check_riichi_closed_kan(Hand.parse("1112455678999m"), parse_tile("1m"), parse_tile("1m"), Y)
    assert verdict.code is KanReason.YAKU_LOST
    assert "Chuuren Poutou" in verdict.reason


def test_okuri_kan_is_legal_at_waits_level_unless_the_drawn_tile_is_required():
    hand, drawn, kan = Hand.parse("123p 333345s 78m 11z"), parse_tile("6s"), parse_tile("3s")
    assert check_riichi_closed_kan(hand, drawn, kan, W).legal
    tenhou_like = check_riichi_closed_kan(hand, drawn, kan, W, require_drawn_tile=True)
    assert not tenhou_like.legal
    assert tenhou_like.code is KanReason.OKURI_KAN
    assert "6s" in tenhou_like.reason


class TestExhaustedWaitSwitch:
    """000: 222m 4678m 678p + closed kan 3333m waits 4m (3m in form, all four 3m used); kan 2m.

    The rule sets differ; ``count_exhausted_waits`` is the switch."""

    hand = Hand(parse_tiles("222m 4678m 678p"), (parse_meld("ankan:3333m"),))

    def test_waits_mark_the_exhausted_3m(self):
        found = {str(w.tile): w.exhausted for w in waits(self.hand)}
        assert found == {"3m": True, "4m": False}

    @pytest.mark.parametrize("level", [W, D, Y])
    def test_counting_the_form_wait_makes_the_kan_illegal(self, level):
        verdict = check_riichi_closed_kan(
            self.hand, parse_tile("2m"), parse_tile("2m"), level, count_exhausted_waits=True
        )
        assert not verdict.legal
        assert verdict.code is KanReason.WAITS_CHANGE
        assert "3m lost" in verdict.reason

    @pytest.mark.parametrize("level", [W, D, Y])
    def test_ignoring_the_form_wait_makes_the_kan_legal(self, level):
        verdict = check_riichi_closed_kan(
            self.hand, parse_tile("2m"), parse_tile("2m"), level, count_exhausted_waits=False
        )
        assert verdict.legal, verdict.reason


def test_a_kan_without_four_tiles_is_a_bad_call_not_a_verdict():
    with pytest.raises(HandError, match="needs four in hand, there are 3"):
        check_riichi_closed_kan(Hand.parse("111m 22m 333m 888p 66z"), parse_tile("9s"), parse_tile("1m"), D)


def test_the_riichi_hand_must_be_13_shaped():
    with pytest.raises(HandError, match="13"):
        check_riichi_closed_kan(Hand.parse("111m 22m 333m 888p 66z 1m"), parse_tile("1m"), parse_tile("1m"), D)


def test_yaku_level_skips_waits_that_cannot_come():
    # 2p is held four times: the 2p wait exists in form only, so no yaku can be lost on it
    # (and the scorer must not be asked to score a fifth 2p).
    hand = Hand.parse("11122223344p22z")
    assert {str(w) for w in waits(hand)} == {"2p(exhausted)", "5p", "2z"}
    verdict = check_riichi_closed_kan(hand, parse_tile("1p"), parse_tile("1p"), Y)
    assert verdict.legal, verdict.reason
