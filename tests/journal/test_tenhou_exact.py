"""tenhou.net/6 export as Tenhou writes it: every tenhou.net/6 file of the shared logs,
imported and exported again, is Tenhou's own file but for the title and the rule's name."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from table_app.cli import main
from table_app.journal.tenhou_export import tenhou6_game
from table_app.journal.tenhou_names import TENHOU_YAKU
from table_app.logs import read_log
from table_app.rules.check import profile_for_log
from table_app.rules.profiles import JPML, TENHOU


def _objects(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _differences(ours: Any, theirs: Any, where: str) -> list[str]:
    """Every field where the two differ, by its path (``log[3][16][2][4]``)."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        return [
            d
            for key in sorted(ours.keys() | theirs.keys())
            for d in _differences(ours.get(key), theirs.get(key), f"{where}.{key}")
        ]
    if isinstance(ours, list) and isinstance(theirs, list) and len(ours) == len(theirs):
        return [
            d for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) for d in _differences(a, b, f"{where}[{i}]")
        ]
    if ours == theirs and type(ours) is type(theirs):
        return []
    return [f"{where}: ours {json.dumps(ours, ensure_ascii=False)}, Tenhou's {json.dumps(theirs, ensure_ascii=False)}"]


def test_every_tenhou6_file_round_trips_through_the_journal_identical(logs_dir, tmp_path, capsys):
    files = sorted((logs_dir / "tenhou6_json").glob("*.json"))
    assert len(files) == 20
    db = tmp_path / "club.db"
    assert main(["import", *map(str, files), "--db", str(db)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "20 imported, 0 already kept, 0 skipped, 0 failed"
    differences = []
    for number, path in enumerate(files, start=1):
        out = tmp_path / f"game{number}.json"
        assert main(["export", str(number), "--format", "tenhou", "--db", str(db), "-o", str(out)]) == 0
        ours = json.loads(out.read_text(encoding="utf-8"))
        theirs = _objects(path)
        # Tenhou's file holds one object per hand; each carries the game's title, names and rule.
        expected = {**theirs[0], "log": [hand for obj in theirs for hand in obj["log"]]}
        for left_out in (ours, expected):
            del left_out["title"]
            del left_out["rule"]["disp"]
        differences += [f"{path.name}: {d}" for d in _differences(ours, expected, "")]
        assert ours["rule"] == {"aka": 1}
    assert differences == [], "\n".join(differences)


def test_yaku_lists_match_tenhous_own_on_every_mjlog_win(logs_dir):
    """The writer's yaku, han and order against the mjlog ``yaku``/``yakuman`` attributes."""
    names = dict(TENHOU_YAKU.values())
    checked = 0
    for path in sorted((logs_dir / "mjx_full").glob("*.mjlog")):
        wanted = []
        for tag in re.findall(r"<AGARI [^>]*>", path.read_text()):
            yaku = re.search(r' yaku="([0-9,]*)"', tag)
            if yaku:
                values = [int(v) for v in yaku.group(1).split(",")]
                wanted.append([f"{names[y]}({h}飜)" for y, h in zip(values[::2], values[1::2], strict=True) if h])
            else:
                yakuman = re.search(r' yakuman="([0-9,]*)"', tag)
                assert yakuman is not None
                wanted.append([f"{names[int(y)]}(役満)" for y in yakuman.group(1).split(",")])
        (game,) = read_log(path)
        written = tenhou6_game(game.events, profile_for_log(TENHOU, game.rules))
        got = [info[4:] for row in written["log"] if row[16][0] == "和了" for info in row[16][2::2]]
        assert got == wanted, path.name
        checked += len(got)
    assert checked > 150


def _game(logs_dir: Path, name: str):
    (game,) = read_log(logs_dir / "tenhou6_json" / name)
    return game


@pytest.mark.parametrize("result", ["九種九牌", "四風連打", "四家立直", "全員不聴"])
def test_draws_that_pay_nothing_carry_no_payments(logs_dir, result):
    for path in sorted((logs_dir / "tenhou6_json").glob("*.json")):
        hands = [hand for obj in _objects(path) for hand in obj["log"]]
        if any(hand[16][0] == result for hand in hands):
            (game,) = read_log(path)
            written = tenhou6_game(game.events, profile_for_log(TENHOU, game.rules))
            assert [row[16] for row in written["log"] if row[16][0] == result] == [[result]]
            return
    pytest.fail(f"no {result} in the shared logs")


def test_rule_disp_comes_from_the_profile(logs_dir):
    game = _game(logs_dir, "2010081709gm-00a9-0000-fe3371ad.json")
    assert tenhou6_game(game.events, TENHOU)["rule"] == {"disp": "天鳳南喰赤", "aka": 1}
    assert tenhou6_game(game.events, JPML)["rule"] == {"disp": "日本プロ麻雀連盟", "aka": 0}
