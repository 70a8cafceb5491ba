"""``jantaku demo``: the main job with no hardware.

A real game (shipped, or ``--log``) is played as the table would show it: the camera side by
the synthetic renderer (a fixed camera over the table, corner markers and all) read by the
real vision pipeline, the board side by the table simulator over a pty, read by the real serial
link, in step with the camera; the referee core judges every act, journals it in SQLite and
announces it; the display, overlay and console are served on http://127.0.0.1:8080.
``--camera log`` plays the camera's observations straight from the log's public events
instead (``docs/runtime.md``: the log feed).
"""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from table_app.cli.web_command import TOKEN_VARIABLE
from table_app.demo_data import DEMO_LOG
from table_app.journal.schema import examine
from table_app.journal.store import GameStore
from table_app.logs.reader import read_log

EXAMPLES = """examples:
  jantaku demo                       # watch on http://127.0.0.1:8080 (overlay: /overlay)
  jantaku demo --fast --headless --check
  jantaku demo --log game.mjlog --port 8081
  jantaku demo --camera log          # the camera's observations from the log, no rendering"""

NORMAL_PACE_S = 0.5  # seconds per act: a brisk real game
FAST_PACE_S = 0.01  # as fast as the pty and the link keep up
GAME_TIMEOUT_S = 3600.0
LOG_CAMERA = "log"
RENDERER = "renderer"  # table_app.runtime.demo_world.RENDERER, named here to keep `jantaku --help` light


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "demo",
        help="play a real game through the simulated table, the referee and the web display",
        description="Play a real game through the table simulator, the referee and the web display: no hardware.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--log", type=Path, default=DEMO_LOG, metavar="FILE", help="a game log (default: the shipped one)"
    )
    parser.add_argument("--fast", action="store_true", help="play as fast as possible")
    parser.add_argument(
        "--camera",
        choices=(RENDERER, LOG_CAMERA),
        default=RENDERER,
        help="renderer: frames drawn and read by the vision pipeline (default); log: the log's events as the camera",
    )
    parser.add_argument("--headless", action="store_true", help="no web server; print the final scores at the end")
    parser.add_argument("--check", action="store_true", help="compare every hand with the log; exit 1 on a mismatch")
    parser.add_argument("--db", type=Path, metavar="PATH", help="journal file to keep (default: a temporary one)")
    parser.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8080, help="port to serve on (default 8080)")
    parser.add_argument("--token", help=f"console token (else ${TOKEN_VARIABLE}, else a random one)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # Imported here: the runtime brings OpenCV, numpy, onnxruntime and aiohttp (fast start for the rest).
    from table_app.runtime.app import build_runtime  # noqa: PLC0415
    from table_app.runtime.demo_support import check_against_log, demo_config, play_to_the_end  # noqa: PLC0415
    from table_app.runtime.demo_world import classifier_pipeline, rendered_world  # noqa: PLC0415
    from table_app.runtime.web_attach import attach_web  # noqa: PLC0415

    logs = read_log(args.log)  # a broken log fails here, naming the file and position
    if not logs:
        raise ValueError(f"{args.log}: no game to play")
    if args.db is not None and args.camera == RENDERER:
        _refuse_a_game_to_resume(args.db)
    with tempfile.TemporaryDirectory(prefix="jantaku-demo-") as scratch:
        db = args.db or Path(scratch) / "demo.sqlite"
        pace_s = FAST_PACE_S if args.fast else NORMAL_PACE_S
        if args.camera == RENDERER:
            config = demo_config(args.log, db, pace_s=pace_s, camera=RENDERER)
            runtime = build_runtime(config, vision=rendered_world(classifier_pipeline), out=sys.stdout)
            print("camera: the game rendered on a table, read by the vision pipeline", file=sys.stderr)
        else:
            runtime = build_runtime(demo_config(args.log, db, pace_s=pace_s), out=sys.stdout)
            print("camera: the log's public events stand in for the camera (--camera log)", file=sys.stderr)
        server = None
        if not args.headless:
            token = args.token or os.environ.get(TOKEN_VARIABLE) or secrets.token_urlsafe(12)
            server = attach_web(runtime, args.host, args.port, token)
            base = f"http://{args.host}:{args.port}"
            print(f"display {base}/  overlay {base}/overlay  console {base}/console (token {token})", file=sys.stderr)
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        signal.signal(signal.SIGINT, lambda *_: stop.set())
        try:
            final = play_to_the_end(runtime, GAME_TIMEOUT_S, interrupt=stop)
            if server is not None and not args.check and not stop.is_set():
                print("game over; the display stays up: Ctrl-C to stop", file=sys.stderr, flush=True)
                stop.wait()
        finally:
            if server is not None:
                server.stop()
    if runtime.core.failure is not None:
        print(f"jantaku demo: the referee stopped: {runtime.core.failure}", file=sys.stderr)
        return 1
    scores = " ".join(str(s) for s in final.scores)
    print(f"final scores {scores}" if final.finished else f"stopped before the end; scores {scores}")
    if final.final_points is not None:
        print(f"final points {' '.join(f'{p:+.1f}' for p in final.final_points)}")
    if args.check:
        check = check_against_log(final, logs[0])
        for mismatch in check.mismatches:
            print(f"{args.log}: {mismatch.hand}: {mismatch.what}")
        print(check.summary)
        return 1 if check.mismatches else 0
    return 0


def _refuse_a_game_to_resume(db: Path) -> None:
    """The rendered world plays its game from the first frame: over a journal holding that game
    half played it would journal every act again. (``--camera log`` resumes where it stands.)"""
    if not examine(str(db)).exists:
        return
    store = GameStore(db, read_only=True)
    try:
        game = store.latest_unfinished()
        played = len(store.events(game)) if game is not None else 0
    finally:
        store.close()
    if game is not None and played:
        raise ValueError(
            f"--db {db}: game {game} in it is unfinished ({played} events); the rendered camera plays "
            "from the start and cannot resume it: use a fresh --db, or --camera log to resume it"
        )
