"""The referee core on hand-made sequences of observations: discards and the wall, the link
going and coming back, illegal calls, false wins, trays after a hand, undo, the camera."""

from __future__ import annotations

from table_app.announce import AnnouncementKind
from table_app.domain.notation import parse_mjai, parse_tiles
from table_app.domain.seat import Seat
from table_app.domain.tile import UNKNOWN
from table_app.interpret.event_observations import FeedOptions, log_observations
from table_app.logs import read_log
from table_app.observations import (
    ButtonPress,
    CameraLost,
    CameraRestored,
    DoraRevealed,
    HandLaidOpen,
    HandStarted,
    LinkChanged,
    LinkHealth,
    MeldAppeared,
    PondTileAdded,
    RefereeAnswer,
    RefereeButton,
    TraysRead,
)
from table_app.rules.events import Ankan, Chombo, Dahai, Tsumo
from tests.interpret.helpers import Table

M1, M3, P9 = parse_mjai("1m"), parse_mjai("3m"), parse_mjai("9p")


def test_the_first_dora_indicator_starts_the_game_and_hand():
    table = Table()
    table.deal(parse_mjai("5s"))
    assert [type(e).__name__ for e in table.events] == ["StartGame", "StartKyoku"]
    assert table.hand.dora_markers == (parse_mjai("5s"),)
    assert table.kinds() == [AnnouncementKind.HAND_START]


def test_a_discard_waits_for_the_wall_to_step():
    table = Table()
    table.deal(parse_mjai("5s"), board=True)
    table.events.clear()
    table.see(PondTileAdded(1.0, Seat.S0, M1))
    assert table.events == []  # the board has not seen the draw yet
    table.see(table.trays(wall=69))
    assert table.events == [Tsumo(Seat.S0, UNKNOWN), Dahai(Seat.S0, M1, tsumogiri=False)]


def test_a_wall_that_never_steps_is_announced_once_settled_and_the_camera_wins():
    table = Table()
    table.deal(parse_mjai("5s"), board=True)
    table.see(PondTileAdded(1.0, Seat.S0, M1))
    assert table.see(PondTileAdded(2.0, Seat.S1, P9)) == []  # the next discard comes, the wall still says 70
    assert Dahai(Seat.S0, M1, tsumogiri=False) in table.events
    assert table.hand.last_discard == Seat.S1  # a board that is off holds nothing back
    assert table.wait(0.75) == []  # not settled yet: a board may be a moment behind
    said = table.wait(0.5)
    assert [(a.kind, a.int_param("expected"), a.int_param("read")) for a in said] == [
        (AnnouncementKind.WALL_DISAGREES, 68, 70)
    ]
    assert table.wait(5.0) == []  # said once


def test_link_lost_is_announced_and_refereeing_goes_on_from_the_camera():
    table = Table()
    table.deal(parse_mjai("5s"), board=True)
    table.see(PondTileAdded(1.0, Seat.S0, M1))
    said = table.see(LinkChanged(2.0, LinkHealth.LOST, "unplugged"))
    assert said[0].kind is AnnouncementKind.LINK_LOST
    assert Dahai(Seat.S0, M1, tsumogiri=False) in table.events  # the held discard is taken
    table.see(PondTileAdded(3.0, Seat.S1, P9))
    assert table.hand.last_discard == Seat.S1  # no wall needed without the board
    assert table.see(LinkChanged(4.0, LinkHealth.CONNECTING)) == []
    said = table.see(LinkChanged(5.0, LinkHealth.CONNECTED))
    assert [a.kind for a in said] == [AnnouncementKind.LINK_RESTORED]


def test_a_chi_from_across_is_void_and_announced_with_the_rule():
    table = Table()
    table.deal(parse_mjai("5s"))
    table.see(PondTileAdded(1.0, Seat.S0, M3))
    before = list(table.events)
    said = table.see(MeldAppeared(2.0, Seat.S2, parse_tiles("345m"), M3, Seat.S0))
    assert table.events == before
    assert said[0].kind is AnnouncementKind.ILLEGAL_ACT
    assert said[0].text_param("reason") == "chi_not_from_left"
    assert said[0].text_param("consequence") == "void"


