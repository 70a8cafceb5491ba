"""A misread discard corrected from the console, anywhere in the hand: journaled as its own
record, the hand replayed and re-judged (a win that becomes furiten, or valid), undo and resume."""

from __future__ import annotations

import sqlite3

from table_app.announce import AnnouncementKind
from table_app.domain.notation import parse_tiles
from table_app.domain.seat import Seat
from table_app.interpret import TableSetup
from table_app.journal import GameStore
from table_app.observations import (
    ButtonPress,
    DoraRevealed,
    HandLaidOpen,
    HandStarted,
    PondTileAdded,
    RefereeButton,
    TileCorrected,
)
from table_app.rules.events import Chombo, Dahai, Hora
from table_app.rules.fold import replay
from table_app.rules.profiles import TENHOU
from table_app.runtime.core import RefereeCore

M9, P5, S1, S2, Z1 = parse_tiles("9m5p1s2s1z")
#: Seat 2 waits on 5p alone (tanyao): 234m 456p 678s 345s + 5p.
WAITING = parse_tiles("234m456p678s345s5p")


def _kinds(path) -> list[str]:
    return [k for (k,) in sqlite3.connect(path).execute("SELECT kind FROM journal ORDER BY seq")]


def _core(tmp_path) -> RefereeCore:
    return RefereeCore(GameStore(tmp_path / "table.db"), TableSetup())


def _play(core: RefereeCore, seat2_discard, *, then_ron: bool = True) -> list:
    """A go-around of discards (seat 2's as ``seat2_discard``), then seat 0's 5p and seat 2's hand laid open."""
    said = []
    for observation in (
        HandStarted(0.0),
        DoraRevealed(0.0, parse_tiles("1p")[0]),
        PondTileAdded(1.0, Seat.S0, Z1),
        PondTileAdded(2.0, Seat.S1, S1),
        PondTileAdded(3.0, Seat.S2, seat2_discard),
        PondTileAdded(4.0, Seat.S3, Z1),
        PondTileAdded(5.0, Seat.S0, P5),
    ):
        said.extend(core.process(observation).announcements)
    if then_ron:
        said.extend(core.process(HandLaidOpen(6.0, Seat.S2, (*WAITING, P5), P5)).announcements)
    return said


def test_an_older_discard_is_corrected_in_place_and_journaled_as_its_own_record(tmp_path):
    core = _core(tmp_path)
    _play(core, M9, then_ron=False)
    before = [e.event for e in core._store.events(core.game_id)]
    update = core.process(TileCorrected(7.0, S2, Seat.S1, 0))  # seat 1's first discard: not the last
    assert [(a.kind, a.seat) for a in update.announcements] == [(AnnouncementKind.CORRECTED, Seat.S1)]
    assert (update.announcements[0].text_param("was"), update.announcements[0].text_param("tile")) == ("1s", "2s")
    hand = core.session.game.hand
    assert hand.player(Seat.S1).pond[0].tile == S2
    assert hand.last_discard == Seat.S0  # the game goes on where it was
    after = [e.event for e in core._store.events(core.game_id)]
    changed = [(old, new) for old, new in zip(before, after, strict=True) if old != new]
    assert changed == [(Dahai(Seat.S1, S1, False), Dahai(Seat.S1, S2, False))]
    assert _kinds(tmp_path / "table.db")[-1] == "correct"
    assert core.session.game == replay((e.event for e in core._store.events(core.game_id)), TENHOU)


