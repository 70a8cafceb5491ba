"""``jantaku replay``: follow logged games through the rules core, optionally checking every result."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from table_app.announce.catalogue import Language, render
from table_app.announce.endings import hand_ending
from table_app.logs import LogReadError, log_files, read_log
from table_app.progress import Progress
from table_app.rules.check import GameCheck, check_game
from table_app.rules.mjai_codec import event_to_mjai
from table_app.rules.profiles import PROFILES, TENHOU, RuleProfile, profile_named

EXAMPLES = """examples:
  jantaku replay table_app/demo_data/demo-game.mjlog --check     # the demo game this repository ships
  jantaku replay game.mjlog --verdicts
  jantaku replay game.jsonl --profile jpml --announce
  jantaku replay game.mjlog --json
  jantaku replay logs/ --profile tenhou --check --json"""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "replay",
        help="replay logged games (mjlog, tenhou.net/6, mjai, client transcripts); --check compares every result",
        description="Replay logged games through the rules core. A folder means every log in it.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", type=Path, help="log files or folders")
    parser.add_argument(
        "--profile", choices=[p.name for p in PROFILES], default=TENHOU.name, help="rule profile (default: tenhou)"
    )
    parser.add_argument("--check", action="store_true", help="compare every hand with the log's own record")
    parser.add_argument("--json", action="store_true", help="print JSON lines: one per game, then a summary")
    parser.add_argument("--verdicts", action="store_true", help="list every judged act: seat, act, consequence, reason")
    parser.add_argument(
        "--announce", action="store_true", help="print each hand's ending and payments as the live referee says them"
    )
    parser.set_defaults(run=run)


@dataclass
class _Tally:
    games: int = 0
    hands: int = 0
    mismatches: int = 0
    skipped: int = 0
    unreadable: int = 0
    incomplete: int = 0  # hands the logs start and never end


def run(args: argparse.Namespace) -> int:
    profile = profile_named(args.profile)
    tally = _Tally()
    files = log_files(args.paths)
    if not files:
        raise ValueError(f"no log files in {' '.join(str(p) for p in args.paths)}")
    # A bar over the files (stderr, a terminal only, not with --json); lines go through bar.echo.
    with Progress(len(files), "replay", enabled=not args.json and len(files) > 1) as bar:
        for path in files:
            _replay_file(args, path, profile, tally, bar)
            bar.advance(note=path.name)
    summary = f"{tally.games} games, {tally.hands} hands, {tally.mismatches} mismatches"
    if tally.skipped:
        summary += f", {tally.skipped} skipped"
    if tally.unreadable:
        summary += f", {tally.unreadable} unreadable"
    if tally.incomplete:
        summary += f", {tally.incomplete} hands incomplete"
    if args.json:
        print(
            json.dumps(
                {
                    "games": tally.games,
                    "hands": tally.hands,
                    "mismatches": tally.mismatches,
                    "skipped": tally.skipped,
                    "unreadable": tally.unreadable,
                    "incomplete": tally.incomplete,
                }
            )
        )
    else:
        print(summary)
    failed = tally.unreadable > 0 or (args.check and (tally.mismatches > 0 or tally.incomplete > 0))
    return 1 if failed else 0


def _replay_file(args: argparse.Namespace, path: Path, profile: RuleProfile, tally: _Tally, bar: Progress) -> None:
    try:
        games = read_log(path)
    except LogReadError as error:
        tally.unreadable += 1
        _emit(bar, args, {"file": str(path), "error": str(error)}, f"{error}", error=True)
        return
    if not games:
        note = "no hand to replay (no game started, or only a hand joined mid-way)"
        _emit(bar, args, {"file": str(path), "note": note}, f"{path}: {note}")
    for game in games:
        reason = "three-player game" if game.players != 4 else game.rules.unsupported
        if reason is not None:
            tally.skipped += 1
            _emit(bar, args, {"file": game.source, "skipped": reason}, f"{game.source}: skipped: {reason}")
            continue
        result = check_game(game, profile)
        tally.games += 1
        tally.hands += result.hands
        _report_game(bar, args, result, tally)


def _report_game(bar: Progress, args: argparse.Namespace, result: GameCheck, tally: _Tally) -> None:
    state = result.final
    tally.incomplete += len(result.incomplete)
    if args.verdicts:
        _report_verdicts(bar, args, result)
    if args.announce:
        _report_endings(bar, args, result)
    if args.check:
        tally.mismatches += len(result.mismatches)
        if not args.json:
            for mismatch in result.mismatches:
                # Seats as people see them: this hand's wind and player (the JSON says the same).
                bar.echo(f"{result.source}: {mismatch.hand}: {state.hand_naming(mismatch.hand).fill_en(mismatch.what)}")
            for hand in result.incomplete:
                bar.echo(
                    f"{result.source}: {hand}: incomplete: the log never ends this hand (its win or draw is missing)"
                )
    if args.json:
        record: dict[str, Any] = {
            "file": result.source,
            "hands": result.hands,
            "scores": list(state.scores),
            "points": list(state.final_points) if state.final_points is not None else None,
            "finished": state.finished,
        }
        if args.check:
            record["mismatches"] = [
                {"hand": m.hand, "what": state.hand_naming(m.hand).fill_en(m.what)} for m in result.mismatches
            ]
            record["incomplete"] = list(result.incomplete)
        print(json.dumps(record, ensure_ascii=False))
    elif not args.check:
        points = "" if state.final_points is None else f"  points {' '.join(f'{p:+.1f}' for p in state.final_points)}"
        bar.echo(f"{result.source}: {result.hands} hands, scores {' '.join(str(s) for s in state.scores)}{points}")


def _emit(bar: Progress, args: argparse.Namespace, record: dict[str, Any], text: str, *, error: bool = False) -> None:
    if args.json:
        print(json.dumps(record, ensure_ascii=False))
    else:
        bar.echo(text, file=sys.stderr if error else sys.stdout)


def _report_verdicts(bar: Progress, args: argparse.Namespace, result: GameCheck) -> None:
    """Every judged act; people read the seat as the convention names it in that hand (wind and
    name), the JSON keeps the seat index 0-3."""
    for act in result.verdicts:
        verdict = act.verdict
        seat = getattr(act.event, "actor", None)
        seat = verdict.seat if seat is None else seat
        mjai = event_to_mjai(act.event)
        reason = verdict.reason.value if verdict.reason is not None else None
        naming = result.final.hand_naming(act.hand)
        message = naming.fill_en(verdict.message)
        if args.json:
            record = {
                "file": result.source,
                "hand": act.hand,
                "event": act.index,
                "seat": None if seat is None else int(seat),
                "act": mjai,
                "consequence": verdict.consequence.value,
                "reason": reason,
                "message": message,
            }
            print(json.dumps(record, ensure_ascii=False))
            continue
        who = "table" if seat is None else naming.en(seat)
        what = " ".join(str(mjai[k]) for k in ("type", "pai", "kind") if k in mjai)
        ruling = verdict.consequence.value
        if reason is not None:
            ruling += f" ({reason}): {message}"
        bar.echo(f"{result.source}: {act.hand}: event {act.index}: {who} {what}: {ruling}")


def _report_endings(bar: Progress, args: argparse.Namespace, result: GameCheck) -> None:
    """Each hand's ending as the live referee says it at ``end_kyoku``: seats by that hand's winds."""
    state = result.final
    for hand in state.results:
        for said in hand_ending(hand, state.profile):
            if args.json:
                record: dict[str, Any] = {"file": result.source, "hand": hand.label, "kind": said.kind.value}
                record |= {"seat": None if said.seat is None else int(said.seat), "params": dict(said.params)}
                print(json.dumps(record, ensure_ascii=False))
                continue
            for language in (Language.JA, Language.EN):
                bar.echo(f"[{language.value}] {render(said, language, state.hand_naming(hand.label))}")
