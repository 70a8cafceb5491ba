import json
import subprocess
import sys
from pathlib import Path

import pytest

from table_app.cli import main


def run_json(capsys, *args: str) -> dict:
    assert main(["hand", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_waits_tenpai_shanten(capsys):
    report = run_json(capsys, "111m22m333m888p66z")
    assert report["waits"] == ["2m", "6z"]
    assert report["tenpai"] is True
    assert report["shanten"] == 0
    assert set(report["readings"]) == {"2m", "6z"}


def test_json_noten_hand(capsys):
    report = run_json(capsys, "147m258p369s1234z")
    assert report["waits"] == []
    assert report["tenpai"] is False
    assert report["shanten"] > 0


def test_json_riichi_kan_verdict_and_reason(capsys):
    report = run_json(capsys, "111m22m333m888p66z", "--drawn", "1m", "--riichi-kan", "1m")
    assert report["kan_legal"] is False
    assert "123m 123m 123m" in report["reason"]
    lenient = run_json(capsys, "111m22m333m888p66z", "--riichi-kan", "1m", "--strictness", "waits")
    assert lenient["kan_legal"] is True
    assert lenient["kan_code"] == "unchanged"


def test_json_exhausted_wait_with_a_closed_kan_meld(capsys):
    report = run_json(capsys, "2224678m678p", "--melds", "ankan:3333m")
    assert report["waits"] == ["3m", "4m"]
    assert report["exhausted_waits"] == ["3m"]
    assert report["tenpai"] is True


def test_json_furiten(capsys):
    report = run_json(capsys, "123m456p789s1122z", "--discards", "2z9m")
    assert report["furiten"] is True
    assert report["furiten_on"] == ["2z"]


def test_fourteen_tiles_report_the_complete_readings(capsys):
    report = run_json(capsys, "111m22m333m888p66z", "--drawn", "2m")
    assert report["complete"] is True
    assert len(report["complete_readings"]) == 2


def test_text_output_names_waits_and_verdict(capsys):
    assert main(["hand", "5555m67m33p678p67s", "--drawn", "8m", "--riichi-kan", "5m"]) == 0
    out = capsys.readouterr().out
    assert "waits     5s, 8s" in out
    assert "ILLEGAL" in out
    assert "okuri-kan" in out


@pytest.mark.parametrize(
    ("args", "token"),
    [
        (["123m45x"], "'x'"),  # an unknown tile
        (["11111m22m"], "'1m'"),  # a fifth copy
        (["123m456p"], "this one has 6"),  # a wrong tile count
        (["123m456p789s1z", "--melds", "pon:778z"], "'pon:778z'"),  # a malformed meld
        (["123m456p789s1z", "--melds", "peng:777z"], "'peng'"),
        (["111m22m333m888p66z", "--riichi-kan", "9s"], "'9s'"),  # a kan the hand cannot make
        (["111m22m333m888p66z", "--drawn", "1x"], "'x'"),
    ],
)
def test_bad_input_exits_2_naming_the_token(capsys, args, token):
    assert main(["hand", *args]) == 2
    err = capsys.readouterr().err
    assert token in err
    assert "Traceback" not in err


def test_unknown_strictness_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["hand", "111m22m333m888p66z", "--riichi-kan", "1m", "--strictness", "loose"])
    assert caught.value.code == 2


def test_installed_console_script_runs():
    script = Path(sys.executable).with_name("jantaku")
    result = subprocess.run(
        [str(script), "hand", "1112345678999m", "--json"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert len(json.loads(result.stdout)["waits"]) == 9
    bad = subprocess.run([str(script), "hand", "1112345678999q"], capture_output=True, text=True, check=False)
    assert bad.returncode == 2
    assert "'q'" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_fourteen_tile_noten_hand_lists_discards_that_leave_tenpai(capsys):
    report = run_json(capsys, "123m456p789s11z22z9m")
    assert report["tenpai_discards"] == {"9m": ["1z", "2z"]}
    assert report["shanten"] == 0
