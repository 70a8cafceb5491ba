"""The runtime side of the log feed: where a feed restarted after a crash picks up.

The feed itself (a logged game's events as observations, :mod:`table_app.interpret.event_observations`)
is pure; :class:`table_app.runtime.adapters.FeedSource` posts what it yields.
"""

from __future__ import annotations

from collections.abc import Sequence

from table_app.interpret import RefereeSession, step
from table_app.observations import Observation
from table_app.rules.events import GameEvent, ProfileChange


class FeedResumeError(ValueError):
    """The journal's unfinished game is not the one the feed plays: resuming would mix two games."""


def resume_index(observations: Sequence[Observation], session: RefereeSession, journaled: Sequence[GameEvent]) -> int:
    """Where a feed restarted after a crash picks up: just after the observation whose decision
    brought the journal to its ``journaled`` events (the referee core is deterministic, so replaying
    the feed through a scratch session finds it). Observations after it that were held (a
    discard waiting for its wall step) are posted again.

    The events the feed makes on the way must be the journaled ones: a journal of another game
    (or another log) is a :class:`FeedResumeError`, never resumed into a game that mixes both."""
    # A rule profile changed on the console is the referee's act, never the feed's: not compared.
    journaled = [event for event in journaled if not isinstance(event, ProfileChange)]
    made: list[GameEvent] = []
    resume_at = len(observations)
    for index, observation in enumerate(observations):
        if len(made) >= len(journaled):
            resume_at = index
            break
        decision = step(session, observation)
        session = decision.session
        made.extend(decision.events)
    for number, (kept, fed) in enumerate(zip(journaled, made, strict=False), start=1):
        if kept != fed:
            raise FeedResumeError(
                f"its unfinished game is not the feed's: journaled event {number} is {type(kept).__name__}, "
                f"the feed's is {type(fed).__name__}"
            )
    if len(made) < len(journaled):
        raise FeedResumeError(
            f"its unfinished game holds {len(journaled)} events, the feed's whole game makes {len(made)}"
        )
    return resume_at
