"""``jantaku run``: referee a real table from a TOML config (docs/runtime.md)."""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import signal
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from table_app.cli.logging_options import DEFAULT_LEVEL_KEY
from table_app.cli.web_command import TOKEN_VARIABLE
from table_app.rules.mjai_codec import encode_event
from table_app.runtime.sd_notify import Notifier, Watchdog, watchdog_interval_s

if TYPE_CHECKING:
    from table_app.runtime.app import Runtime
    from table_app.runtime.ports import CoreUpdate
    from table_app.web.background import BackgroundWebServer

EXAMPLES = """examples:
  jantaku run --config examples/table.toml
  jantaku run --config table.toml --until-end --echo-events
  jantaku run --config table.toml --resume"""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "run",
        help="referee a table from a TOML config: camera, serial link, GPIO panel, journal",
        description="Referee a table. With an unfinished game in the journal, say --resume or --new.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--config", required=True, type=Path, metavar="FILE", help="the table's TOML config")
    parser.add_argument("--duration", type=float, metavar="S", help="stop after S seconds")
    parser.add_argument("--until-end", action="store_true", help="stop when the game ends or the [feed] runs out")
    parser.add_argument("--echo-events", action="store_true", help="print each journaled event: SEQ mjai-JSON")
    journal = parser.add_mutually_exclusive_group()
    journal.add_argument("--resume", action="store_true", help="go on with the unfinished game in the journal")
    journal.add_argument("--new", action="store_true", help="start a new game even if one is unfinished")
    # A service: what it does (link state, camera, recoveries) is logged at INFO unless told otherwise.
    parser.set_defaults(run=run, **{DEFAULT_LEVEL_KEY: logging.INFO})


class _EventEcho:
    """Prints each journaled event (after it is on disk) with the journal's sequence number."""

    def __init__(self, *, printing: bool) -> None:
        self.game_over = threading.Event()
        self._printing = printing

    def on_update(self, update: CoreUpdate) -> None:
        first = update.journal_seq - len(update.events) + 1
        for offset, event in enumerate(update.events if self._printing else ()):
            print(f"event {first + offset} {encode_event(event)}", flush=True)
        if update.state.finished:
            self.game_over.set()


def run(args: argparse.Namespace) -> int:
    # Imported here: the runtime brings OpenCV, numpy, onnxruntime and aiohttp (fast start for the rest).
    from table_app.runtime.app import build_runtime  # noqa: PLC0415
    from table_app.runtime.camera import camera_pipeline  # noqa: PLC0415
    from table_app.runtime.config import load_config  # noqa: PLC0415

    config = load_config(args.config)
    resume, what = _journal_choice(args, config.db)
    echo = _EventEcho(printing=args.echo_events)
    runtime = build_runtime(config, vision=camera_pipeline, listeners=(echo,), resume=resume)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    print(f"journal {config.db}: {what}", file=sys.stderr, flush=True)
    try:
        server = _serve(runtime) if config.web is not None else None
    except BaseException:
        runtime.store.close()  # a port in use: nothing started, the journal let go
        raise
    systemd = Notifier()
    try:
        runtime.start()
        systemd.ready(f"refereeing, journal {config.db}")
        _wait(args, runtime, echo, stop, _watchdog(systemd, runtime))
    finally:
        systemd.stopping()
        if server is not None:
            server.stop()
        runtime.stop()
    if runtime.core.failure is not None:
        print(f"jantaku run: the referee stopped: {runtime.core.failure}", file=sys.stderr)
        return 1
    print(f"scores {' '.join(str(s) for s in runtime.core.session.game.scores)}", flush=True)
    return 0


def _journal_choice(args: argparse.Namespace, db: Path) -> tuple[bool, str]:
    """Whether to resume the journal's unfinished game, and what is done, in words. An
    unfinished game is never resumed nor left behind unless the command line says so."""
    from table_app.runtime.app import unfinished_game  # noqa: PLC0415 (the runtime is imported when it runs)

    unfinished = unfinished_game(db)
    if unfinished is None:
        if args.resume:
            raise ValueError(f"no unfinished game in {db} to resume (without --resume a new game starts)")
        return False, "starting a new game"
    where = f"game {unfinished.id} ({unfinished.profile}, {unfinished.hands} hands played)"
    if args.resume:
        return True, f"resuming {where}"
    if args.new:
        return False, f"starting a new game (game {unfinished.id} stays unfinished)"
    raise ValueError(
        f"{db}: game {unfinished.id} is unfinished ({unfinished.hands} hands played): "
        "--resume to go on with it, --new to start another"
    )


def _serve(runtime: Runtime) -> BackgroundWebServer:
    from table_app.runtime.web_attach import attach_web  # noqa: PLC0415 (brings aiohttp)

    web = runtime.config.web
    assert web is not None
    token = os.environ.get(TOKEN_VARIABLE)
    if not token:
        token = secrets.token_urlsafe(12)
        # Printed once for the referee to log in; deliberately not sent through logging.
        print(f"console token: {token}", file=sys.stderr)
    server = attach_web(runtime, web.host, web.port, token)
    url = server.url
    print(f"table display {url}/   overlay {url}/overlay   console {url}/console", file=sys.stderr, flush=True)
    return server


def _watchdog(systemd: Notifier, runtime: Runtime) -> Watchdog | None:
    """systemd's watchdog (``WatchdogSec=`` in the unit), pinged while the core thread is alive."""
    interval = watchdog_interval_s()
    if interval is None or not systemd.enabled:
        return None
    return Watchdog(systemd, interval, lambda: runtime.core.alive(within_s=interval))


def _wait(
    args: argparse.Namespace, runtime: Any, echo: _EventEcho, stop: threading.Event, watchdog: Watchdog | None = None
) -> None:
    deadline = args.duration
    step = 0.1
    waited = 0.0
    while not stop.wait(step):
        waited += step
        if watchdog is not None:
            watchdog.poke()
        if runtime.core.stopped.is_set():
            return
        if deadline is not None and waited >= deadline:
            return
        if args.until_end and (echo.game_over.is_set() or (runtime.finished is not None and runtime.finished.is_set())):
            runtime.core.drain()
            return