def test_a_pon_is_a_call_from_the_turned_tile():
    table = Table()
    table.deal(parse_mjai("5s"))
    table.see(PondTileAdded(1.0, Seat.S0, M3))
    said = table.see(MeldAppeared(2.0, Seat.S2, parse_tiles("333m"), M3, Seat.S0))
    assert said[0].kind is AnnouncementKind.CALL
    assert said[0].text_param("call") == "pon"
    assert table.hand.turn == Seat.S2
    table.see(PondTileAdded(3.0, Seat.S2, P9))  # after a call: a discard without a draw
    assert table.events[-1] == Dahai(Seat.S2, P9, tsumogiri=False)
    assert table.events[-2] != Tsumo(Seat.S2, UNKNOWN)


def test_a_false_ron_is_announced_and_the_penalty_put_to_the_referee():
    table = Table()
    table.deal(parse_mjai("5s"))
    table.see(PondTileAdded(1.0, Seat.S0, M1))
    said = table.see(HandLaidOpen(2.0, Seat.S2, parse_tiles("2468m2468p2468s9s")))
    kinds = [a.kind for a in said]
    assert kinds == [AnnouncementKind.ILLEGAL_ACT, AnnouncementKind.QUESTION]
    assert said[0].text_param("reason") == "false_win"
    assert said[1].texts_param("options") == ("penalty", "misread: ignore")
    assert not any(isinstance(e, Chombo) for e in table.events)  # never guessed
    table.see(ButtonPress(3.0, RefereeButton.CONFIRM))
    assert table.events[-1] == Chombo(Seat.S2, "false_win")


def test_the_referee_may_say_it_was_a_misread():
    table = Table()
    table.deal(parse_mjai("5s"))
    table.see(PondTileAdded(1.0, Seat.S0, M1))
    said = table.see(HandLaidOpen(2.0, Seat.S2, parse_tiles("2468m2468p2468s9s")))
    question = said[1].int_param("question")
    before = list(table.events)
    table.see(RefereeAnswer(3.0, question, 1))
    assert table.events == before
    assert table.session.question is None


def test_a_discard_out_of_turn_is_a_question():
    table = Table()
    table.deal(parse_mjai("5s"))
    said = table.see(PondTileAdded(1.0, Seat.S2, M1))
    assert [a.kind for a in said] == [AnnouncementKind.QUESTION]
    assert "out of turn" in said[0].text_param("topic")


def _first_hand_ended(logs_dir) -> Table:
    """A real game's first hand, board and all, up to the referee's CONFIRM that ends it."""
    game = read_log(sorted((logs_dir / "tenhou6_json").iterdir())[0])[0]
    observations = list(log_observations(game.events, options=FeedOptions(trays=True)))
    confirm = next(i for i, o in enumerate(observations) if isinstance(o, ButtonPress))
    table = Table()
    table.see(*observations[: confirm + 1])
    return table


def test_trays_after_a_hand_complete_or_off(logs_dir):
    table = _first_hand_ended(logs_dir)
    scores = table.session.game.scores
    off = (scores[0], scores[1], scores[2] - 1000, scores[3])
    assert table.see(TraysRead(9.0, off, 0, 0)) == []  # payments may still be going on
    assert table.wait(0.75) == []
    said = table.wait(0.5)  # settled: the tray is off
    assert [(a.kind, a.seat) for a in said] == [(AnnouncementKind.TRAY_OFF, Seat.S2)]
    assert said[0].int_param("read") - said[0].int_param("expected") == -1000
    assert table.wait(3.0) == []  # said once
    said = table.see(ButtonPress(10.0, RefereeButton.CONFIRM))  # the referee says they are done: again
    assert [(a.kind, a.seat) for a in said] == [(AnnouncementKind.TRAY_OFF, Seat.S2)]
    said = table.see(TraysRead(11.0, scores, 0, 0))
    assert [a.kind for a in said] == [AnnouncementKind.PAYMENTS_COMPLETE]
    assert table.wait(3.0) == []


