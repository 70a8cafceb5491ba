"""``jantaku standings``: a session's totals and its CSV, from a real journal."""

from __future__ import annotations

import csv
import time

import pytest

from table_app.cli import main


@pytest.fixture
def club(logs_dir, tmp_path, capsys):
    files = sorted((logs_dir / "tenhou6_json").glob("*.json"))[:3]
    db = tmp_path / "club.db"
    assert main(["import", *map(str, files), "--db", str(db)]) == 0
    capsys.readouterr()
    return db


def test_the_csv_has_a_row_per_player_per_game_and_the_totals_add_up(club, tmp_path, capsys):
    out = tmp_path / "session.csv"
    assert main(["standings", "--db", str(club), "--games", "1-3", "--csv", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "standings over 3 games (each game's profile)"
    assert out.read_bytes().startswith(b"\xef\xbb\xbf")  # spreadsheets then read it as UTF-8
    rows = list(csv.DictReader(out.read_text(encoding="utf-8-sig").splitlines()))
    assert len(rows) == 12
    assert ",".join(rows[0]) == "game,started,profile,preset,seat,name,rank,score,base,uma,chombos,penalty,points"
    for game in ("1", "2", "3"):
        mine = [r for r in rows if r["game"] == game]
        assert sorted(r["rank"] for r in mine) == ["1", "2", "3", "4"]
        assert sum(float(r["points"]) for r in mine) == pytest.approx(0.0)  # Tenhou's tally sums to zero
    # The first game is Tenhou's 2010081709: Dさん first on +49.0 (its own tally).
    top = next(r for r in rows if r["game"] == "1" and r["rank"] == "1")
    assert (top["name"], top["score"], top["points"]) == ("Dさん", "38900", "49.0")
    totals = {line.split()[1]: float(line.split()[2]) for line in printed[1:]}
    for name, total in totals.items():
        assert total == pytest.approx(sum(float(r["points"]) for r in rows if r["name"] == name))


def test_a_preset_changes_uma_and_oka(club, capsys):
    assert main(["standings", "--db", str(club), "--games", "1", "--preset", "wrc", "--csv", "-"]) == 0
    out = capsys.readouterr().out.splitlines()
    at = out.index("standings over 1 games (wrc)")
    assert out[at + 1] == "note: games 1 did not start at 30000 each: their points do not sum to 0"
    rows = list(csv.DictReader(out[:at]))
    assert {r["preset"] for r in rows} == {"wrc"}
    top = next(r for r in rows if r["rank"] == "1")
    assert top["points"] == "23.9"  # (38900 - 30000) / 1000 + 15, no oka


def test_games_are_chosen_by_day(club, capsys):
    today = time.strftime("%Y-%m-%d")
    assert main(["standings", "--db", str(club), "--day", today]) == 0
    assert capsys.readouterr().out.startswith("standings over 3 games")
    assert main(["standings", "--db", str(club), "--day", "2001-01-01"]) == 0
    assert capsys.readouterr().out.startswith("standings over 0 games")


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--games", "2-x"], "--games: '2-x' is not a game number or a range such as 8-12"),
        (["--games", "9"], "--games: no game 9 in"),
        (["--day", "21.11.2026"], "--day: '21.11.2026' is not a date as YYYY-MM-DD"),
    ],
)
def test_a_bad_choice_is_one_line_and_exit_2(club, capsys, option, message):
    assert main(["standings", "--db", str(club), *option]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1
