"""WebSocket push latency: from a new view in the feed to a connected client holding it.

Replays a real game through :class:`ReplayFeed` with the web server running on its own
thread (as the runtime will run it) and one WebSocket client on the main thread. For every
event: the time from calling ``feed.step()`` (fold, build the view, serialise it, hop onto
the server's loop, send) until the client has received and parsed the message. Also the
cost of building and serialising one view on its own. Prints median, p95 and max.

With ``--browser``, also the time from ``feed.step()`` to the table display in headless
Chromium having drawn the view (the page's ``jantaku:drawn`` event; both clocks are this
machine's wall clock, so the figure has millisecond resolution).

    .venv/bin/python bench/bench_web.py [LOG] [--clients N] [--browser] [--steps N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

import aiohttp
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the browser is the web tests' own

from table_app.logs import read_log
from table_app.rules.events import GameEvent
from table_app.rules.fold import apply, new_game
from table_app.rules.state import GameState
from table_app.view.build import build_view
from table_app.web.background import BackgroundWebServer
from table_app.web.replay_feed import ReplayConsole, ReplayFeed
from table_app.web.server import create_app
from tests.web.browser import headless_chromium

DEFAULT = (
    Path(__file__).resolve().parent.parent.parent
    / "shared"
    / "data"
    / "logs"
    / "mjx_full"
    / "2010081709gm-00a9-0000-fe3371ad.mjlog"
)


def percentile(sorted_values: list[float], fraction: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def summary(name: str, values_ms: list[float]) -> str:
    ordered = sorted(values_ms)
    return (
        f"{name}: n={len(ordered)}  median {statistics.median(ordered):.2f} ms  "
        f"p95 {percentile(ordered, 0.95):.2f} ms  max {ordered[-1]:.2f} ms"
    )


async def push_latencies(feed: ReplayFeed, url: str, clients: int) -> list[float]:
    latencies: list[float] = []
    async with aiohttp.ClientSession() as session:
        sockets = [await session.ws_connect(f"{url}/ws") for _ in range(clients)]
        for socket in sockets:
            await socket.receive()  # the current view
        while True:
            started = time.perf_counter()
            # Stepping on a worker thread, as the runtime's core thread will publish.
            if not await asyncio.to_thread(feed.step):
                break
            for socket in sockets:
                message = await asyncio.wait_for(socket.receive(), 5)
                json.loads(message.data)
            latencies.append((time.perf_counter() - started) * 1000)
        for socket in sockets:
            await socket.close()
    return latencies


def busiest_state(events: tuple[GameEvent, ...]) -> GameState:
    """The state with the most pond tiles on the table: the largest view of the game."""
    state, busiest, most = new_game(), new_game(), -1
    for event in events:
        state = apply(state, event)
        tiles = 0 if state.hand is None else sum(len(player.pond) for player in state.hand.players)
        if tiles > most:
            busiest, most = state, tiles
    return busiest


def browser_latencies(feed: ReplayFeed, url: str, steps: int) -> list[float]:
    # The browser tests' own headless Chromium (same flags, a throw-away profile).
    with headless_chromium() as driver:
        driver.get(f"{url}/")
        WebDriverWait(driver, 10).until(
            lambda d: d.execute_script("return document.body.dataset.sequence") == str(feed.current().sequence)
        )
        driver.execute_script(
            "window.drawnAt = {};"
            "document.addEventListener('jantaku:drawn', (e) => { window.drawnAt[e.detail] = Date.now(); });"
        )
        stepped: dict[int, float] = {}
        for _ in range(steps):
            started = time.time() * 1000
            if not feed.step():
                break
            stepped[feed.current().sequence] = started
            last = feed.current().sequence
            WebDriverWait(driver, 10, poll_frequency=0.005).until(
                lambda d, last=last: d.execute_script("return window.drawnAt[arguments[0]] || null", last)
            )
        drawn = driver.execute_script("return window.drawnAt")
        return [float(drawn[str(seq)]) - started for seq, started in stepped.items() if str(seq) in drawn]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("log", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--clients", type=int, default=3, help="WebSocket clients (display, overlay, console)")
    parser.add_argument("--browser", action="store_true", help="also step → drawn in headless Chromium")
    parser.add_argument("--steps", type=int, default=300, help="events stepped for --browser")
    args = parser.parse_args()
    game = read_log(args.log)[0]

    feed = ReplayFeed(game.events)
    server = BackgroundWebServer(create_app(feed, ReplayConsole(feed), "bench-token"))
    server.start()
    try:
        latencies = asyncio.run(push_latencies(feed, server.url, args.clients))
        if args.browser:
            browser_feed = ReplayFeed(game.events)
            browser_server = BackgroundWebServer(create_app(browser_feed, ReplayConsole(browser_feed), "bench"))
            browser_server.start()
            try:
                drawn_ms = browser_latencies(browser_feed, browser_server.url, args.steps)
            finally:
                browser_server.stop()
    finally:
        server.stop()

    build_ms: list[float] = []
    state = busiest_state(game.events)
    for _ in range(500):
        started = time.perf_counter()
        json.dumps(build_view(state).to_json(), ensure_ascii=False)
        build_ms.append((time.perf_counter() - started) * 1000)

    print(f"{args.log.name}: {len(game.events)} events, {args.clients} WebSocket clients")
    print(summary("step → every client has the view", latencies))
    print(summary("build + serialise the largest view", build_ms))
    if args.browser:
        print(summary("step → drawn on the display in Chromium", drawn_ms))


if __name__ == "__main__":
    main()
