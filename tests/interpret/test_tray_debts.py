"""The trays against the scores when a player has gone below zero (a bust, トビ)."""

from __future__ import annotations

from table_app.interpret.tray_debts import TrayOff, debt, trays_for_scores, trays_off

# seat 3 owed 12000 with 4900 in its tray: it handed over 4900 and owes 7100 to seat 2
BUST = (43000, 28400, 35700, -7100)


def test_without_a_debt_every_tray_must_hold_its_score() -> None:
    scores = (25000, 30000, 20000, 25000)
    assert trays_off(scores, scores) == ()
    assert trays_off(scores, (25000, 29000, 21000, 25000)) == (TrayOff(1, 30000, 29000), TrayOff(2, 20000, 21000))


def test_an_empty_tray_and_the_creditor_short_by_the_debt_agree_with_a_bust() -> None:
    assert debt(BUST) == 7100
    assert trays_off(BUST, (43000, 28400, 28600, 0)) == ()
    # whoever holds the IOU, the trays agree while the shortfall adds up to the debt
    assert trays_off(BUST, (40000, 28400, 31600, 0)) == ()


def test_a_debtor_holding_sticks_is_named_with_an_empty_tray_expected() -> None:
    # the 1000 it kept is missing beyond the IOU from the tray it should have gone to
    assert trays_off(BUST, (43000, 28400, 27600, 1000)) == (TrayOff(3, 0, 1000), TrayOff(2, 35700, 27600))


def test_a_real_mismatch_is_still_named_despite_a_debt() -> None:
    # 1000 more missing than the IOU explains: the trays that differ are named
    assert trays_off(BUST, (43000, 28400, 27600, 0)) == (TrayOff(2, 35700, 27600),)
    # a tray holding more than its score: no IOU explains that one, nor the tray it came from
    assert trays_off(BUST, (44000, 28400, 27600, 0)) == (TrayOff(0, 43000, 44000), TrayOff(2, 35700, 27600))
    # the debt paid in full from nowhere: no tray is short, so the IOU is not on the table
    assert len(trays_off(BUST, (43000, 28400, 35700, 0))) == 3
    # the whole debt taken twice over from one tray
    assert trays_off(BUST, (43000, 28400, 21500, 0)) == (TrayOff(2, 35700, 21500),)


def test_a_real_table_at_the_scores_holds_no_negative_tray_and_keeps_every_stick() -> None:
    trays = trays_for_scores(BUST)
    assert trays == [35900, 28400, 35700, 0]
    assert sum(trays) == sum(BUST)
    assert trays_off(BUST, trays) == ()
    assert trays_for_scores((25000,) * 4) == [25000] * 4
