"""A logged game as a table-simulator script: the trays, deposit and wall follow the game."""

from __future__ import annotations

from firmware_bridge.sim_script import Action, TableState, apply_step, parse_script
from table_app.interpret.event_observations import FeedOptions, log_observations
from table_app.interpret.tray_debts import debt, trays_for_scores, trays_off
from table_app.logs import read_log
from table_app.rules.check import profile_for_log
from table_app.rules.events import StartKyoku
from table_app.rules.fold import apply, new_game
from table_app.rules.profiles import TENHOU
from table_app.runtime.log_table_script import table_script_text


def test_the_simulated_table_matches_the_game_at_every_deal(logs_dir):
    played = busts = 0
    for path in sorted((logs_dir / "tenhou6_json").iterdir()):
        game = read_log(path)[0]
        profile = profile_for_log(TENHOU, game.rules)
        final = new_game(profile)
        for event in game.events[:-1]:  # before end_game's leftover sticks
            final = apply(final, event)
        busts += min(final.scores) < 0
        script = parse_script(table_script_text(game.events, profile, 0.5), path.name)
        played += 1
        starts = [e for e in game.events if isinstance(e, StartKyoku)]
        state, deals = TableState(), 0
        for step in script.steps:
            if step.action is Action.HAND and deals:
                expected = (trays_for_scores(starts[deals].scores), starts[deals].kyotaku)
                assert (list(state.points), state.deposit) == expected, path.name
            if step.action is Action.HAND:
                deals += 1
            state = apply_step(state, step, path.name)
        assert deals == len(starts)
        # a bust: the tray is empty and the rest is owed, the payee short of it
        assert not trays_off(final.scores, state.points), path.name
        assert sum(state.owed) == debt(final.scores), path.name
    assert played >= 10
    assert busts, "no bust among the logs: the debt is untested"


def test_the_script_keeps_the_feeds_clock(logs_dir):
    game = read_log(sorted((logs_dir / "tenhou6_json").iterdir())[0])[0]
    script = parse_script(table_script_text(game.events, step_s=0.25))
    observations = list(log_observations(game.events, options=FeedOptions(step_s=0.25)))
    draws = [s.at for s in script.steps if s.action is Action.DRAW]
    acts = {"PondTileAdded", "HandLaidOpen", "MeldAppeared", "MeldExtended"}  # what follows a draw
    discards = [o.at for o in observations if type(o).__name__ in acts]
    # each draw happens at the feed time the act after it is seen (the referee holds a
    # discard until the board's wall count has stepped)
    discard_times = {round(at, 6) for at in discards}
    assert all(round(at, 6) in discard_times for at in draws)
    assert len(draws) > 500


def test_a_resumed_script_first_sets_the_table_as_it_stood(logs_dir):
    from table_app.interpret.event_observations import observation_counts

    game = read_log(logs_dir / "tenhou6_json" / "2020071200gm-00a9-0000-2703badd.json")[0]
    profile = profile_for_log(TENHOU, game.rules)
    counts = observation_counts(list(game.events), profile)
    whole = parse_script(table_script_text(game.events, profile, 0.1))
    for resume_at in (37, 150, 401):
        resumed = parse_script(table_script_text(game.events, profile, 0.1, 2.0, from_observation=resume_at))
        # the table of the uninterrupted script once every event before the resume point is played
        events_before, seen = 0, 0
        while seen < resume_at:
            seen += counts[events_before]
            events_before += 1
        cut = TableState()
        for step in (s for s in whole.steps if s.at < 0.1 * seen - 1e-9):
            cut = apply_step(cut, step, "whole")
        restored = TableState()
        for step in (s for s in resumed.steps if s.at == 0.0):
            restored = apply_step(restored, step, "resumed")
        assert (restored.points, restored.deposit, restored.wall, restored.kans) == (
            cut.points,
            cut.deposit,
            cut.wall,
            cut.kans,
        ), resume_at
        # and from there both end the same
        end_whole, end_resumed = TableState(), TableState()
        for step in whole.steps:
            end_whole = apply_step(end_whole, step, "whole")
        for step in resumed.steps:
            end_resumed = apply_step(end_resumed, step, "resumed")
        assert end_resumed.points == end_whole.points


def test_after_a_robbed_kan_the_next_hand_draws_from_its_first_tsumo():
    """The shipped game's fifth hand ends on a chankan: the kan's replacement draw never came,
    so the next hand's first draw is a draw from the wall, scripted as one."""
    from table_app.demo_data import DEMO_LOG
    from table_app.rules.events import Hora, Kakan, Tsumo

    game = read_log(DEMO_LOG)[0]
    events = game.events
    robbed = next(i for i, e in enumerate(events) if isinstance(e, Hora) and isinstance(events[i - 1], Kakan))
    script = parse_script(table_script_text(events, TENHOU, 1.0), "demo")
    draws = sum(isinstance(e, Tsumo) for e in events)
    kans = sum(step.action is Action.KAN for step in script.steps)
    replacement_draws = kans - 1  # every kan but the robbed one drew its replacement
    assert sum(step.args[0] for step in script.steps if step.action is Action.DRAW) == draws - replacement_draws
    assert robbed > 0
