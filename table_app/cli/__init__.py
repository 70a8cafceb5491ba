"""The ``jantaku`` command: one module per subcommand, each with ``register`` and ``run``.

Fast start: only the command asked for is imported (all of them for ``--help`` or a name that is
not a command), and the commands that use the camera or serve pages import OpenCV, numpy,
onnxruntime and aiohttp inside their ``run``; so ``jantaku hand`` answers at once
(``bench/bench_startup.py``; ``tests/cli/test_fast_start.py`` keeps it so).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from table_app import __version__
from table_app.cli.logging_options import add_logging_options, configure_logging

#: Command name → the module (in this package) that registers and runs it, in ``--help`` order.
_COMMANDS = {
    "demo": "demo_command",
    "hand": "hand_command",
    "replay": "replay_command",
    "table-sim": "table_sim_command",
    "link": "link_command",
    "vision": "vision_command",
    "web": "web_command",
    "run": "run_command",
    "import": "import_command",
    "games": "games_command",
    "standings": "standings_command",
    "export": "export_command",
    "doctor": "doctor_command",
    "hall": "hall_command",
}
#: Options before the command that take a value (the value is not the command's name).
_OPTIONS_WITH_VALUES = frozenset({"--log-level"})


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with ``only`` the one command (the others not even imported)."""
    parser = argparse.ArgumentParser(
        prog="jantaku", description="Referee, score keeper and broadcast feed for riichi mahjong tables."
    )
    parser.add_argument("--version", action="version", version=f"jantaku {__version__}")
    add_logging_options(parser, top_level=True)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module in _COMMANDS.items():
        if only is None or name == only:
            importlib.import_module(f"{__name__}.{module}").register(commands)
    _add_logging_to_commands(commands)
    return parser


def _add_logging_to_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``-v``/``--log-level`` after any command or subcommand too (``jantaku vision eval -v``)."""
    for parser in set(commands.choices.values()):
        add_logging_options(parser, top_level=False)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                _add_logging_to_commands(action)


def command_named(argv: Sequence[str]) -> str | None:
    """The command ``argv`` asks for, if it names one (the first word that is not an option)."""
    words = iter(argv)
    for word in words:
        if word in _OPTIONS_WITH_VALUES:
            next(words, None)
        elif not word.startswith("-"):
            return word if word in _COMMANDS else None
    return None


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(only=command_named(arguments))
    args = parser.parse_args(arguments)
    configure_logging(args)
    try:
        return int(args.run(args))
    except BrokenPipeError:
        # Whoever read the output stopped (`jantaku replay ... | head`): nothing is wrong and
        # there is nobody left to tell. Later writes to stdout (at exit) go nowhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as error:
        # A path the user named that cannot be used (a folder for a file, no permission, a full
        # disk): what and where in one line, not a traceback. (Before the clause for every
        # Exception, which would take it first.)
        print(f"jantaku {args.command}: error: {_os_error(error)}", file=sys.stderr)
        return 2
    except Exception as error:
        if not _is_bad_input(error):
            raise
        print(f"jantaku {args.command}: error: {error}", file=sys.stderr)
        return 2


def _os_error(error: OSError) -> str:
    if error.filename is None:
        return error.strerror or str(error)
    where = str(error.filename) + (f" -> {error.filename2}" if error.filename2 is not None else "")
    return f"{where}: {error.strerror or error}"


def _is_bad_input(error: Exception) -> bool:
    """Every bad-input error in the domain is a ValueError subclass naming its token; a journal
    that cannot be read is one too, and so is a model file named that is missing or damaged.
    (Imported only now: neither is light.)"""
    from table_app.journal.errors import JournalError  # noqa: PLC0415
    from vision.onnx_models.model_file import ModelFileError  # noqa: PLC0415

    return isinstance(error, ValueError | JournalError | ModelFileError)


if __name__ == "__main__":
    sys.exit(main())
