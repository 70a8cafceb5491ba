"""tenhou.net/6 JSON → games (placeholder until the interleaving reader lands)."""

from __future__ import annotations

from table_app.logs.errors import LogReadError
from table_app.rules.record import GameLog


def read_tenhou6_text(_text: str, source: str) -> tuple[GameLog, ...]:
    raise LogReadError(source, "start", "tenhou.net/6 reading is not implemented yet")
