"""The oracle: every four-player game in the shared logs replays with every result matching.

One pass over the whole corpus (about 10 s) feeds three tests: no mismatch anywhere, every
logged win re-scored to the logged points, and every format represented.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from table_app.logs import log_files, read_log
from table_app.rules.check import GameCheck, check_game
from table_app.rules.record import GameLog

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def corpus(logs_dir: Path) -> list[tuple[GameLog, GameCheck]]:
    checked = []
    for path in log_files([logs_dir]):
        for game in read_log(path):
            if game.players == 4 and game.rules.unsupported is None:
                checked.append((game, check_game(game)))
    return checked


def test_every_game_matches_its_log(corpus):
    mismatches = [f"{check.source}: {m.hand}: {m.what}" for _, check in corpus for m in check.mismatches]
    assert mismatches == []
    assert len(corpus) >= 440


def test_every_format_is_replayed(corpus):
    folders = Counter(Path(game.source).parent.name for game, _ in corpus)
    assert set(folders) >= {"mjx_full", "mjx_fixtures", "tenhou6_json", "dnovikoff_xml", "dnovikoff_net", "mjai"}


def test_every_logged_win_is_rescored_to_its_points(corpus):
    compared = 0
    for game, check in corpus:
        for record, result in zip(game.hands, check.final.results, strict=False):
            for logged in record.wins:
                ours = next(w for w in result.wins if w.winner == logged.winner)
                if logged.points is not None:
                    assert ours.points == logged.points, (game.source, result.label, ours.yaku)
                    compared += 1
                if logged.deltas is not None:
                    assert ours.deltas == logged.deltas, (game.source, result.label)
    assert compared > 3000


def test_three_player_games_are_recognised(logs_dir: Path):
    (game,) = read_log(logs_dir / "dnovikoff_xml" / "sanma2.xml")
    assert game.players == 3
