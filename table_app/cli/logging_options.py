"""Logging for every command: ``-v``/``--log-level``, one format, on stderr.

Both options are taken before the command (``jantaku -v run ...``) and after it (``jantaku run
-v ...``). Commands that keep running and report as they go (``run``, ``web``) log at INFO by
default, the others at WARNING; each ``-v`` is one level more (INFO, then DEBUG), and
``--log-level`` names the level outright. What the command prints for people stays on stdout;
logs go to stderr (under systemd: into the journal).
"""

from __future__ import annotations

import argparse
import logging
import sys

LEVELS = ("debug", "info", "warning", "error")
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
#: Set by a command's parser (``set_defaults(default_log_level=...)``) to log more by default.
DEFAULT_LEVEL_KEY = "default_log_level"


def add_logging_options(parser: argparse.ArgumentParser, *, top_level: bool) -> None:
    """The options on ``parser``; on a command's parser (``top_level=False``) an option not given
    leaves what was given before the command as it was."""
    unset = {} if top_level else {"default": argparse.SUPPRESS}
    group = parser.add_argument_group("logging")
    group.add_argument(
        "-v",
        "--verbose",
        action="count",
        help="log more, one level a -v (warning, info, debug; run and web start at info); logs go to stderr",
        **({"default": 0} if top_level else unset),
    )
    group.add_argument(
        "--log-level",
        type=str.lower,
        choices=LEVELS,
        help="log at this level (overrides -v)",
        **({"default": None} if top_level else unset),
    )


def log_level(args: argparse.Namespace) -> int:
    if getattr(args, "log_level", None):
        return int(getattr(logging, args.log_level.upper()))
    base = getattr(args, DEFAULT_LEVEL_KEY, logging.WARNING)
    return max(logging.DEBUG, base - 10 * int(getattr(args, "verbose", 0) or 0))


def configure_logging(args: argparse.Namespace) -> None:
    """Root logger at the level ``args`` ask for, with one stderr handler (unless one is there already,
    as under pytest)."""
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter(FORMAT))
        root.addHandler(handler)
    root.setLevel(log_level(args))
