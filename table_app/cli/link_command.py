"""``jantaku link``: connect to the table's sensor board and print what it reads."""

from __future__ import annotations

import argparse
import json
import os
import queue
import sys
import time
from pathlib import Path
from typing import Any

from firmware_bridge.calibration_file import load_calibration
from firmware_bridge.observations import LinkState, LinkStatus, TrayReading
from firmware_bridge.plausibility import GameLimits
from firmware_bridge.serial_link import LinkOutput, SerialTableLink

EXAMPLES = """examples:
  jantaku link --port /dev/ttyACM0
  jantaku link --port "$(jantaku table-sim & sleep 1)" --json

With --json, one object per line: {"type": "reading", "points": [4 trays in seat order],
"deposit": riichi sticks, "wall": live-wall tiles left, ...} or {"type": "status", "state": ...}."""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "link",
        help="read the table's sensor board (stick trays, riichi deposit, live wall)",
        description="Connect to the sensor board and print each reading and each link status change.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--port", required=True, help="serial device, pty path or pyserial URL")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument(
        "--game-total",
        type=int,
        default=GameLimits().game_total,
        metavar="POINTS",
        help="points on the table, trays plus deposit (default: 100000, four players at 25000)",
    )
    parser.add_argument("--calibration", type=Path, metavar="FILE", help="host calibration (JSON, docs/hardware.md)")
    parser.add_argument(
        "--send-calibration", action="store_true", help="store --calibration on the board once connected"
    )
    parser.add_argument("--duration", type=float, metavar="S", help="stop after S seconds (default: run until Ctrl-C)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    outputs: queue.Queue[LinkOutput] = queue.Queue()
    deadline = None if args.duration is None else time.monotonic() + args.duration
    if args.game_total <= 0 or args.game_total % 100:
        raise ValueError(f"--game-total {args.game_total} must be a positive multiple of 100")
    if args.send_calibration and args.calibration is None:
        raise ValueError("--send-calibration needs --calibration FILE")
    calibration = load_calibration(args.calibration) if args.calibration is not None else None
    limits = GameLimits(game_total=args.game_total)
    with SerialTableLink(args.port, outputs.put, calibration=calibration, limits=limits) as link:
        try:
            while deadline is None or time.monotonic() < deadline:
                try:
                    output = outputs.get(timeout=0.2)
                except queue.Empty:
                    continue
                if calibration is not None and args.send_calibration and _connected(output):
                    link.send_calibration(calibration)  # again after every reconnect: the board may be new
                line = _render(output, as_json=args.json)
                if line is not None:
                    print(line, flush=True)
        except KeyboardInterrupt:
            pass
        except BrokenPipeError:
            # The reader went away (`| head`): stop quietly, and keep Python's exit flush quiet too.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _connected(output: LinkOutput) -> bool:
    return isinstance(output, LinkStatus) and output.state is LinkState.CONNECTED


def _render(output: LinkOutput, *, as_json: bool) -> str | None:
    if isinstance(output, TrayReading):
        record: dict[str, Any] = {
            "type": "reading",
            "at": round(output.at, 3),
            "points": list(output.points),
            "deposit": output.deposit,
            "wall": output.wall,
            "kans": output.kans,
            "hand": output.hand,
            "sticks": [list(tray) for tray in output.sticks],
            "denominations": list(output.denominations),
            "raw": [list(tray) for tray in output.raw],
            "deposit_raw": output.deposit_raw,
            "plausible": output.plausible,
            "flags": [{"kind": flag.kind.value, "detail": flag.detail} for flag in output.flags],
        }
        if as_json:
            return json.dumps(record, ensure_ascii=False)
        points = " ".join(f"{p:>6}" for p in output.points)
        text = f"points {points}   deposit {output.deposit}   wall {output.wall:>2}   kans {output.kans}"
        return text + "".join(f"\n  ! {flag.kind.value}: {flag.detail}" for flag in output.flags)
    if isinstance(output, LinkStatus):
        if as_json:
            return json.dumps(
                {"type": "status", "at": round(output.at, 3), "state": output.state.value, "detail": output.detail},
                ensure_ascii=False,
            )
        return f"link {output.state.value}: {output.detail}"
    if as_json:
        record = {"type": "answer", "at": round(output.at, 3), "seq": output.echoed_seq, "accepted": output.accepted}
        return json.dumps(record | ({"reason": output.reason} if output.reason else {}))
    return f"board {'ACK' if output.accepted else 'NAK ' + output.reason} for command {output.echoed_seq}"
