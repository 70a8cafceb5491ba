"""The ``jantaku`` command: one module per subcommand, each with ``register`` and ``run``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from table_app.cli import (
    demo_command,
    export_command,
    games_command,
    hand_command,
    link_command,
    replay_command,
    run_command,
    table_sim_command,
    vision_command,
    web_command,
)
from table_app.journal.errors import JournalError

_COMMANDS = (
    demo_command,
    hand_command,
    replay_command,
    table_sim_command,
    link_command,
    vision_command,
    web_command,
    run_command,
    games_command,
    export_command,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jantaku", description="Referee, score keeper and broadcast feed for riichi mahjong tables."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in _COMMANDS:
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except (ValueError, JournalError) as error:
        # Every bad-input error in the domain is a ValueError subclass naming its token.
        print(f"jantaku {args.command}: error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        # A path the user named that cannot be used (a folder for a file, no permission, a full
        # disk): what and where in one line, not a traceback.
        print(f"jantaku {args.command}: error: {_os_error(error)}", file=sys.stderr)
        return 2


def _os_error(error: OSError) -> str:
    if error.filename is None:
        return error.strerror or str(error)
    where = str(error.filename) + (f" -> {error.filename2}" if error.filename2 is not None else "")
    return f"{where}: {error.strerror or error}"


if __name__ == "__main__":
    sys.exit(main())
