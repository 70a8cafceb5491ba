"""Exports of a journaled game: an mjai log (JSON lines) that mjai tools and ``jantaku replay`` read.

The events are the journal's, through the same codec. Each ``hora`` and ``ryukyoku`` also
carries what the rules core computed (``deltas``, and for a win ``hora_points``, ``fan``,
``fu``), and ``end_game`` the final ``scores``, as mjai logs do, so a reader has the record
to check the game against.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Any

from table_app.rules.events import EndGame, EndKyoku, GameEvent, Hora, Ryukyoku
from table_app.rules.fold import apply, new_game
from table_app.rules.mjai_codec import event_to_mjai
from table_app.rules.profiles import RuleProfile


def mjai_lines(
    events: Iterable[GameEvent], profile: RuleProfile, switches: Mapping[int, RuleProfile] | None = None
) -> Iterator[str]:
    """The game as mjai lines; ``switches``: the profile in force from the event at that index on
    (a change the referee made between hands)."""
    events = list(events)
    switches = switches or {}
    # The hand results are known only at end_kyoku: fold once to find them, then write.
    state = new_game(profile)
    win_results: list[Any] = []
    for index, event in enumerate(events):
        if index in switches:
            state = replace(state, profile=switches[index])
        state = apply(state, event)
        if isinstance(event, Hora) and state.hand is not None:
            win_results.append(state.hand.wins[-1])
    hand_results = iter(state.results)
    wins = iter(win_results)
    final_scores = state.scores if state.finished else None
    pending: list[dict[str, Any]] = []
    for event in events:
        raw = event_to_mjai(event)
        if isinstance(event, Hora):
            win = next(wins)
            raw.update(deltas=list(win.deltas), hora_points=win.points, fan=win.han, fu=win.fu)
        elif isinstance(event, Ryukyoku):
            pending.append(raw)  # its deltas come with the hand's result
            continue
        elif isinstance(event, EndKyoku):
            result = next(hand_results)
            for draw in pending:
                draw["deltas"] = list(result.deltas)
                yield json.dumps(draw, ensure_ascii=False)
            pending.clear()
        elif isinstance(event, EndGame) and final_scores is not None:
            raw["scores"] = list(final_scores)
        yield json.dumps(raw, ensure_ascii=False)
    for draw in pending:
        yield json.dumps(draw, ensure_ascii=False)
