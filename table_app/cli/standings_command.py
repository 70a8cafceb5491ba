"""``jantaku standings``: a session's games as clubs and leagues keep them, and as CSV."""

from __future__ import annotations

import argparse
import csv
import io
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from table_app.journal.store import GameStore, GameSummary
from table_app.rules.events import StartKyoku
from table_app.rules.fold import replay
from table_app.rules.game_flow import first_dealer_of
from table_app.rules.profiles import ChomboPenalty, profile_named
from table_app.rules.standings import (
    STANDINGS_PRESETS,
    SeatStanding,
    StandingsRule,
    game_standing,
    standings_rule_named,
    standings_rule_of,
)

EXAMPLES = """examples:
  jantaku standings --db club.db --day 2026-11-21
  jantaku standings --db club.db --games 12-18 --preset wrc --csv session.csv"""

CSV_COLUMNS = (
    "game",
    "started",
    "profile",
    "preset",
    "seat",
    "name",
    "rank",
    "score",
    "base",
    "uma",
    "chombos",
    "penalty",
    "points",
)


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "standings",
        help="totals of a session's games (uma, oka, chombo) and a CSV of them",
        description=(
            "Rank the players over the finished games chosen (all, --games or --day): game points "
            "by a standings preset or each game's own rule profile, chombo deductions, totals."
        ),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--db", type=Path, default=Path("jantaku.db"), help="the database (default: jantaku.db)")
    parser.add_argument(
        "--preset",
        choices=[rule.name for rule in STANDINGS_PRESETS],
        help="uma, oka, ties and chombo deduction (default: each game's own rule profile)",
    )
    parser.add_argument("--games", metavar="LIST", help="game numbers: 3,5,8-12")
    parser.add_argument("--day", metavar="YYYY-MM-DD", help="the games started that day (local time)")
    parser.add_argument("--csv", metavar="FILE", help="also write one row per player per game ('-': standard output)")
    parser.set_defaults(run=run)


@dataclass(frozen=True)
class _Played:
    game: GameSummary
    rule: StandingsRule
    standing: tuple[SeatStanding, ...]
    start_total: int  # the four scores the first hand started with, added up


@dataclass
class _Total:
    name: str
    points: float = 0.0
    ranks: list[int] = field(default_factory=list)
    chombos: int = 0


def run(args: argparse.Namespace) -> int:
    if not args.db.exists():
        raise ValueError(f"no database at {args.db}")
    wanted = _game_numbers(args.games) if args.games else None
    day = _day(args.day) if args.day else None
    store = GameStore(args.db, read_only=True)
    try:
        games = [g for g in store.games() if _chosen(g, wanted, day)]
        if wanted is not None and (missing := sorted(wanted - {g.id for g in games})):
            raise ValueError(f"--games: no game {missing[0]} in {args.db}")
        rows = [_standing(store, game, args.preset) for game in games if game.finished]
    finally:
        store.close()
    unfinished = len(games) - len(rows)
    if args.csv:
        _write_csv(args.csv, rows)
    totals: dict[str, _Total] = {}
    for row in rows:
        for seat in row.standing:
            name = row.game.names[seat.seat] or f"seat {int(seat.seat) + 1}"
            total = totals.setdefault(name, _Total(name))
            total.points += seat.points
            total.ranks.append(seat.rank)
            total.chombos += seat.chombos
    label = args.preset or "each game's profile"
    note = f", {unfinished} unfinished left out" if unfinished else ""
    print(f"standings over {len(rows)} games ({label}){note}")
    # A preset's uma and oka assume its own start points: say where the games had others.
    other_start = [row.game.id for row in rows if row.start_total != 4 * row.rule.start_points]
    if other_start:
        each = rows[0].rule.start_points
        print(f"note: games {_ranges(other_start)} did not start at {each} each: their points do not sum to 0")
    ordered = sorted(totals.values(), key=lambda t: (-round(t.points, 1), t.name))
    for place, total in enumerate(ordered, start=1):
        counts = " ".join(str(total.ranks.count(r)) for r in range(1, 5))
        average = sum(total.ranks) / len(total.ranks)
        chombo = f"  chombo {total.chombos}" if total.chombos else ""
        print(
            f"{place:>2}. {total.name}  {total.points:+.1f}  {len(total.ranks)} games"
            f"  avg rank {average:.2f}  1st-4th {counts}{chombo}"
        )
    return 0


def _standing(store: GameStore, game: GameSummary, preset: str | None) -> _Played:
    profile = profile_named(game.profile)
    entries = store.events(game.id)
    state = replay((entry.event for entry in entries), profile)
    chombos = tuple(sum(1 for r in state.results if r.offender == seat) for seat in range(4))
    start = next((e.event for e in entries if isinstance(e.event, StartKyoku)), None)
    first = (
        first_dealer_of(start.bakaze, start.kyoku, start.oya) if isinstance(start, StartKyoku) else state.first_dealer
    )
    rule = standings_rule_named(preset) if preset else standings_rule_of(state.profile)
    paid = state.profile.chombo is ChomboPenalty.MANGAN_PAYMENT
    standing = game_standing(tuple(state.scores), rule, first_dealer=first, chombos=chombos, chombos_paid=paid)
    return _Played(game, rule, standing, sum(start.scores) if isinstance(start, StartKyoku) else 0)


def _write_csv(target: str, rows: Sequence[_Played]) -> None:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        game, rule = row.game, row.rule
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(game.started_at))
        for s in row.standing:
            name = game.names[s.seat]
            head = (game.id, started, game.profile, rule.name, int(s.seat) + 1, name, s.rank, s.score)
            writer.writerow((*head, f"{s.base:.1f}", f"{s.uma:.1f}", s.chombos, f"{s.penalty:.1f}", f"{s.points:.1f}"))
    if target == "-":
        sys.stdout.write(buffer.getvalue())
    else:
        # With a byte-order mark, spreadsheets open the names (often Japanese) as UTF-8.
        Path(target).write_text(buffer.getvalue(), encoding="utf-8-sig")


def _game_numbers(text: str) -> set[int]:
    numbers: set[int] = set()
    for part in text.split(","):
        first, _, last = part.strip().partition("-")
        try:
            low, high = int(first), int(last or first)
        except ValueError:
            raise ValueError(f"--games: {part.strip()!r} is not a game number or a range such as 8-12") from None
        if low > high:
            raise ValueError(f"--games: {part.strip()!r} runs backwards")
        numbers.update(range(low, high + 1))
    return numbers


def _ranges(numbers: list[int]) -> str:
    """3,5,6,7 → 3,5-7."""
    parts: list[str] = []
    for number in numbers:
        if parts and parts[-1].split("-")[-1] == str(number - 1):
            parts[-1] = f"{parts[-1].split('-')[0]}-{number}"
        else:
            parts.append(str(number))
    return ",".join(parts)


def _day(text: str) -> str:
    try:
        return time.strftime("%Y-%m-%d", time.strptime(text, "%Y-%m-%d"))
    except ValueError:
        raise ValueError(f"--day: {text!r} is not a date as YYYY-MM-DD") from None


def _chosen(game: GameSummary, wanted: set[int] | None, day: str | None) -> bool:
    if wanted is not None and game.id not in wanted:
        return False
    return day is None or time.strftime("%Y-%m-%d", time.localtime(game.started_at)) == day