def test_payments_complete_when_the_next_hands_riichi_stick_is_already_down(logs_dir):
    # Found with `jantaku demo --fast`: the board ran ahead of the camera, and the next hand's
    # riichi stick was on the deposit before the referee saw the sideways tile.
    table = _first_hand_ended(logs_dir)
    scores = table.session.game.scores
    dealer = table.session.game.next_hand.oya
    table.see(HandStarted(9.0), DoraRevealed(9.0, parse_mjai("5s")))
    early = tuple(score - 1000 * (seat == dealer) for seat, score in enumerate(scores))
    assert table.see(TraysRead(10.0, early, 1, 69)) == []  # paid, and the dealer's stick is down
    said = table.see(PondTileAdded(11.0, dealer, M1, sideways=True))
    assert [a.kind for a in said] == [AnnouncementKind.RIICHI, AnnouncementKind.PAYMENTS_COMPLETE]
    assert table.wait(3.0) == []


def test_undo_is_asked_of_the_core_thread():
    table = Table()
    table.deal(parse_mjai("5s"))
    table.see(ButtonPress(1.0, RefereeButton.UNDO))
    assert table.undos == 1


def test_camera_lost_and_restored_are_announced():
    table = Table()
    assert [a.kind for a in table.see(CameraLost(1.0, "no frames"))] == [AnnouncementKind.CAMERA_LOST]
    assert not table.session.camera_ok
    assert [a.kind for a in table.see(CameraRestored(2.0))] == [AnnouncementKind.CAMERA_RESTORED]


def test_riichi_is_accepted_when_the_next_act_comes_and_a_missing_stick_is_announced():
    table = Table()
    table.deal(parse_mjai("5s"), board=True)
    table.see(table.trays(wall=69), PondTileAdded(1.0, Seat.S0, M1, sideways=True))
    assert table.hand.player(Seat.S0).in_riichi
    said = table.see(table.trays(wall=68, deposit=0), PondTileAdded(2.0, Seat.S1, P9))
    assert said == []  # the stick may still be on its way
    assert table.hand.kyotaku == 1
    assert table.hand.player(Seat.S0).riichi.name == "ACCEPTED"
    said = table.wait(1.5)  # it never came: the deposit is short, and seat 0's tray holds it still
    facts = sorted((a.kind.value, a.seat, a.int_param("expected"), a.int_param("read")) for a in said)
    assert facts == [("deposit_disagrees", None, 1, 0), ("tray_off", Seat.S0, 24000, 25000)]


def test_a_riichi_stick_put_down_late_is_no_disagreement():
    table = Table()
    table.deal(parse_mjai("5s"), board=True)
    table.see(table.trays(wall=69), PondTileAdded(1.0, Seat.S0, M1, sideways=True))
    table.wait(0.5)
    table.see(table.trays(wall=68), PondTileAdded(2.0, Seat.S1, P9))
    table.wait(0.5)
    table.see(table.trays(wall=68, deposit=1, points=(24000, 25000, 25000, 25000)))
    table.wait(3.0)
    assert table.said[-1].kind is AnnouncementKind.RIICHI  # nothing said since the declaration


def test_a_stick_taken_from_the_wrong_tray_names_both_trays():
    table = Table()
    table.deal(parse_mjai("5s"), board=True)
    table.see(table.trays(wall=69), PondTileAdded(1.0, Seat.S0, M1, sideways=True))
    table.see(table.trays(wall=69, deposit=1, points=(25000, 25000, 24000, 25000)))
    said = table.wait(1.5)
    facts = sorted((a.seat, a.int_param("expected"), a.int_param("read")) for a in said)
    assert [a.kind for a in said] == [AnnouncementKind.TRAY_OFF] * 2
    assert facts == [(Seat.S0, 24000, 25000), (Seat.S2, 25000, 24000)]


