"""The journal file is guarded: one writer process at a time (the second is told who holds it),
readers cannot write, and a file that is not a journal this version keeps (another SQLite
database, a newer journal, a damaged one) is refused in one line and left byte for byte."""

from __future__ import annotations

import hashlib
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from table_app.cli import main
from table_app.demo_data import DEMO_LOG
from table_app.journal import GameStore, JournalError, JournalLockedError
from table_app.logs import read_log
from table_app.rules.events import EndKyoku, StartGame
from table_app.rules.profiles import TENHOU

HOLD = """
import sys
from table_app.journal import GameStore
store = GameStore(sys.argv[1])
print("holding", flush=True)
sys.stdin.read()
"""


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _first_hand() -> list:
    """The shipped demo game up to the end of its first hand (an mjai export needs one)."""
    events = read_log(DEMO_LOG)[0].events
    end = next(i for i, e in enumerate(events) if isinstance(e, EndKyoku))
    return [StartGame(("a", "b", "c", "d")), *events[1 : end + 1]]


def _journal_with_a_game(path: Path) -> None:
    store = GameStore(path)
    game = store.new_game(TENHOU.name, ("a", "b", "c", "d"), (25000,) * 4, at=0.0)
    store.append_all(game, _first_hand(), at=1.0)
    store.close()


@pytest.fixture
def holder(tmp_path):
    """Another process with the journal open to write."""
    db = tmp_path / "table.db"
    process = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "holding"
    yield db, process
    if process.poll() is None:
        process.kill()
    process.wait(timeout=10)


def test_a_second_writer_process_is_refused_naming_the_holder(holder):
    db, process = holder
    with pytest.raises(JournalLockedError) as refused:
        GameStore(db)
    message = str(refused.value)
    assert f"pid {process.pid} on {socket.gethostname()} since 20" in message
    assert "in use by another writer" in message
    assert "\n" not in message


def test_the_lock_goes_with_a_killed_writer(holder):
    db, process = holder
    process.kill()
    process.wait(timeout=10)
    store = GameStore(db)  # the kernel dropped the lock with the process
    assert f"pid {os.getpid()} " in (db.parent / "table.db.lock").read_text(encoding="utf-8")
    store.close()


def test_one_process_may_open_its_own_journal_twice(tmp_path):
    first = GameStore(tmp_path / "table.db")
    second = GameStore(tmp_path / "table.db")
    first.close()
    third = GameStore(tmp_path / "table.db")  # still held by `second`: shared, not refused
    second.close()
    third.close()


