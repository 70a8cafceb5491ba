"""``jantaku replay --verdicts [--json]`` lists every judged act with its seat, the act, the
consequence and the reason, with or without ``--check``; a refused act is not folded."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from table_app.cli import main
from table_app.rules.events import EndKyoku
from tests.rules.game.scenario import chi, discard, draw, go_around, start
from tests.scenario_logs import write_mjai

SWAP = [
    *start({1: "33456m234p678s99p"}, dora="1z"),
    *go_around(0, ["3m"]),
    chi(1, 0, "3m", "45m"),
    discard(1, "3m"),  # kuikae: refused under the tenhou profile
    discard(1, "9p"),
    draw(2),
    discard(2, "1z"),
    EndKyoku(),
]


@pytest.fixture
def swap_log(tmp_path: Path) -> Path:
    return write_mjai(tmp_path / "swap.jsonl", SWAP)


@pytest.mark.parametrize("check", [False, True])
def test_every_judged_act_is_listed_with_its_ruling(swap_log: Path, capsys, check):
    status = main(["replay", str(swap_log), "--verdicts", *(["--check"] if check else [])])
    out = capsys.readouterr().out.splitlines()
    acts = [line for line in out if re.search(r": event \d+: ", line)]
    # Seats as people name them in that hand (seat 0 deals E1: East); the JSON keeps 0-3.
    assert [line.split(": ", 3)[3] for line in acts] == [
        "East dahai 3m: accepted",
        "South chi 3m: accepted",
        "South dahai 3m: chombo (kuikae): discarding 3m right after calling it (kuikae)",
        "South dahai 9p: accepted",
        "West dahai E: accepted",  # mjai names honours by letter
    ]
    assert all(line.startswith(f"{swap_log}: E1-0: event ") for line in acts)
    assert status == (1 if check else 0)  # a refused act in a log is a mismatch under --check
    if check:
        assert f"{swap_log}: E1-0: event 6 judged chombo (kuikae): discarding 3m right after calling it (kuikae)" in out


def test_verdicts_as_json(swap_log: Path, capsys):
    assert main(["replay", str(swap_log), "--verdicts", "--json", "--profile", "jun"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    acts = [r for r in records if "consequence" in r]
    assert len(acts) == 5
    swap = acts[2]
    assert (swap["seat"], swap["act"]["type"], swap["act"]["pai"], swap["consequence"], swap["reason"]) == (
        1,
        "dahai",
        "3m",
        "accepted",  # 純麻雀 has no kuikae rule (001 第13条)
        None,
    )
    assert main(["replay", str(swap_log), "--verdicts", "--json"]) == 0
    refused = [json.loads(line) for line in capsys.readouterr().out.splitlines()][2]
    assert (refused["consequence"], refused["reason"], refused["event"]) == ("chombo", "kuikae", len(SWAP) - 4)


def test_announce_prints_every_hands_ending_and_payments(logs_dir: Path, capsys):
    path = logs_dir / "mjx_fixtures" / "upd-aft-ron3.mjlog"
    assert main(["replay", str(path), "--announce", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    endings = [r for r in records if "kind" in r]
    assert endings[-1] == {
        "file": str(path),
        "hand": "S1-1",
        "kind": "abortive_draw",
        "seat": None,
        "params": {"draw": "triple_ron"},
    }
    wins = [r for r in endings if r["kind"] == "win"]
    assert wins
    assert all({"target", "han", "fu", "points", "yaku", "deltas"} <= set(r["params"]) for r in wins)
    assert main(["replay", str(path), "--announce"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-4:-2] == ["[ja] 途中流局：三家和", "[en] Abortive draw: triple ron"]  # then the game's line
    # Seats by the hand's wind and the player's name, as the live referee says them at end_kyoku.
    win_lines = [line for line in lines if line.startswith("[en] ") and " wins by " in line]
    assert win_lines
    assert all(re.match(r"\[en\] (East|South|West|North) \(.+\) wins by ", line) for line in win_lines)
