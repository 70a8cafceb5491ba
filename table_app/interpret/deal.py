"""Starting a hand: the rules' next hand, or the first."""

from __future__ import annotations

from table_app.domain.seat import Wind
from table_app.domain.tile import UNKNOWN, Tile
from table_app.interpret.session import RefereeSession
from table_app.rules.events import GameEvent, StartGame, StartKyoku


def deal(session: RefereeSession, indicator: Tile) -> tuple[GameEvent, ...] | None:
    """The first dora indicator after a deal starts the hand: the rules' next hand, or the
    first (East 1 under the config's first dealer); ``None`` once the game is over."""
    game = session.game
    start: tuple[GameEvent, ...] = () if session.started else (StartGame(session.setup.names),)
    hidden = ((UNKNOWN,) * 13,) * 4
    next_hand = game.next_hand
    if next_hand is None:
        if game.hands_played:
            return None
        oya = session.setup.first_dealer
        scores = (game.profile.start_points,) * 4
        return (*start, StartKyoku(Wind.EAST, 1, 0, 0, oya, scores, indicator, hidden))
    if next_hand.game_over:
        return None
    return (
        *start,
        StartKyoku(
            next_hand.bakaze,
            next_hand.kyoku,
            next_hand.honba,
            next_hand.kyotaku,
            next_hand.oya,
            next_hand.scores,
            indicator,
            hidden,
        ),
    )
