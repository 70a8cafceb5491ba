"""The demo's pieces: its config runs a whole game with the board over a pty; the check
against the log finds what differs."""

from __future__ import annotations

import io
from dataclasses import replace

from table_app.logs import read_log
from table_app.rules.check import profile_for_log
from table_app.rules.fold import replay
from table_app.rules.profiles import TENHOU
from table_app.runtime.demo_support import check_against_log, demo_config


def test_the_check_agrees_with_a_faithful_game_and_names_a_wrong_hand(logs_dir):
    game = read_log(sorted((logs_dir / "tenhou6_json").iterdir())[0])[0]
    state = replay(game.events, profile_for_log(TENHOU, game.rules))
    check = check_against_log(state, game)
    assert check.summary == f"1 games, {len(game.hands)} hands, 0 mismatches"
    wrong = replace(state.results[2], deltas=tuple(-d for d in state.results[2].deltas))
    broken = replace(state, results=(*state.results[:2], wrong, *state.results[3:]))
    check = check_against_log(broken, game)
    assert check.summary.endswith("1 mismatches")
    assert check.mismatches[0].hand == state.results[2].label


def test_the_demo_config_plays_the_board_and_feeds_the_camera(tmp_path, logs_dir):
    from table_app.runtime.adapters import FeedSource, SimulatedBoardSource
    from table_app.runtime.app import build_runtime

    log = sorted((logs_dir / "tenhou6_json").iterdir())[0]
    config = demo_config(log, tmp_path / "demo.db", pace_s=0.1)
    runtime = build_runtime(config, out=io.StringIO())
    kinds = [type(s) for s in runtime.sources]
    assert kinds == [SimulatedBoardSource, FeedSource]
    runtime.store.close()


def test_a_demo_game_played_to_the_end_checks_against_its_log(tmp_path, logs_dir):
    """The log feed as the camera, with the board's readings from the feed (fast, no pty)."""
    from table_app.runtime.app import build_runtime
    from table_app.runtime.demo_support import play_to_the_end

    log = logs_dir / "tenhou6_json" / "2020081220gm-00a9-0000-9ee6ab3b.json"
    config = demo_config(log, tmp_path / "demo.db", pace_s=0.0)
    config = replace(config, feed=replace(config.feed, simulate_board=False, trays=True))
    final = play_to_the_end(build_runtime(config, out=io.StringIO()), timeout_s=60)
    assert final.finished
    check = check_against_log(final, read_log(log)[0])
    assert check.summary == "1 games, 5 hands, 0 mismatches"
