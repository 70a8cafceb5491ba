"""``jantaku import FILE...``: real logs into the journal, each game once, so ``games`` and
``export`` work on them as on a game refereed at the table."""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from table_app.journal.game_identity import game_key
from table_app.journal.store import GameStore
from table_app.logs import LogReadError, log_files, read_log
from table_app.rules.check import profile_for_log
from table_app.rules.fold import replay
from table_app.rules.profiles import PROFILES, TENHOU, profile_named
from table_app.rules.record import GameLog

EXAMPLES = """examples:
  jantaku import my-tenhou-logs/ --db club.db               # a folder: every log in it
  jantaku import game.mjlog game.json --db club.db     # the same game twice: kept once
  jantaku games --db club.db && jantaku export 1 --format tenhou --db club.db"""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "import",
        help="put logged games (mjlog, tenhou.net/6, mjai, client transcripts) into the journal, each once",
        description=(
            "Journal every game of the logs named (a folder means every log in it), under the rule "
            "profile (adjusted to what a Tenhou log says of its own rules). A game already kept, "
            "from this file or another format of the same game, is not added again."
        ),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("paths", nargs="+", metavar="FILE", type=Path, help="log files or folders")
    parser.add_argument("--db", type=Path, default=Path("jantaku.db"), help="the database (default: jantaku.db)")
    parser.add_argument(
        "--profile", choices=[p.name for p in PROFILES], default=TENHOU.name, help="rule profile (default: tenhou)"
    )
    parser.set_defaults(run=run)


@dataclass
class _Tally:
    imported: int = 0
    kept: int = 0
    skipped: int = 0
    failed: int = 0


def run(args: argparse.Namespace) -> int:
    files = log_files(args.paths)
    if not files:
        raise ValueError(f"no log files in {' '.join(str(p) for p in args.paths)}")
    tally = _Tally()
    store = GameStore(args.db)
    try:
        for path in files:
            try:
                games = read_log(path)
            except LogReadError as error:
                tally.failed += 1
                print(f"jantaku import: {error}", file=sys.stderr)
                continue
            for game in games:
                _import(store, game, args.profile, tally)
    finally:
        store.close()
    print(f"{tally.imported} imported, {tally.kept} already kept, {tally.skipped} skipped, {tally.failed} failed")
    return 1 if tally.failed else 0


def _import(store: GameStore, game: GameLog, profile_name: str, tally: _Tally) -> None:
    reason = "three-player game" if game.players != 4 else game.rules.unsupported
    if reason is not None:
        tally.skipped += 1
        print(f"{game.source}: skipped: {reason}")
        return
    profile = profile_for_log(profile_named(profile_name), game.rules)
    try:
        state = replay(game.events, profile)
    except ValueError as error:
        tally.failed += 1
        print(f"jantaku import: {game.source}: the rules core cannot follow it ({error})", file=sys.stderr)
        return
    number, new = store.import_game(
        game_key(game.events), source=game.source, profile=profile.name, events=game.events, at=time.time(), after=state
    )
    if new:
        tally.imported += 1
        ending = "finished" if state.finished else "unfinished"
        print(f"{game.source}: game {number} ({len(state.results)} hands, {ending}, {profile.name})")
    else:
        tally.kept += 1
        print(f"{game.source}: already kept as game {number}")
