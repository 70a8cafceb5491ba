"""WebSocket push latency: from a new view in the feed to a connected client holding it.

Replays a real game through :class:`ReplayFeed` with the web server running on its own
thread (as the runtime will run it) and one WebSocket client on the main thread. For every
event: the time from calling ``feed.step()`` (fold, build the view, serialise it, hop onto
the server's loop, send) until the client has received and parsed the message. Also the
cost of building and serialising one view on its own. Prints median, p95 and max.

    .venv/bin/python bench/bench_web.py [LOG] [--clients N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from pathlib import Path

import aiohttp

from table_app.logs import read_log
from table_app.rules.events import GameEvent
from table_app.rules.fold import apply, new_game
from table_app.rules.state import GameState
from table_app.view.build import build_view
from table_app.web.background import BackgroundWebServer
from table_app.web.replay_feed import ReplayConsole, ReplayFeed
from table_app.web.server import create_app

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("log", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--clients", type=int, default=3, help="WebSocket clients (display, overlay, console)")
    args = parser.parse_args()
    game = read_log(args.log)[0]

    feed = ReplayFeed(game.events)
    server = BackgroundWebServer(create_app(feed, ReplayConsole(feed), "bench-token"))
    server.start()
    try:
        latencies = asyncio.run(push_latencies(feed, server.url, args.clients))
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


if __name__ == "__main__":
    main()
