"""Furiten (振聴) against a player's own discards.

A player whose own discards include any of their waits may not win by ron. Only the kind
counts (a red five discarded makes 5m-waits furiten too). Passed tiles and riichi furiten
depend on the course of the hand and are tracked by the rules core's game state.
"""

from __future__ import annotations

from collections.abc import Iterable

from table_app.domain.hand import Hand
from table_app.domain.tile import Tile
from table_app.rules.hand.waits import waits


def furiten_waits(hand: Hand, discards: Iterable[Tile]) -> tuple[Tile, ...]:
    """The waits of ``hand`` (13-shaped) found among ``discards``; empty = not furiten."""
    discarded = {tile.kind for tile in discards if not tile.is_unknown}
    return tuple(wait.tile for wait in waits(hand) if wait.tile.kind in discarded)


def is_furiten(hand: Hand, discards: Iterable[Tile]) -> bool:
    return bool(furiten_waits(hand, discards))
