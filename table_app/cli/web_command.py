"""``jantaku web --replay LOG``: serve the display, overlay and console over a replayed game (for development)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import secrets
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from table_app.cli.logging_options import DEFAULT_LEVEL_KEY
from table_app.logs import LogReadError, read_log
from table_app.rules.profiles import PROFILES, TENHOU, profile_named

if TYPE_CHECKING:
    from table_app.web.replay_feed import ReplayFeed
    from table_app.web.server import WebServer

logger = logging.getLogger(__name__)

TOKEN_VARIABLE = "JANTAKU_CONSOLE_TOKEN"
EXAMPLES = """examples:
  jantaku web --replay table_app/demo_data/demo-game.mjlog     # the demo game this repository ships
  jantaku web --replay game.mjlog --step-seconds 0.2 --port 8081 --token s3cret
  jantaku web --replay game.mjlog --step-seconds 0      (steps only when the console confirms)"""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "web",
        help="serve the table display, broadcast overlay and referee console over a replayed log",
        description=(
            "Serve the web pages over a logged game replayed through the rules core. "
            f"The console token comes from --token, else ${TOKEN_VARIABLE}, else a random one printed once."
        ),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--replay", required=True, type=Path, metavar="LOG", help="a log file (mjlog, tenhou.net/6, mjai)"
    )
    parser.add_argument("--game", type=int, default=0, metavar="N", help="which game of the file (default: the first)")
    parser.add_argument(
        "--step-seconds", type=float, default=0.5, metavar="S", help="seconds per event; 0: only on console confirm"
    )
    parser.add_argument("--profile", choices=[p.name for p in PROFILES], default=TENHOU.name)
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--token", help=f"referee console token (prefer ${TOKEN_VARIABLE}: arguments show in ps)")
    parser.set_defaults(run=run, **{DEFAULT_LEVEL_KEY: logging.INFO})  # a server: requests and steps at INFO


def run(args: argparse.Namespace) -> int:
    try:
        games = read_log(args.replay)
    except LogReadError as error:
        raise ValueError(str(error)) from error
    four_player = [game for game in games if game.players == 4]
    if not 0 <= args.game < len(four_player):
        raise ValueError(f"{args.replay} has {len(four_player)} four-player games; --game {args.game} is not one")
    if args.step_seconds < 0:
        raise ValueError(f"--step-seconds must be 0 or more, got {args.step_seconds}")
    token = args.token or os.environ.get(TOKEN_VARIABLE)
    if not token:
        token = secrets.token_urlsafe(12)
        # Printed once for the referee to log in; deliberately not sent through logging.
        print(f"console token: {token}", file=sys.stderr)
    # Imported here: aiohttp is heavy, and only this command and `run` serve pages.
    from table_app.web.replay_feed import ReplayConsole, ReplayFeed  # noqa: PLC0415
    from table_app.web.server import WebServer, create_app  # noqa: PLC0415

    feed = ReplayFeed(four_player[args.game].events, profile_named(args.profile))
    server = WebServer(create_app(feed, ReplayConsole(feed), token), args.host, args.port)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(server, feed, args.step_seconds))  # a port in use: ServeError, one line
    return 0


async def _serve(server: WebServer, feed: ReplayFeed, step_seconds: float) -> None:
    await server.start()
    print(f"table display {server.url}/   overlay {server.url}/overlay   console {server.url}/console", file=sys.stderr)
    try:
        if step_seconds > 0:
            while feed.step():
                await asyncio.sleep(step_seconds)
            logger.info("replay finished after %d events", feed.length)
        await asyncio.Event().wait()  # serve until interrupted
    finally:
        await server.stop()
