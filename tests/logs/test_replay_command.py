"""``jantaku replay``: summary line, one line per mismatch, exit status, bad files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from table_app.cli import main

GAME = "2010081709gm-00a9-0000-fe3371ad.mjlog"


def test_check_passes_on_a_folder(logs_dir: Path, capsys):
    assert main(["replay", str(logs_dir / "mjx_full"), "--check"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1].startswith("23 games, ")
    assert out[-1].endswith(" hands, 0 mismatches")


def test_three_player_games_are_counted_as_skipped(logs_dir: Path, capsys):
    assert main(["replay", str(logs_dir / "dnovikoff_xml" / "sanma2.xml"), "--check"]) == 0
    out = capsys.readouterr().out
    assert "skipped: three-player game" in out
    assert out.strip().splitlines()[-1] == "0 games, 0 hands, 0 mismatches, 1 skipped"


def test_a_mismatch_is_reported_and_fails(logs_dir: Path, tmp_path: Path, capsys):
    text = (logs_dir / "mjx_full" / GAME).read_text()
    # The log now claims a different payment for the first win: the rules must disagree.
    doctored = tmp_path / "doctored.mjlog"
    doctored.write_text(text.replace('sc="250,0,250,87,240,-77,250,0"', 'sc="250,0,250,97,240,-87,250,0"', 1))
    assert text != doctored.read_text()
    assert main(["replay", str(doctored), "--check"]) == 1
    lines = capsys.readouterr().out.strip().splitlines()
    assert any(line.startswith(f"{doctored}: E1-0: deltas 0,+8700,-7700,0, log says 0,+9700,-8700,0") for line in lines)
    assert lines[-1].endswith("1 mismatches")


def test_unreadable_file_fails_but_others_replay(logs_dir: Path, tmp_path: Path, capsys):
    folder = tmp_path / "logs"
    folder.mkdir()
    shutil.copy(logs_dir / "mjx_full" / GAME, folder / "good.mjlog")
    (folder / "bad.mjlog").write_text("<mjloggm><INIT seed=", encoding="utf-8")
    assert main(["replay", str(folder), "--check"]) == 1
    captured = capsys.readouterr()
    assert f"{folder / 'bad.mjlog'}: line 1, column" in captured.err
    assert captured.out.strip().splitlines()[-1].startswith("1 games, 15 hands, 0 mismatches")


def test_json_output(logs_dir: Path, capsys):
    assert main(["replay", str(logs_dir / "mjx_full" / GAME), "--check", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    game, summary = lines
    assert (game["hands"], game["mismatches"], game["finished"]) == (15, [], True)
    assert game["scores"] == [20100, 35800, 5200, 38900]
    assert summary == {"games": 1, "hands": 15, "mismatches": 0, "skipped": 0, "unreadable": 0, "incomplete": 0}


def test_replay_without_check_prints_final_scores(logs_dir: Path, capsys):
    assert main(["replay", str(logs_dir / "mjx_full" / GAME)]) == 0
    assert "scores 20100 35800 5200 38900  points -20.0 +16.0 -45.0 +49.0" in capsys.readouterr().out


def test_other_profile_is_accepted(logs_dir: Path, capsys):
    assert main(["replay", str(logs_dir / "mjx_full" / GAME), "--profile", "jpml"]) == 0
    capsys.readouterr()


def test_a_transcript_without_a_whole_hand_is_noted(logs_dir: Path, capsys):
    path = logs_dir / "dnovikoff_net" / "444b3_2018-02-07_19_22_01.log"  # reconnects into the last hand
    assert main(["replay", str(path), "--check"]) == 0
    out = capsys.readouterr().out
    assert "no hand to replay" in out
    assert out.strip().splitlines()[-1] == "0 games, 0 hands, 0 mismatches"


def test_hands_whose_endings_were_lost_are_incomplete_and_fail(logs_dir: Path, tmp_path: Path, capsys):
    source = sorted((logs_dir / "mjai").iterdir())[0]
    endings = ('"type":"hora"', '"type":"ryukyoku"', '"type":"end_kyoku"')
    lines = source.read_text(encoding="utf-8").splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(line for line in lines if not any(e in line for e in endings)) + "\n", encoding="utf-8")
    hands = sum('"type":"start_kyoku"' in line for line in lines)
    assert main(["replay", str(cut), "--check"]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == f"1 games, 0 hands, 0 mismatches, {hands} hands incomplete"
    assert out[0] == f"{cut}: E1-0: incomplete: the log never ends this hand (its win or draw is missing)"
    assert main(["replay", str(cut), "--check", "--json"]) == 1
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(records[0]["incomplete"]) == hands
    assert records[-1]["incomplete"] == hands


def test_a_log_missing_only_its_last_ending_is_incomplete(logs_dir: Path, tmp_path: Path, capsys):
    source = sorted((logs_dir / "mjai").iterdir())[0]
    endings = ('"type":"hora"', '"type":"ryukyoku"', '"type":"end_kyoku"')
    lines = source.read_text(encoding="utf-8").splitlines()
    last = max(i for i, line in enumerate(lines) if '"type":"start_kyoku"' in line)
    kept = [line for i, line in enumerate(lines) if i < last or not any(e in line for e in endings)]
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(kept) + "\n", encoding="utf-8")
    assert main(["replay", str(cut), "--check"]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1].endswith(", 1 hands incomplete")
    assert [line for line in out if "incomplete:" in line] == [
        next(line for line in out if line.startswith(f"{cut}: ") and "incomplete:" in line)
    ]


def test_a_mismatched_win_names_the_winner_as_people_see_seats(logs_dir: Path, tmp_path: Path, capsys):
    # The log claims 8 000 for the first win (seat index 1: South in East 1): the line names the
    # winner by this hand's wind, never by the machine's 0-3 index.
    text = (logs_dir / "mjx_full" / GAME).read_text()
    doctored = tmp_path / "doctored.mjlog"
    doctored.write_text(text.replace('ten="30,7700,0"', 'ten="30,8000,0"', 1))
    assert main(["replay", str(doctored), "--check"]) == 1
    lines = [line for line in capsys.readouterr().out.splitlines() if " worth " in line]
    assert len(lines) == 1
    assert f"{doctored}: E1-0: win by South" in lines[0]
    assert "worth 7700" in lines[0]
    assert "log says 8000" in lines[0]
    assert "seat 1" not in lines[0]
