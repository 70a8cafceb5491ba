"""The live referee under a profile whose wall differs: 純麻雀 has no dead wall, so a hand
runs to the 84th tile after the deal while the table's board (which always counts the walls
less a 14-tile dead wall) reads 70 at the deal and 0 for the last 14 tiles."""

from __future__ import annotations

from table_app.announce import AnnouncementKind
from table_app.domain.notation import parse_mjai
from table_app.domain.seat import Seat
from table_app.interpret import TableSetup, new_session
from table_app.observations import (
    ButtonPress,
    DoraRevealed,
    HandStarted,
    LinkChanged,
    LinkHealth,
    PondTileAdded,
    RefereeButton,
)
from table_app.rules.profiles import JUN, TENHOU
from tests.interpret.helpers import Table

TILES = [parse_mjai(t) for t in ("2m", "3m", "4m", "6m", "7m", "8m", "2p", "3p", "4p", "6p", "7p", "8p")]


def _table(profile) -> Table:
    table = Table(session=new_session(TableSetup(profile, settle_s=1.0)))
    points = (profile.start_points,) * 4
    table.see(LinkChanged(0.0, LinkHealth.CONNECTED), table.trays(wall=70, points=points))
    table.see(HandStarted(0.0), DoraRevealed(0.0, parse_mjai("5s")))
    return table


def _discards(table: Table, profile, start: int, stop: int) -> None:
    points = (profile.start_points,) * 4
    for index in range(start, stop):
        table.see(PondTileAdded(float(index), Seat(index % 4), TILES[index % len(TILES)]))
        board = max(0, profile.live_wall_at_start - (index + 1) - 14)
        table.see(table.trays(wall=board, points=points))


def _confirm(table: Table) -> list:
    return table.see(ButtonPress(0.0, RefereeButton.CONFIRM))


def test_jun_hand_runs_to_the_84th_tile_and_the_board_never_disagrees():
    table = _table(JUN)
    assert table.hand.live_wall == 84
    _discards(table, JUN, 0, 70)
    assert table.hand.live_wall == 14
    table.wait(2.0)
    assert _confirm(table) == []  # 14 tiles still stand: no exhaustive draw
    assert table.hand.result is None
    _discards(table, JUN, 70, 84)
    assert table.hand.live_wall == 0
    table.wait(2.0)
    said = _confirm(table)
    assert said[0].kind is AnnouncementKind.EXHAUSTIVE_DRAW
    assert AnnouncementKind.WALL_DISAGREES not in table.kinds()
    assert AnnouncementKind.ILLEGAL_ACT not in table.kinds()


def test_a_standard_hand_ends_at_the_70th_tile():
    table = _table(TENHOU)
    _discards(table, TENHOU, 0, 70)
    table.wait(2.0)
    said = _confirm(table)
    assert said[0].kind is AnnouncementKind.EXHAUSTIVE_DRAW
    assert AnnouncementKind.WALL_DISAGREES not in table.kinds()
