"""Rule profiles: the named presets, and a documented source for every switch."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from table_app.rules.hand import KanStrictness
from table_app.rules.profiles import JPML, JUN, PROFILES, TENHOU, ChomboPenalty, MultipleRon, RuleProfile, profile_named

DOCS = Path(__file__).resolve().parents[3] / "docs" / "rules.md"


def test_presets_have_unique_names_and_are_found_by_name():
    names = [p.name for p in PROFILES]
    assert len(set(names)) == len(names)
    assert {"tenhou", "mleague", "jpml", "jun"} <= set(names)
    assert all(profile_named(p.name) is p for p in PROFILES)
    with pytest.raises(ValueError, match="unknown rule profile"):
        profile_named("wrc")


def test_jun_mahjong_switches_follow_seed_001():
    assert not JUN.kans
    assert (JUN.dora, JUN.ura_dora, JUN.red_fives) == (False, False, False)
    assert JUN.honba_points == 0
    assert not JUN.riichi_requires_tenpai
    assert (JUN.dealer_repeats_on_win, JUN.dealer_repeats_on_tenpai, JUN.dealer_repeats_on_abort) == (False,) * 3
    assert JUN.chombo is ChomboPenalty.LOSS_OF_RIGHTS


def test_jpml_switches_follow_seed_002():
    assert JPML.multiple_ron is MultipleRon.HEAD_BUMP
    assert not JPML.nagashi_mangan
    assert JPML.riichi_kan is KanStrictness.YAKU
    assert JPML.chombo is ChomboPenalty.FINAL_TALLY


def test_tenhou_is_the_default():
    assert TENHOU.multiple_ron is MultipleRon.DOUBLE_RON
    assert TENHOU.triple_ron_aborts


def test_every_switch_is_documented_with_its_source():
    text = DOCS.read_text(encoding="utf-8")
    missing = [f.name for f in fields(RuleProfile) if f"`{f.name}`" not in text]
    assert missing == []


def test_a_variant_is_named_after_its_changes_and_found_by_that_name():
    from table_app.rules.profiles import GameLength, with_variants

    variant = with_variants(TENHOU, {"early", "east"})
    assert variant.name == "tenhou+east+early"
    assert variant.length is GameLength.EAST_ONLY
    assert variant.uma == (10, 5, -5, -10)
    assert profile_named(variant.name) == variant
    assert profile_named("tenhou+no_red").red_fives is False
    with pytest.raises(ValueError, match="unknown profile variant 'x'"):
        profile_named("tenhou+x")
