"""``jantaku doctor``: check this machine against a table config, one line per check."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from table_app.runtime.config import load_config
from table_app.runtime.doctor import Probes, SystemProbes, check_table


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "doctor",
        help="check camera, serial port, GPIO, display, disk space, clock and hall broker against a table config",
        description="Check that this machine can referee the table its config describes: one line per check, "
        "what to fix where something is wrong. Exit status 1 if anything is.",
    )
    parser.add_argument("--config", required=True, type=Path, metavar="FILE", help="the table's TOML config")
    parser.add_argument("--json", action="store_true", help="one JSON object per check")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, probes: Probes | None = None) -> int:
    findings = check_table(load_config(args.config.absolute()), probes or SystemProbes())
    for finding in findings:
        if args.json:
            record = {"check": finding.check, "ok": finding.ok, "detail": finding.detail, "fix": finding.fix}
            print(json.dumps(record, ensure_ascii=False))
        else:
            print(finding.line())
    return 0 if all(finding.ok for finding in findings) else 1
