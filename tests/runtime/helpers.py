"""Shared pieces of the runtime tests: a real game's observations, waiting on listeners."""

from __future__ import annotations

import queue

from table_app.domain.notation import parse_mjai
from table_app.domain.seat import Seat
from table_app.interpret import TableSetup, new_session, step
from table_app.interpret.event_observations import FeedOptions, log_observations
from table_app.logs import read_log
from table_app.observations import DoraRevealed, HandStarted, Observation, PondTileAdded
from table_app.rules.check import profile_for_log
from table_app.rules.events import GameEvent, StartKyoku
from table_app.rules.profiles import TENHOU
from table_app.runtime.ports import CoreUpdate


def first_game(logs_dir):
    return read_log(sorted((logs_dir / "tenhou6_json").iterdir())[0])[0]


def setup_for(game) -> TableSetup:
    profile = profile_for_log(TENHOU, game.rules)
    first = next(e.oya for e in game.events if isinstance(e, StartKyoku))
    return TableSetup(profile, ("A", "B", "C", "D"), first)


def observations_of(game, *, trays: bool = True):
    return list(log_observations(game.events, setup_for(game).profile, FeedOptions(trays=trays)))


def hand_in_play(*discards: str) -> tuple[Observation, ...]:
    """A hand dealt (indicator 5s) and ``discards`` (mjai tiles) thrown in turn from the dealer,
    one a second: a small table for the console to correct and undo on."""
    dealt = (HandStarted(0.0), DoraRevealed(0.0, parse_mjai("5s")))
    thrown = (PondTileAdded(float(i + 1), Seat(i % 4), parse_mjai(tile)) for i, tile in enumerate(discards))
    return (*dealt, *thrown)


def uninterrupted_events(game) -> list[GameEvent]:
    """What a referee that is never stopped makes of the game's observations (trays on, players
    unnamed, as `jantaku run` with a [feed] plays it): pure and deterministic, the yardstick
    for runs that were killed and resumed."""
    setup = setup_for(game)
    setup = TableSetup(setup.profile, ("", "", "", ""), setup.first_dealer)
    session, events = new_session(setup), []
    for observation in log_observations(game.events, setup.profile, FeedOptions(trays=True)):
        decision = step(session, observation)
        session, events = decision.session, [*events, *decision.events]
    return events


def wait_for(updates: queue.Queue[CoreUpdate], predicate, timeout: float = 10.0) -> CoreUpdate:
    """The first update that satisfies ``predicate`` (queues with timeouts, never a sleep)."""
    while True:
        update = updates.get(timeout=timeout)
        if predicate(update):
            return update
