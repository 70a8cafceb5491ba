"""A refused act is not folded into the state: the game goes on as the table would after the
ruling, live and replayed alike (``judge_and_apply``)."""

from __future__ import annotations

from table_app.domain.notation import parse_tile
from table_app.domain.seat import Seat
from table_app.rules.check import check_game
from table_app.rules.events import EndKyoku, StartGame
from table_app.rules.judged import judge_and_apply
from table_app.rules.profiles import JUN, TENHOU
from table_app.rules.record import GameLog
from table_app.rules.verdicts import Consequence, Reason

from .scenario import chi, discard, draw, go_around, play, start

SWAP = [*start({1: "33456m234p678s99p"}, dora="1z"), *go_around(0, ["3m"]), chi(1, 0, "3m", "45m")]


def test_a_refused_act_leaves_the_state_as_it_was():
    state = play(SWAP, TENHOU)
    judged = judge_and_apply(state, discard(1, "3m"))
    assert not judged.folded
    assert judged.verdict.reason is Reason.KUIKAE
    assert judged.state is state
    allowed = judge_and_apply(state, discard(1, "9p"))
    assert allowed.folded
    assert allowed.state.hand.player(Seat.S1).pond[-1].tile == parse_tile("9p")


def test_replay_does_not_fold_a_refused_act_and_goes_on_with_what_the_table_did():
    events = [*SWAP, discard(1, "3m"), discard(1, "9p"), draw(2), discard(2, "1z")]
    log = GameLog("made.jsonl", 4, (*events, EndKyoku()), (), None, complete=False)
    checked = check_game(log, TENHOU)
    hand = checked.final.hand
    assert [str(t.tile) for t in hand.player(Seat.S1).pond] == ["9p"]  # the swap discard never happened
    assert hand.last_discard == Seat.S2
    (refusal,) = [m for m in checked.mismatches if "judged" in m.what]
    assert "judged chombo (kuikae)" in refusal.what
    acts = [(a.index, a.verdict.consequence) for a in checked.verdicts]
    assert (len(SWAP) + 1, Consequence.CHOMBO) in acts
    assert all(c is Consequence.ACCEPTED for i, c in acts if i != len(SWAP) + 1)
    assert not isinstance(checked.verdicts[0].event, StartGame)
    jun = check_game(log, JUN)  # 純麻雀 has no kuikae rule: both discards stand
    assert [str(t.tile) for t in jun.final.hand.player(Seat.S1).pond] == ["3m", "9p"]