def test_jantaku_run_beside_a_writer_fails_in_one_line(holder, tmp_path, logs_dir, capsys):
    db, process = holder
    log = sorted((logs_dir / "tenhou6_json").iterdir())[0]
    config = tmp_path / "table.toml"
    config.write_text(f'[table]\ndb = "{db}"\n[feed]\nlog = "{log}"\npace_s = 0\n', encoding="utf-8")
    assert main(["run", "--config", str(config), "--until-end"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"in use by another writer (pid {process.pid} on" in err


def _read_with_games_and_export(db: Path, capsys) -> None:
    assert main(["games", "--db", str(db)]) == 0
    assert "game 1" in capsys.readouterr().out
    assert main(["export", "1", "--format", "mjai", "--db", str(db)]) == 0
    assert '"start_game"' in capsys.readouterr().out


def test_games_and_export_change_nothing(tmp_path, capsys):
    db = tmp_path / "table.db"
    _journal_with_a_game(db)
    before = _digest(db)
    _read_with_games_and_export(db, capsys)
    assert _digest(db) == before
    assert not (tmp_path / "table.db.lock").exists() or "pid" in (tmp_path / "table.db.lock").read_text()


def test_games_and_export_read_beside_a_running_writer(holder, capsys):
    db, _process = holder  # the holder made an empty journal and keeps it open to write
    with pytest.raises(JournalLockedError):
        _journal_with_a_game(db)
    assert main(["games", "--db", str(db)]) == 0
    assert "no games" in capsys.readouterr().out


def test_a_read_only_store_cannot_write(tmp_path):
    db = tmp_path / "table.db"
    _journal_with_a_game(db)
    before = _digest(db)
    reader = GameStore(db, read_only=True)
    assert reader.game(1).names == ("a", "b", "c", "d")
    with pytest.raises(sqlite3.OperationalError):
        reader.new_game(TENHOU.name, ("",) * 4, (25000,) * 4, at=2.0)
    reader.close()
    assert _digest(db) == before


def test_a_reader_of_a_missing_journal_makes_nothing(tmp_path):
    with pytest.raises(JournalError, match="no journal there"):
        GameStore(tmp_path / "none.db", read_only=True)
    assert list(tmp_path.iterdir()) == []


def _other_database(path: Path) -> None:
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT)")  # a board-game shelf
    connection.execute("INSERT INTO games (title) VALUES ('Go')")
    connection.commit()
    connection.close()


def _newer_journal(path: Path) -> None:
    _journal_with_a_game(path)
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA user_version=4")
    connection.close()


def _damaged_journal(path: Path) -> None:
    store = GameStore(path)
    game = store.new_game(TENHOU.name, ("a", "b", "c", "d"), (25000,) * 4, at=0.0)
    store.append_all(game, [StartGame((f"player {i}" * 40,) * 4) for i in range(300)], at=1.0)
    store.close()
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 4 * page
    data[2 * page : 2 * page + 64] = b"\xa5" * 64  # a b-tree page's header clobbered
    path.write_bytes(bytes(data))


CASES = {
    "another database": (_other_database, "a SQLite database but not a jantaku journal (games lacks"),
    "a newer journal": (_newer_journal, "a journal of a newer jantaku (version 4; this one keeps up to 3)"),
    "a damaged journal": (_damaged_journal, "damaged ("),
    "not SQLite": (lambda p: p.write_bytes(b"PK\x03\x04 a zip, say" * 100), "not a SQLite file"),
}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("opened_by", ["run", "games", "export", "store"])
def test_a_file_that_is_not_a_journal_to_keep_is_refused_and_left_alone(tmp_path, logs_dir, capsys, case, opened_by):
    make, reason = CASES[case]
    db = tmp_path / "table.db"
    make(db)
    for leftover in ("table.db-wal", "table.db-shm", "table.db.lock"):
        (tmp_path / leftover).unlink(missing_ok=True)
    before = _digest(db)
    if opened_by == "store":
        with pytest.raises(JournalError, match=r"refused|damaged"):
            GameStore(db)
    else:
        log = sorted((logs_dir / "tenhou6_json").iterdir())[0]
        config = tmp_path / "table.toml"
        config.write_text(f'[table]\ndb = "{db}"\n[feed]\nlog = "{log}"\npace_s = 0\n', encoding="utf-8")
        argv = {
            "run": ["run", "--config", str(config), "--until-end"],
            "games": ["games", "--db", str(db)],
            "export": ["export", "1", "--format", "mjai", "--db", str(db)],
        }[opened_by]
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1, err
        assert reason in err
        assert str(db) in err
    assert _digest(db) == before
    assert not (tmp_path / "table.db.lock").exists()  # nothing made beside it either


def test_an_empty_sqlite_database_becomes_a_journal(tmp_path):
    db = tmp_path / "table.db"
    sqlite3.connect(db).close()  # a zero-byte file
    store = GameStore(db)
    assert store.games() == ()
    store.close()


def test_a_journal_is_made_whole_or_not_at_all(tmp_path, monkeypatch):
    from table_app.journal import schema

    db = tmp_path / "table.db"
    monkeypatch.setattr(schema, "SCHEMA", schema.SCHEMA + "CREATE TABLE games (x);")  # fails at the end
    with pytest.raises(JournalError):
        GameStore(db)
    connection = sqlite3.connect(db)
    assert connection.execute("SELECT name FROM sqlite_master").fetchall() == []  # no half journal
    assert connection.execute("PRAGMA user_version").fetchone()[0] == 0
    connection.close()
    monkeypatch.undo()
    _journal_with_a_game(db)  # made whole at the next start
    assert GameStore(db, read_only=True).game(1).names == ("a", "b", "c", "d")


def test_opening_a_journal_to_write_changes_nothing_until_something_is_written(tmp_path):
    db = tmp_path / "table.db"
    _journal_with_a_game(db)
    before = _digest(db)
    GameStore(db).close()
    assert _digest(db) == before
