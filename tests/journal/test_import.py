"""``jantaku import``: real logs of every format into the journal, each game once."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from table_app.cli import main
from table_app.journal import GameStore
from table_app.journal.game_identity import game_key
from table_app.logs import read_log

GAME = "2010081709gm-00a9-0000-fe3371ad"


@pytest.fixture
def logs(logs_dir: Path) -> dict[str, Path]:
    return {
        "tenhou6": logs_dir / "tenhou6_json" / f"{GAME}.json",
        "mjlog": logs_dir / "mjx_full" / f"{GAME}.mjlog",
        "mjai": next((logs_dir / "mjai").iterdir()),
        "transcript": sorted((logs_dir / "dnovikoff_net").iterdir())[0],
        "sanma": logs_dir / "dnovikoff_xml" / "sanma2.xml",
    }


def _games(db: Path, capsys) -> list[dict]:
    capsys.readouterr()
    assert main(["games", "--db", str(db), "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_every_format_is_imported_and_the_same_game_is_kept_once(tmp_path, logs, capsys):
    db = tmp_path / "club.db"
    files = [str(logs[k]) for k in ("tenhou6", "mjlog", "mjai", "transcript", "sanma")]
    assert main(["import", *files, "--db", str(db)]) == 0
    out = capsys.readouterr().out.splitlines()
    # The mjlog is the tenhou.net/6 file's game: one game, not two. Three players: skipped.
    assert out[-1] == "3 imported, 1 already kept, 1 skipped, 0 failed"
    assert f"{logs['mjlog']}: already kept as game 1" in out
    games = _games(db, capsys)
    assert [g["game"] for g in games] == [1, 2, 3]
    first = games[0]
    assert first["finished"]
    assert first["hands"] == len(read_log(logs["tenhou6"])[0].hands)
    assert first["standings"][0]["name"] == "Dさん"

    # Importing again adds nothing.
    assert main(["import", *files, "--db", str(db)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "0 imported, 4 already kept, 1 skipped, 0 failed"
    assert len(_games(db, capsys)) == 3


def test_imported_games_export_and_replay_with_no_mismatch(tmp_path, logs, capsys):
    db = tmp_path / "club.db"
    assert main(["import", str(logs["tenhou6"]), str(logs["mjai"]), "--db", str(db)]) == 0
    for number in (1, 2):
        out = tmp_path / f"game{number}.jsonl"
        assert main(["export", str(number), "--format", "mjai", "--db", str(db), "-o", str(out)]) == 0
        assert main(["replay", "--check", str(out)]) == 0
        assert capsys.readouterr().out.strip().endswith(" 0 mismatches")


def test_an_east_only_game_keeps_its_rules(tmp_path, logs_dir, capsys):
    east = logs_dir / "dnovikoff_xml" / "bye.xml"  # a 2009 East-only game: its own uma
    (game,) = read_log(east)
    assert game.rules.east_only
    assert game.final is not None
    db = tmp_path / "club.db"
    assert main(["import", str(east), "--db", str(db)]) == 0
    store = GameStore(db)
    kept = store.game(1)
    store.close()
    assert kept.profile == "tenhou+east+early"
    assert kept.finished
    assert kept.scores == game.final.scores
    assert kept.points == game.final.points
    assert main(["export", "1", "--format", "mjai", "--db", str(db), "-o", str(tmp_path / "g.jsonl")]) == 0
    (back,) = read_log(tmp_path / "g.jsonl")
    assert game_key(back.events) == game_key(game.events)


def test_a_bad_file_fails_in_one_line_and_the_others_are_kept(tmp_path, logs, capsys):
    bad = tmp_path / "broken.mjlog"
    bad.write_text("<mjloggm><INIT seed=")
    db = tmp_path / "club.db"
    assert main(["import", str(bad), str(logs["tenhou6"]), "--db", str(db)]) == 1
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1
    assert str(bad) in captured.err
    assert "Traceback" not in captured.err
    assert captured.out.splitlines()[-1] == "1 imported, 0 already kept, 0 skipped, 1 failed"
    assert main(["import", str(tmp_path / "nothing-here"), "--db", str(db)]) == 1


def test_an_imported_game_cut_short_is_not_resumed_as_the_tables_game(tmp_path, logs_dir):
    cut = logs_dir / "mjx_fixtures" / "encdec-chankan-ippatsu.mjlog"
    (game,) = read_log(cut)
    db = tmp_path / "club.db"
    assert main(["import", str(cut), "--db", str(db)]) == 0
    store = GameStore(db)
    assert store.game(1).finished is game.complete
    assert store.latest_unfinished() is None
    store.close()
    rows = sqlite3.connect(db).execute("SELECT key, game, source FROM imports").fetchall()
    assert rows == [(game_key(game.events), 1, str(cut))]
