"""``jantaku export GAME --format tenhou|mjai``: a kept game as a log other tools read."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from table_app.journal.export import MjaiExportError, hidden_tiles, mjai_lines
from table_app.journal.fill_hidden import FillError, check_filled, fill_hidden
from table_app.journal.store import GameStore
from table_app.journal.tenhou_export import TenhouExportError, tenhou6_game
from table_app.rules.profiles import profile_named

EXAMPLES = """examples:
  jantaku export 3 --format mjai -o game3.jsonl && jantaku replay game3.jsonl --check
  jantaku export 3 --format tenhou --db /var/lib/jantaku/table.db > game3.json"""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "export",
        help="write a kept game as a tenhou.net/6 JSON or mjai log",
        description="Write a game from the journal as a tenhou.net/6 JSON or an mjai log (JSON lines).",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", type=int, metavar="GAME", help="the game's number (see jantaku games)")
    parser.add_argument("--format", required=True, choices=["tenhou", "mjai"], help="log format")
    parser.add_argument("--db", type=Path, default=Path("jantaku.db"), help="the database (default: jantaku.db)")
    parser.add_argument(
        "--fill-hidden",
        action="store_true",
        help=(
            "fill tiles the camera never saw from the unseen ones (public events unchanged; "
            "mjai names the filled lines in start_game, tenhou.net/6 in the title)"
        ),
    )
    parser.add_argument("-o", "--output", type=Path, help="write here instead of standard output")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not args.db.exists():
        raise ValueError(f"no database at {args.db}")
    if args.output is not None and args.output.is_dir():
        raise ValueError(f"-o {args.output}: is a folder; name the file to write")
    store = GameStore(args.db, read_only=True)
    try:
        summary = store.game(args.game)
        entries = store.events(args.game)
    finally:
        store.close()
    # A profile changed between hands is one of the events: the exports fold it where it was made.
    events = [entry.event for entry in entries]
    profile = profile_named(summary.profile)
    filled: set[int] = set()
    if args.fill_hidden and hidden_tiles(events)[0]:
        try:
            filling = fill_hidden(events, profile.red_fives)
            check_filled(events, filling, profile)
        except FillError as error:
            raise ValueError(f"game {args.game}: the hidden tiles cannot be filled ({error})") from error
        filled = {i for i, (old, new) in enumerate(zip(events, filling, strict=True)) if old != new}
        events = filling
    try:
        if args.format == "mjai":
            text = "".join(line + "\n" for line in mjai_lines(events, profile, filled=filled))
        else:
            note = "hidden tiles filled by jantaku" if filled else ""
            game = tenhou6_game(events, profile, f"jantaku game {args.game}", note)
            text = json.dumps(game, ensure_ascii=False) + "\n"
    except (MjaiExportError, TenhouExportError) as error:
        raise ValueError(f"game {args.game}: {error}") from error
    if args.output is None:
        sys.stdout.write(text)
    else:
        try:
            args.output.write_text(text, encoding="utf-8")
        except OSError as error:
            raise ValueError(f"-o {args.output}: cannot write ({error.strerror})") from error
    return 0
