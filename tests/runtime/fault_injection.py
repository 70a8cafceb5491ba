"""Power cuts on demand: ``jantaku run`` over a logged game, SIGKILLed at random moments and
restarted until the game is over (used by ``test_fault_injection`` and ``bench/bench_hardening.py``).

Each run prints ``event SEQ JSON`` once an event is on disk (``--echo-events``); a kill comes
either at a random time from the start (often while the process is still starting or
resuming) or a random number of events into the run plus a few milliseconds (mid-hand,
mid-transaction). After each kill the journal is read: what it held must still be there,
unchanged, at the end, and so must every event a killed run said it had journaled.
"""

from __future__ import annotations

import os
import queue
import random
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUN = "import sys; from table_app.cli import main; sys.exit(main())"

Row = tuple[int, str, str | None]  # seq, kind, body


@dataclass
class KillReport:
    kills: int = 0  # SIGKILLs that stopped a running referee
    runs: int = 0
    final: list[Row] = field(default_factory=list)  # the journal at the end
    lost: int = 0  # rows a kill's journal held that the final one does not hold unchanged
    unrecorded: int = 0  # events a killed run printed as journaled that the final journal lacks
    games: int = 0
    finished: bool = False


def journal_rows(db: Path) -> list[Row]:
    if not db.exists():
        return []
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = connection.execute("SELECT seq, kind, body FROM journal ORDER BY game, seq").fetchall()
    finally:
        connection.close()
    return [(int(seq), str(kind), body) for seq, kind, body in rows]


def game_count(db: Path) -> tuple[int, bool]:
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = connection.execute("SELECT finished FROM games").fetchall()
    except sqlite3.OperationalError:  # killed before the journal was made: no tables yet
        rows = []
    finally:
        connection.close()
    return len(rows), bool(rows) and all(bool(f) for (f,) in rows)


def _unfinished(db: Path) -> bool:
    if not db.exists():
        return False
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        has_games = connection.execute("SELECT count(*) FROM sqlite_master WHERE name = 'games'").fetchone()[0]
        return bool(has_games) and connection.execute("SELECT count(*) FROM games WHERE finished = 0").fetchone()[0] > 0
    finally:
        connection.close()


def output_lines(process: subprocess.Popen[str]) -> queue.Queue[str | None]:
    """The process's stdout lines as they come (None at its end), read by a thread."""
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return lines


def kill_until_finished(
    folder: Path,
    log: Path,
    *,
    seed: int,
    pace_s: float = 0.01,
    events_between: tuple[int, int] = (20, 100),
    early: float = 0.25,
    max_runs: int = 60,
) -> KillReport:
    """Run the referee over ``log``, killing it at random, until a run finishes the game."""
    rng = random.Random(seed)
    config = folder / "table.toml"
    db = folder / "table.db"
    config.write_text(
        f'[table]\ndb = "{db}"\nlanguages = ["en"]\n[feed]\nlog = "{log}"\npace_s = {pace_s}\ntrays = true\n',
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", RUN, "run", "--config", str(config), "--echo-events", "--until-end"]
    report = KillReport()
    snapshots: list[list[Row]] = []
    printed: dict[int, str] = {}
    while report.runs < max_runs:
        report.runs += 1
        errors = folder / f"run-{report.runs}.err"
        # A restart goes on with the unfinished game, as a table's service would be told to.
        resume = ["--resume"] if _unfinished(db) else []
        with errors.open("w") as stderr:
            process = subprocess.Popen(command + resume, stdout=subprocess.PIPE, stderr=stderr, text=True, env=env)
        lines = output_lines(process)
        if rng.random() < early:
            deadline = time.monotonic() + rng.uniform(0.0, 3.0)  # often still starting or resuming
            while time.monotonic() < deadline and process.poll() is None:
                _drain(lines, printed, timeout=0.01)
        else:
            target, seen = rng.randint(*events_between), 0
            while seen < target:
                line = _next(lines, timeout=60)
                if line is None:
                    break
                seen += _record(line, printed)
            time.sleep(rng.uniform(0.0, 0.02))
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)
        _drain(lines, printed, timeout=1.0)
        if process.returncode == 0:
            break
        if process.returncode != -9:
            raise AssertionError(f"run {report.runs} failed ({process.returncode}): {errors.read_text()[-2000:]}")
        report.kills += 1
        snapshots.append(journal_rows(db))
        if db.exists() and game_count(db) == (1, True):
            break  # killed on its way out, the game already over on disk: a restart would start another
    report.final = journal_rows(db)
    report.games, report.finished = game_count(db)
    final = set(report.final)
    report.lost = sum(1 for snapshot in snapshots for row in snapshot if row not in final)
    bodies = {seq: body for seq, kind, body in report.final if kind == "event"}
    report.unrecorded = sum(1 for seq, body in printed.items() if bodies.get(seq) != body)
    return report


def _next(lines: queue.Queue[str | None], timeout: float) -> str | None:
    try:
        return lines.get(timeout=timeout)
    except queue.Empty:
        return None


def _record(line: str, printed: dict[int, str]) -> int:
    if not line.startswith("event "):
        return 0
    _, seq, body = line.rstrip("\n").split(" ", 2)
    printed[int(seq)] = body
    return 1


def _drain(lines: queue.Queue[str | None], printed: dict[int, str], timeout: float) -> None:
    while (line := _next(lines, timeout)) is not None:
        _record(line, printed)
