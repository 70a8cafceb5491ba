"""``jantaku demo`` end to end: the shipped game through the simulated board over a pty, the
referee and the journal; with the web server, real HTTP against the running process."""

from __future__ import annotations

import json
import selectors
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from table_app.cli import main
from table_app.demo_data import DEMO_LOG
from table_app.logs.reader import read_log

JANTAKU = str(Path(sys.executable).with_name("jantaku"))


def test_fast_headless_check_matches_the_log():
    result = subprocess.run(
        [JANTAKU, "demo", "--camera", "log", "--fast", "--headless", "--check"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    log = read_log(DEMO_LOG)[0]
    assert log.final is not None
    assert f"final scores {' '.join(str(s) for s in log.final.scores)}" in result.stdout
    assert result.stdout.strip().endswith(f"1 games, {len(log.hands)} hands, 0 mismatches")
    # At this pace the simulated board runs a few acts ahead of the feed: readings the game has not
    # caught up with yet, never a disagreement that settles.
    english = [line for line in result.stdout.splitlines() if line.startswith("[en] ")]
    false = [line for line in english if "wall count" in line or "deposit holds" in line or "tray is off" in line]
    assert false == []


def test_a_broken_log_exits_2_naming_the_file(tmp_path):
    broken = tmp_path / "broken.mjlog"
    broken.write_text('<mjloggm ver="2.3"><GO type="169" lobby="0"/><INIT seed="0,0,0,', encoding="utf-8")
    result = subprocess.run(
        [JANTAKU, "demo", "--headless", "--log", str(broken)], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 2
    assert "broken.mjlog" in result.stderr
    assert "Traceback" not in result.stderr


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_line(process: subprocess.Popen[str], needle: str, timeout: float) -> str:
    assert process.stderr is not None
    selector = selectors.DefaultSelector()
    selector.register(process.stderr, selectors.EVENT_READ)
    seen = []
    while selector.select(timeout):
        line = process.stderr.readline()
        if not line:
            break
        seen.append(line)
        if needle in line:
            return line
    pytest.fail(f"no {needle!r} from jantaku demo; it said: {''.join(seen)}")


def test_serves_the_display_and_refuses_the_console_without_token():
    port = free_port()
    process = subprocess.Popen(
        [JANTAKU, "demo", "--camera", "log", "--fast", "--port", str(port), "--token", "s3cret"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_line(process, f"http://127.0.0.1:{port}/", timeout=60)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=10) as response:
            state = json.loads(response.read())
        assert len(state["seats"]) == 4
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/console/confirm", data=b"{}", method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 401
    finally:
        process.terminate()
        assert process.wait(timeout=30) == 0


BUST_GAME = "2010110100gm-00a9-0000-de3472e8.mjlog"  # seat 4 owes 12000 with 4900 in its tray


def demo_check(log: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [JANTAKU, "demo", "--camera", "log", "--fast", "--headless", "--check", "--log", str(log)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_a_bust_is_played_through_the_board_and_checks_against_the_log(shared_dir):
    log_path = shared_dir / "data" / "logs" / "mjx_full" / BUST_GAME
    log = read_log(log_path)[0]
    assert log.final is not None
    assert min(log.final.scores) < 0  # the game this test is about
    result = demo_check(log_path)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert f"final scores {' '.join(str(s) for s in log.final.scores)}" in result.stdout
    assert result.stdout.strip().endswith(f"1 games, {len(log.hands)} hands, 0 mismatches")
    # the bust's hand ends with the trays agreeing: the debtor's tray empty, the debt on an IOU
    last_hand = result.stdout[result.stdout.rindex("-12000") :]
    assert "Payments complete" in last_hand
    assert "tray is off" not in result.stdout[result.stdout.rindex("Payments complete") :]


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        (lambda *_: "0 fly 1\n", f"{DEMO_LOG} (board script):1: unknown action 'fly'"),
        (lambda *_: {}["broken"], f"{DEMO_LOG} (board script): cannot be made (KeyError: 'broken')"),
    ],
)
def test_a_board_script_that_cannot_be_made_is_one_line_and_exit_2(monkeypatch, capsys, script, expected):
    monkeypatch.setattr("table_app.runtime.app.table_script_text", script)
    assert main(["demo", "--camera", "log", "--fast", "--headless", "--log", str(DEMO_LOG)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err  # one line: no traceback, nothing started
    assert err.startswith("jantaku demo: error: ")
    assert expected in err


def test_check_exits_1_and_names_a_mismatch_with_the_log(tmp_path):
    # The shipped game with its recorded final scores altered: the referee's own result no
    # longer matches the log's record, and --check must say so.
    text = DEMO_LOG.read_text(encoding="utf-8")
    assert 'owari="201,-20.0,358,16.0,' in text
    altered = tmp_path / "altered.mjlog"
    altered.write_text(text.replace('owari="201,-20.0,358,16.0,', 'owari="211,-19.0,348,15.0,'), encoding="utf-8")
    result = subprocess.run(
        [JANTAKU, "demo", "--camera", "log", "--fast", "--headless", "--check", "--log", str(altered)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 1, result.stderr[-2000:]
    assert f"{altered}: game: final scores" in result.stdout
    assert result.stdout.strip().endswith("1 mismatches")


def test_the_rendered_camera_plays_a_short_game_through_the_cli(monkeypatch, capsys, tmp_path):
    """The default camera: the game rendered, calibrated from its markers, read (stand-in
    reader and tracker until the real ones merge), refereed and checked."""
    from tests.runtime.test_demo_world import short_log
    from tests.runtime.world_standins import standin_pipeline

    # demo_command imports it from demo_world when it runs (fast start), so it is replaced there.
    monkeypatch.setattr("table_app.runtime.demo_world.classifier_pipeline", standin_pipeline)
    log = short_log(tmp_path, 1)
    assert main(["demo", "--fast", "--headless", "--check", "--log", str(log)]) == 0
    out, err = capsys.readouterr()
    assert "camera: the game rendered on a table" in err
    assert out.strip().endswith("1 games, 1 hands, 0 mismatches")


def test_the_rendered_camera_referees_a_short_game_through_the_real_vision_pipeline(capsys, tmp_path):
    """No stand-ins: the rendered frames calibrated from their markers, read by the table reader
    (the shipped classifier), tracked and refereed; the referee's result is the log's."""
    from tests.runtime.test_demo_world import short_log

    log = short_log(tmp_path, 1)
    assert main(["demo", "--fast", "--headless", "--check", "--log", str(log)]) == 0
    out, _ = capsys.readouterr()
    assert out.strip().endswith("1 games, 1 hands, 0 mismatches")


def test_without_the_vision_pipeline_the_rendered_camera_is_one_line_and_exit_2(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "vision.live.pipeline", None)  # as in a build without it
    assert main(["demo", "--fast", "--headless"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "--camera log" in err
