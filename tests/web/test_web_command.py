"""``jantaku web``: its input errors are one line and exit status 2 (serving itself is tested over HTTP)."""

from __future__ import annotations

from table_app.cli import main
from tests.web.conftest import GAME_FILE


def test_an_unreadable_log_is_an_input_error(tmp_path, capsys):
    missing = tmp_path / "nothing.mjlog"
    assert main(["web", "--replay", str(missing)]) == 2
    assert "jantaku web: error:" in capsys.readouterr().err


def test_a_game_number_the_file_does_not_have_is_refused(shared_dir, capsys):
    assert main(["web", "--replay", str(shared_dir / GAME_FILE), "--game", "3"]) == 2
    assert "has 1 four-player games; --game 3 is not one" in capsys.readouterr().err


def test_a_negative_step_is_refused(shared_dir, capsys):
    assert main(["web", "--replay", str(shared_dir / GAME_FILE), "--step-seconds", "-1"]) == 2
    assert "--step-seconds must be 0 or more" in capsys.readouterr().err
