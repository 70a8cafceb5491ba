"""The live wall as the table's sensor board counts it, for the hand in play.

The board counts the tiles standing in the walls less a standard 14-tile dead wall
(docs/protocol.md: 0-70), whatever the rule set. Under a profile with another dead wall
(純麻雀 has none) the board's count is the live wall shifted by the difference, and for the
last tiles of such a wall the board reads 0 and cannot tell how many are left.
"""

from __future__ import annotations

from table_app.rules.profiles import RuleProfile
from table_app.rules.state import KyokuState

BOARD_DEAD_WALL = 14


def board_wall(hand: KyokuState, profile: RuleProfile) -> int | None:
    """What the board should read now; ``None`` where it cannot count (it reads 0)."""
    count = hand.live_wall + profile.dead_wall - BOARD_DEAD_WALL
    return count if count >= 0 else None


def board_wall_shown(live_wall: int, profile: RuleProfile) -> int:
    """What a board shows for ``live_wall`` tiles left (a simulated board: 0 at the least)."""
    return max(0, live_wall + profile.dead_wall - BOARD_DEAD_WALL)
