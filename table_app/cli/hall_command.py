"""``jantaku hall``: every table of a hall in one place: subscribe to the hall's MQTT broker,
keep the hall's journal, serve the hall page, standings, the broadcast overlay of the feature
table and the hall console (docs/hall.md)."""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from table_app.cli.logging_options import DEFAULT_LEVEL_KEY

TOKEN_VARIABLE = "JANTAKU_CONSOLE_TOKEN"
EXAMPLES = """examples:
  scripts/hall-broker                                    # a local Mosquitto for a hall (another terminal)
  jantaku hall --hall club --broker mqtt://127.0.0.1:1883
  jantaku hall --hall cup --broker mqtts://hall.example:8883 --username hall --password-file hall.pw --db cup.db"""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "hall",
        help="every table's game in one place: hall page, standings, overlay and console over MQTT",
        description=(
            "Subscribe to the tables of a hall on its MQTT broker, keep their journals in the hall's own "
            "(SQLite), and serve the hall page (/), the broadcast overlay of the feature table (/overlay) "
            f"and the hall console (/console; token from ${TOKEN_VARIABLE}, else a random one printed once)."
        ),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--hall", required=True, help="the hall's name (the tables' [hall] hall)")
    parser.add_argument("--broker", required=True, metavar="URL", help="mqtt://host[:1883] or mqtts://host[:8883]")
    parser.add_argument("--db", type=Path, default=Path("hall.db"), help="the hall's journal (default: hall.db)")
    parser.add_argument("--username", help="the hall's broker user")
    parser.add_argument(
        "--password-file", type=Path, help="a file holding the broker password ($JANTAKU_HALL_PASSWORD)"
    )
    parser.add_argument("--tls-ca", type=Path, help="mqtts: the CA of the broker's certificate (default: the system's)")
    parser.add_argument("--tls-cert", type=Path, help="mqtts: a client certificate")
    parser.add_argument("--tls-key", type=Path, help="mqtts: the client certificate's key")
    parser.add_argument("--host", default="127.0.0.1", help="address to serve the pages on (default: this machine)")
    parser.add_argument("--port", type=int, default=8090)
    parser.add_argument("--duration", type=float, metavar="S", help="stop after S seconds (tests)")
    parser.set_defaults(run=run, **{DEFAULT_LEVEL_KEY: logging.INFO})


def run(args: argparse.Namespace) -> int:
    # Imported here: MQTT and the web server are not light (fast start for the other commands).
    from table_app.hall.book import HallBook  # noqa: PLC0415
    from table_app.hall.broker import PASSWORD_VARIABLE, BrokerConfig, parse_broker_url  # noqa: PLC0415
    from table_app.hall.protocol import check_name  # noqa: PLC0415
    from table_app.hall.store import HallStore  # noqa: PLC0415
    from table_app.hall.subscriber import HallSubscriber  # noqa: PLC0415
    from table_app.hall.web import create_hall_app  # noqa: PLC0415
    from table_app.web.background import BackgroundWebServer  # noqa: PLC0415

    hall = check_name("--hall", args.hall)
    try:
        host, port, tls = parse_broker_url(args.broker)
    except ValueError as error:
        raise ValueError(f"--broker: {error}") from None
    password = os.environ.get(PASSWORD_VARIABLE)
    if args.password_file is not None:
        password = args.password_file.read_text(encoding="utf-8").strip()
    for option in ("tls_ca", "tls_cert", "tls_key"):
        if getattr(args, option) is not None and not tls:
            raise ValueError(f"--{option.replace('_', '-')}: TLS files need an mqtts:// broker")
    broker = BrokerConfig(host, port, tls, args.username, password, args.tls_ca, args.tls_cert, args.tls_key)
    token = os.environ.get(TOKEN_VARIABLE)
    if not token:
        token = secrets.token_urlsafe(12)
        print(f"console token: {token}", file=sys.stderr)  # once, for the director to log in; never logged
    store = HallStore(args.db)
    try:
        book = HallBook(store)
        server = BackgroundWebServer(create_hall_app(book, hall, token), args.host, args.port)
        server.start()
        subscriber = HallSubscriber(book, broker, hall).start()
        url = server.url
        print(f"hall page {url}/   overlay {url}/overlay   console {url}/console", file=sys.stderr, flush=True)
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        signal.signal(signal.SIGINT, lambda *_: stop.set())
        stop.wait(args.duration)
        subscriber.stop()
        server.stop()
        counts = book.counts()
        print(
            f"hall {hall}: {counts.new} rows kept, {counts.duplicates} duplicates, "
            f"{counts.conflicts} conflicts, {counts.refused} refused",
            flush=True,
        )
    finally:
        store.close()
    return 0
