"""``jantaku games``: the games kept in the journal, with standings."""

from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from table_app.domain.seat_names import SeatNaming
from table_app.journal.store import GameStore, GameSummary
from table_app.rules.game_flow import ranking


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "games",
        help="list the games kept in the journal, with standings",
        description="List the games in the journal database, each with its players ranked.",
    )
    parser.add_argument("--db", type=Path, default=Path("jantaku.db"), help="the database (default: jantaku.db)")
    parser.add_argument("--json", action="store_true", help="one JSON object per game")
    parser.set_defaults(run=run)


def _standings(game: GameSummary) -> list[tuple[int, str, int, float | None]]:
    order = ranking(tuple(game.scores))
    return [
        (
            int(seat),
            SeatNaming(tuple(game.names)).en(seat),  # the name, else "Seat 1".."Seat 4"
            game.scores[seat],
            game.points[seat] if game.points is not None else None,
        )
        for seat in order
    ]


def iso_time(epoch_s: float) -> str:
    """ISO 8601 in UTC, to the second ("2026-11-21T16:36:05+00:00"): unambiguous wherever it is read."""
    return datetime.fromtimestamp(epoch_s, tz=UTC).isoformat(timespec="seconds")


def run(args: argparse.Namespace) -> int:
    if not args.db.exists():
        raise ValueError(f"no database at {args.db}")
    store = GameStore(args.db, read_only=True)
    try:
        games = store.games()
    finally:
        store.close()
    for game in games:
        standings = _standings(game)
        if args.json:
            record = {
                "game": game.id,
                "started": iso_time(game.started_at),
                "profile": game.profile,
                "hands": game.hands,
                "finished": game.finished,
                "standings": [{"seat": s, "name": n, "score": sc, "points": p} for s, n, sc, p in standings],
            }
            print(json.dumps(record, ensure_ascii=False))
            continue
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(game.started_at))
        state = "finished" if game.finished else "in play"
        ranked = "  ".join(
            f"{rank}. {name} {score}" + (f" ({points:+.1f})" if points is not None else "")
            for rank, (_seat, name, score, points) in enumerate(standings, start=1)
        )
        print(f"game {game.id}  {started}  {game.profile}  {game.hands} hands  {state}  {ranked}")
    if not games and not args.json:
        print("no games")
    return 0
