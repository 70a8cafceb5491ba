"""The game as the journal holds it: its effective events folded under the rule profile in
force at each point (the one the game started with, then each change made between hands)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from table_app.journal.store import JournalEntry, ProfileChange
from table_app.rules.fold import apply, new_game
from table_app.rules.profiles import RuleProfile, profile_named
from table_app.rules.state import GameState


def fold(entries: Sequence[JournalEntry], changes: Sequence[ProfileChange], profile: RuleProfile) -> GameState:
    """``entries`` folded from a new game under ``profile``, switching profile where ``changes`` say."""
    pending = sorted(changes, key=lambda change: change.seq)
    state = new_game(profile)
    for entry in entries:
        while pending and pending[0].seq < entry.seq:
            state = replace(state, profile=profile_named(pending.pop(0).profile))
        state = apply(state, entry.event)
    for change in pending:
        state = replace(state, profile=profile_named(change.profile))
    return state
