"""``jantaku hand``: readings, waits, shanten, furiten and the closed-kan-after-riichi verdict."""

from __future__ import annotations

import argparse
import json
from typing import Any

from table_app.domain.hand import Hand
from table_app.domain.meld import parse_meld
from table_app.domain.notation import parse_tile, parse_tiles
from table_app.rules.hand import (
    KanStrictness,
    check_riichi_closed_kan,
    decompositions,
    furiten_waits,
    shanten,
    tenpai_discards,
    waits,
)
from table_app.rules.hand.decompose import decompose_counts

EXAMPLES = """examples:
  jantaku hand 1112345678999m
  jantaku hand 111m22m333m888p66z --drawn 1m --riichi-kan 1m --strictness decompositions
  jantaku hand 2224678m678p --melds ankan:3333m --json
  jantaku hand 234m567p11z --melds pon:777z@right chi:546s --discards 1z9m"""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "hand",
        help="analyse a hand: readings, waits, shanten, closed kan after riichi",
        description="Analyse a hand written compactly (123m406p789s11z; 0 or r5 is a red five).",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("hand", metavar="HAND", help="concealed tiles, e.g. 4555m223344p678s")
    parser.add_argument(
        "--melds",
        nargs="+",
        default=[],
        metavar="M",
        help="melds as KIND:TILES[@SOURCE], e.g. pon:777z@right ankan:3333m",
    )
    parser.add_argument("--drawn", metavar="TILE", help="the tile just drawn (the hand is then the 13 before it)")
    parser.add_argument("--discards", metavar="TILES", help="the player's own discards, for furiten")
    parser.add_argument("--riichi-kan", metavar="TILE", help="judge a closed kan of TILE after riichi")
    parser.add_argument(
        "--strictness",
        choices=[level.value for level in KanStrictness],
        default=KanStrictness.DECOMPOSITIONS.value,
        help="closed-kan-after-riichi rule (default: decompositions)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    melds = tuple(parse_meld(text) for text in args.melds)
    hand = Hand(parse_tiles(args.hand), melds)
    drawn = parse_tile(args.drawn) if args.drawn else None
    report = analyse(hand, drawn, args)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        print(render(report))
    return 0


def analyse(hand: Hand, drawn: Any, args: argparse.Namespace) -> dict[str, Any]:
    if drawn is not None or args.riichi_kan:
        hand.require_size(13)
    else:
        hand.require_size(13, 14)
    waiting = hand if hand.size == 13 else None
    full = hand.with_tile(drawn) if drawn is not None else (hand if hand.size == 14 else None)
    report: dict[str, Any] = {"hand": str(hand)}
    if waiting is not None:
        found = waits(waiting)
        report["waits"] = [str(w.tile) for w in found]
        report["exhausted_waits"] = [str(w.tile) for w in found if w.exhausted]
        report["tenpai"] = any(not w.exhausted for w in found)
        report["shanten"] = shanten(waiting)
        report["readings"] = {
            str(w.tile): [str(d) for d in decompose_counts(_plus(waiting, w.tile.kind), waiting)] for w in found
        }
        if args.discards is not None:
            furiten = furiten_waits(waiting, parse_tiles(args.discards))
            report["furiten"] = bool(furiten)
            report["furiten_on"] = [str(t) for t in furiten]
    else:
        report["waits"] = []
        report["exhausted_waits"] = []
        report["tenpai"] = False
        report["shanten"] = shanten(hand)
    if full is not None:
        readings = decompositions(full)
        report["complete"] = bool(readings)
        report["complete_readings"] = [str(d) for d in readings]
        if waiting is None:
            report["shanten"] = shanten(full)
        report["tenpai_discards"] = {
            str(tile): [str(w.tile) for w in left if not w.exhausted] for tile, left in tenpai_discards(full)
        }
    if args.riichi_kan:
        kan = parse_tile(args.riichi_kan)
        verdict = check_riichi_closed_kan(
            hand, drawn if drawn is not None else kan, kan, KanStrictness(args.strictness)
        )
        report["kan_legal"] = verdict.legal
        report["kan_code"] = verdict.code.value
        report["reason"] = verdict.reason
        report["strictness"] = args.strictness
    return report


def _plus(hand: Hand, kind: int) -> list[int]:
    counts = hand.counts()
    counts[kind] += 1
    return counts


def render(report: dict[str, Any]) -> str:
    lines = [f"hand      {report['hand']}"]
    if report["waits"]:
        shown = [f"{w} (all four held: cannot come)" if w in report["exhausted_waits"] else w for w in report["waits"]]
        lines.append(f"waits     {', '.join(shown)}")
    lines.append(f"shanten   {report['shanten']}" + ("  (tenpai)" if report["tenpai"] else ""))
    for wait, readings in report.get("readings", {}).items():
        for reading in readings:
            lines.append(f"  on {wait:<3} {reading}")
    if "furiten" in report:
        lines.append(
            "furiten   " + (f"yes, discarded {', '.join(report['furiten_on'])}" if report["furiten"] else "no")
        )
    if report.get("complete"):
        lines.append("complete")
        lines.extend(f"  {reading}" for reading in report["complete_readings"])
    for tile, left in report.get("tenpai_discards", {}).items():
        lines.append(f"discard {tile:<3} -> waits {', '.join(left)}")
    if "kan_legal" in report:
        word = "legal" if report["kan_legal"] else "ILLEGAL"
        lines.append(f"riichi kan {word} ({report['strictness']}): {report['reason']}")
    return "\n".join(lines)
