"""``jantaku table-sim``: a simulated sensor board on a pty, for ``jantaku link`` and the app."""

from __future__ import annotations

import argparse
import contextlib
import sys
import threading
from pathlib import Path
from typing import Any

from firmware_bridge.sim_faults import parse_faults
from firmware_bridge.sim_script import builtin_script, parse_script
from firmware_bridge.sim_transport import PtyTableServer
from firmware_bridge.simulator import TableSimulator

EXAMPLES = """examples:
  jantaku table-sim
  jantaku table-sim --script hand.txt --faults noise,unplug=0.1
  jantaku table-sim --path /tmp/table --duration 60

faults (comma-separated, NAME or NAME=RATE): noise 0.05, drop 0.02, flip 0.02, truncate 0.02
(per frame); unplug 0.05, reboot 0.05, version 0.03 (per second). See docs/protocol.md."""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "table-sim",
        help="simulate the table's sensor board on a pty",
        description="Serve a simulated sensor board on a pty and print the device path to open.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--pty", action="store_true", help="serve on a pty (the default, and the only transport)")
    parser.add_argument("--script", type=Path, metavar="FILE", help="table script (default: a built-in one, looping)")
    parser.add_argument("--faults", default="", metavar="SPEC", help="faults to inject, e.g. noise,drop=0.1,unplug")
    parser.add_argument("--path", type=Path, help="where to publish the device link (default: a temporary folder)")
    parser.add_argument("--seed", type=int, default=0, help="random seed for faults and ADC noise")
    parser.add_argument("--duration", type=float, metavar="S", help="stop after S seconds (default: run until Ctrl-C)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    plan = parse_faults(args.faults)
    if args.script is not None:
        try:
            text = args.script.read_text(encoding="utf-8")
        except OSError as error:
            raise ValueError(f"cannot read script {args.script}: {error.strerror}") from None
        script = parse_script(text, str(args.script))
    else:
        script = builtin_script()
    if args.path is not None and not args.path.parent.is_dir():
        raise ValueError(f"--path {args.path}: {args.path.parent} is not a folder to publish the device link in")
    server = PtyTableServer(TableSimulator(script, faults=plan, seed=args.seed), path=args.path)
    try:
        server.start()
    except OSError as error:
        with contextlib.suppress(OSError):
            server.stop()
        raise ValueError(f"--path {args.path}: cannot publish the device link there ({error.strerror})") from error
    try:
        print(server.path, flush=True)
        print(f"table-sim: serving on {server.path}; Ctrl-C to stop", file=sys.stderr, flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait(args.duration)
    finally:
        server.stop()
    return 0