def test_a_win_that_the_correction_makes_furiten_is_announced_and_put_to_the_referee(tmp_path):
    core = _core(tmp_path)
    said = _play(core, M9)  # seat 2's own discard read as 9m: the ron on 5p stands
    assert "ron" in [a.text_param("call") for a in said if a.kind is AnnouncementKind.CALL]
    assert core.session.game.hand.wins
    update = core.process(TileCorrected(7.0, P5, Seat.S2, 0))  # it was 5p: seat 2 is furiten
    kinds = [a.kind for a in update.announcements]
    assert kinds == [AnnouncementKind.CORRECTED, AnnouncementKind.ILLEGAL_ACT, AnnouncementKind.QUESTION]
    assert update.announcements[1].text_param("reason") == "furiten_ron"
    assert not core.session.game.hand.wins  # the win no longer stands
    assert _kinds(tmp_path / "table.db")[-2:] == ["correct", "undo"]  # the ron taken back, on record
    assert not any(isinstance(e.event, Hora) for e in core._store.events(core.game_id))
    core.process(ButtonPress(8.0, RefereeButton.CONFIRM))  # the referee confirms the penalty
    assert core._store.events(core.game_id)[-1].event == Chombo(Seat.S2, "furiten_ron")


def test_a_refused_win_that_the_correction_makes_valid_stands(tmp_path):
    core = _core(tmp_path)
    said = _play(core, P5)  # seat 2's own discard read as 5p: the ron looks furiten
    assert [a.kind for a in said][-2:] == [AnnouncementKind.ILLEGAL_ACT, AnnouncementKind.QUESTION]
    assert core.session.question is not None
    update = core.process(TileCorrected(7.0, M9, Seat.S2, 0))  # it was 9m
    assert [a.kind for a in update.announcements] == [AnnouncementKind.CORRECTED, AnnouncementKind.CALL]
    assert update.announcements[1].text_param("call") == "ron"  # the win and its payments: when the hand ends
    assert core.session.question is None
    assert core.session.game.hand.wins[0].winner == Seat.S2
    assert isinstance(core._store.events(core.game_id)[-1].event, Hora)


def test_undo_after_a_correction_and_a_restart_keep_the_corrected_tile(tmp_path):
    core = _core(tmp_path)
    _play(core, M9, then_ron=False)
    core.process(TileCorrected(7.0, S2, Seat.S2, 0))
    update = core.process(ButtonPress(8.0, RefereeButton.UNDO))  # takes back seat 0's 5p
    assert [a.kind for a in update.announcements] == [AnnouncementKind.UNDONE]
    hand = core.session.game.hand
    assert len(hand.player(Seat.S0).pond) == 1
    assert hand.player(Seat.S2).pond[0].tile == S2
    core._store.close()
    resumed = RefereeCore(GameStore(tmp_path / "table.db"), TableSetup())
    assert resumed.session.game == core.session.game


def test_a_correction_of_a_tile_that_is_not_there_changes_nothing(tmp_path):
    core = _core(tmp_path)
    _play(core, M9, then_ron=False)
    seq = core.journal_seq
    update = core.process(TileCorrected(7.0, S1, Seat.S3, 5))  # seat 3 has one discard
    assert update.announcements == ()
    assert core.journal_seq == seq


def test_a_call_on_the_corrected_tile_takes_the_right_tile_and_is_judged_again(tmp_path):
    from table_app.observations import MeldAppeared
    from table_app.rules.events import Pon

    m3, m4 = parse_tiles("3m4m")
    core = _core(tmp_path)
    for observation in (
        HandStarted(0.0),
        DoraRevealed(0.0, parse_tiles("1p")[0]),
        PondTileAdded(1.0, Seat.S0, m3),
        MeldAppeared(2.0, Seat.S2, (m3, m3, m3), m3, Seat.S0),
        PondTileAdded(3.0, Seat.S2, Z1),
    ):
        core.process(observation)
    assert isinstance(core._store.events(core.game_id)[-2].event, Pon)
    update = core.process(TileCorrected(4.0, m4, Seat.S0, 0))  # a pon of 3m3m on a 4m cannot be
    kinds = [a.kind for a in update.announcements]
    assert kinds[0] is AnnouncementKind.CORRECTED
    assert AnnouncementKind.ILLEGAL_ACT in kinds or AnnouncementKind.QUESTION in kinds
    events = [e.event for e in core._store.events(core.game_id)]
    assert not any(isinstance(e, Pon) for e in events)  # the pon and what followed no longer stand
    assert events[-1] == Dahai(Seat.S0, m4, False)
