"""What makes two logs the same game, whatever format they came in.

A game imported twice must be one game in the journal, and so must the same game read from
Tenhou's mjlog and from its tenhou.net/6 JSON. The formats place a few things differently or
not at all: when a kan's new dora indicator is turned, the acceptance of a riichi, the names
(anonymised or not), the order of a starting hand's tiles and of a call's, the hand laid
open at a win, the ura indicators, which draw a ``ryukyoku`` was, and the explicit end of
the game. What is left (every deal, draw, discard,
call, riichi and win, in order) is the game: its SHA-256 over a canonical JSON is the key.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from table_app.rules.events import Dora, EndGame, GameEvent, Hora, ReachAccepted, StartGame
from table_app.rules.mjai_codec import event_to_mjai

_LEFT_OUT = (StartGame, Dora, ReachAccepted, EndGame)


def _normal(event: GameEvent) -> dict[str, Any]:
    raw = event_to_mjai(event)
    # A starting hand and a call's own tiles are sets: their order is each format's own.
    if "tehais" in raw:
        raw["tehais"] = [sorted(hand) for hand in raw["tehais"]]
    if "consumed" in raw:
        raw["consumed"] = sorted(raw["consumed"])
    if isinstance(event, Hora):
        del raw["ura_markers"]
        raw.pop("hand", None)
    elif raw["type"] == "ryukyoku":
        raw = {"type": "ryukyoku"}
    return raw


def game_key(events: Iterable[GameEvent]) -> str:
    """The hex SHA-256 that names a game however it was logged."""
    normal = [_normal(event) for event in events if not isinstance(event, _LEFT_OUT)]
    text = json.dumps(normal, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