def test_a_transient_wrong_reading_says_nothing():
    table = Table()
    table.deal(parse_mjai("5s"), board=True)
    table.see(table.trays(wall=69), PondTileAdded(1.0, Seat.S0, M1))
    # A tile half drawn, a stick half placed, a payment in passing: each stands less than the settle time.
    glitches = (
        table.trays(wall=66),
        table.trays(wall=69, deposit=1),
        table.trays(wall=69, points=(25000, 20000, 30000, 25000)),
    )
    for glitch in glitches:
        table.see(glitch)
        assert table.wait(0.75) == []
        table.see(table.trays(wall=69))
    assert table.wait(5.0) == []


def test_the_board_a_draw_ahead_of_the_camera_is_no_disagreement():
    table = Table()
    table.deal(parse_mjai("5s"), board=True)
    table.see(table.trays(wall=69), PondTileAdded(1.0, Seat.S0, M1))
    table.see(table.trays(wall=68))  # seat 1 drew; the camera has not seen their discard yet
    assert table.wait(5.0) == []


def test_a_persistent_wrong_tray_is_said_once_until_the_reading_changes():
    table = Table()
    table.deal(parse_mjai("5s"), board=True)
    table.see(table.trays(wall=69), PondTileAdded(1.0, Seat.S0, M1))
    short = (25000, 25000, 24000, 25000)  # a stick slipped off seat 2's tray on a quiet table
    table.see(table.trays(wall=69, points=short))
    assert table.wait(0.75) == []
    said = table.wait(0.5)
    assert [(a.kind, a.seat, a.int_param("expected"), a.int_param("read")) for a in said] == [
        (AnnouncementKind.TRAY_OFF, Seat.S2, 25000, 24000)
    ]
    assert table.wait(3.0) == []
    # The game moves on with the same reading: re-checked, not repeated.
    table.see(table.trays(wall=68, points=short), PondTileAdded(2.0, Seat.S1, P9))
    assert table.hand.last_discard == Seat.S1
    assert table.wait(3.0) == []
    # Another stick goes: a new reading, said again once it settles.
    table.see(table.trays(wall=68, points=(25000, 25000, 23000, 25000)))
    said = table.wait(1.5)
    assert [(a.seat, a.int_param("read") - a.int_param("expected")) for a in said] == [(Seat.S2, -2000)]
    # Put back: it resolves without a word.
    table.see(table.trays(wall=68))
    assert table.wait(3.0) == []
    assert table.session.suspects == ()


def test_an_implausible_reading_is_not_used():
    table = Table()
    table.deal(parse_mjai("5s"), board=True)
    table.see(PondTileAdded(1.0, Seat.S0, M1))
    assert table.events[-1] != Dahai(Seat.S0, M1, tsumogiri=False)  # held for the wall
    table.see(TraysRead(2.0, (25000,) * 4, 0, 69, plausible=False))
    assert table.session.pending_discard is not None  # a flagged reading settles nothing
    table.see(TraysRead(3.0, (25000,) * 4, 0, 69))
    assert table.events[-1] == Dahai(Seat.S0, M1, tsumogiri=False)


def test_a_new_deal_signal_mid_hand_does_not_swallow_the_next_dora_indicator():
    # Found with `jantaku demo --fast`: the board's hand counter ran ahead of the camera, and the
    # kan dora that followed was taken as the next hand's first indicator.
    table = Table()
    table.deal(parse_mjai("5s"))
    table.events.clear()
    table.see(HandStarted(1.0))
    assert not table.session.awaiting_deal
    table.see(DoraRevealed(2.0, parse_mjai("9s")))
    assert table.hand.dora_markers == (parse_mjai("5s"), parse_mjai("9s"))


def test_a_closed_kan_read_with_unknown_tiles_is_put_to_the_referee_not_a_crash():
    table = Table()
    table.deal(parse_mjai("5s"))
    said = table.see(MeldAppeared(2.0, Seat.S0, (UNKNOWN, M3, M3, UNKNOWN), None, None))
    assert not any(isinstance(e, Ankan) for e in table.events)  # a kan the state cannot hold is not taken
    assert [a.kind for a in said] == [AnnouncementKind.QUESTION]
    assert "meld tiles must be known" in said[0].text_param("topic")
    assert table.session.question is not None
