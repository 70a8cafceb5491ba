"""``jantaku table-sim`` and ``jantaku link``: thin commands over the link and the simulator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_bridge.calibration import default_calibration
from firmware_bridge.calibration_file import save_calibration
from firmware_bridge.sim_transport import PtyTableServer
from firmware_bridge.simulator import TableSimulator
from table_app.cli import main


def test_link_prints_one_json_object_per_line_with_points_deposit_and_wall(capsys: pytest.CaptureFixture[str]) -> None:
    with PtyTableServer(TableSimulator()) as server:
        assert main(["link", "--port", str(server.path), "--json", "--duration", "0.8"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    statuses = [r["state"] for r in records if r["type"] == "status"]
    assert statuses[:2] == ["connecting", "connected"]
    reading = next(r for r in records if r["type"] == "reading")
    assert reading["points"] == [25000, 25000, 25000, 25000]
    assert reading["deposit"] == 0
    assert reading["wall"] == 70
    assert reading["plausible"] is True
    assert [len(tray) for tray in reading["raw"]] == [5, 5, 5, 5]
    assert reading["deposit_raw"] > 26_000  # an empty deposit reads the divider top


def test_table_sim_prints_the_path_it_serves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "table"
    assert main(["table-sim", "--pty", "--path", str(path), "--duration", "0.2"]) == 0
    assert capsys.readouterr().out.splitlines() == [str(path)]
    assert not path.exists()  # unplugged on exit


def test_table_sim_rejects_an_unknown_fault(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table-sim", "--faults", "noise,nosie", "--duration", "0"]) == 2
    assert "unknown fault 'nosie'" in capsys.readouterr().err


def test_table_sim_names_the_bad_line_of_a_script(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "hand.txt"
    # seat 0 pays everything it has (and owes the rest): it has no stick left for a riichi
    script.write_text("0 hand\n1 pay 0 1 99000\n2 riichi 0\n", encoding="utf-8")
    assert main(["table-sim", "--script", str(script), "--duration", "0"]) == 2
    assert f"{script}:3: seat 0 has 0 points, no riichi stick" in capsys.readouterr().err


def test_link_checks_totals_against_the_game_total_given(capsys: pytest.CaptureFixture[str]) -> None:
    with PtyTableServer(TableSimulator()) as server:
        assert main(["link", "--port", str(server.path), "--json", "--duration", "0.6", "--game-total", "120000"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    reading = next(r for r in records if r["type"] == "reading")
    assert [flag["kind"] for flag in reading["flags"]] == ["total_mismatch"]
    assert "120000" in reading["flags"][0]["detail"]


def test_link_rejects_an_impossible_game_total(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["link", "--port", "loop://", "--game-total", "12345"]) == 2
    assert "--game-total 12345" in capsys.readouterr().err


def test_link_stores_a_calibration_file_on_the_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "calibration.json"
    save_calibration(default_calibration(calibration_id=4242), path)
    simulator = TableSimulator()
    with PtyTableServer(simulator) as server:
        argv = ["link", "--port", str(server.path), "--json", "--calibration", str(path), "--send-calibration"]
        assert main([*argv, "--duration", "0.8"]) == 0
    answers = [r for r in map(json.loads, capsys.readouterr().out.splitlines()) if r["type"] == "answer"]
    assert len(answers) == 4 * 5 + 2
    assert all(answer["accepted"] for answer in answers)
    assert simulator.calibration_id == 4242


def test_link_send_calibration_needs_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["link", "--port", "loop://", "--send-calibration"]) == 2
    assert "needs --calibration" in capsys.readouterr().err
