"""Frame → WebSocket: a discard appearing in a camera frame until the display's socket shows it.

Plays a logged game as ``jantaku demo`` does (the rendered world filmed by the fixed camera,
the real vision pipeline: table reader, ONNX classifier, tracker; the simulated board over a
pty; the referee core with its SQLite journal; the web server) and listens on ``/ws`` like a
display. For every scene that adds a tile to a pond, the latency is from the timestamp of the
first frame showing it to the first WebSocket message whose view holds it. The frames come in
lockstep with the reader (each scene is filmed until the pipeline has read it), so the figure
is what the pipeline adds: reading the frames the tracker needs to confirm a change, the core's
judgement and journal, the view and the push. Also prints the reader's time per frame, the
game's wall time and the process's peak resident memory.

    .venv/bin/python bench/bench_frame_latency.py [--log FILE] [--hands N] [--port 8093]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import tempfile
import threading
import time
from pathlib import Path

import aiohttp

from table_app.demo_data import DEMO_LOG
from table_app.logs import read_log
from table_app.rules.events import EndGame, EndKyoku
from table_app.rules.mjai_codec import encode_event
from table_app.runtime.app import build_runtime
from table_app.runtime.demo_support import check_against_log, demo_config, play_to_the_end
from table_app.runtime.demo_world import DemoWorld, rendered_world
from table_app.runtime.web_attach import attach_web
from vision.render.game_scene import Scene

TOKEN = "bench-token"


class SceneClock:
    """When the game's k-th discard was first filmed (discards counted over the whole game)."""

    def __init__(self) -> None:
        self.filmed: list[float] = []  # index k: the frame time of discard k
        self._hand = -1
        self._ponds = (0, 0, 0, 0)

    def __call__(self, scene: Scene, at: float) -> None:
        ponds = tuple(len(seat.pond.tiles) for seat in scene.layout.seats)
        before = (0, 0, 0, 0) if scene.hand != self._hand else self._ponds
        # A call takes a tile out of the pond it came from: only growth is a discard.
        grown = sum(max(0, now - then) for now, then in zip(ponds, before, strict=True))
        self.filmed.extend([at] * grown)
        self._hand, self._ponds = scene.hand, ponds


class SocketClock:
    """When the game's k-th discard first reached the display (its ponds keep called tiles)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.shown: list[float] = []  # index k: the arrival of the first view holding discard k
        self.stop = threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self._listen()), daemon=True)

    async def _listen(self) -> None:
        earlier_hands = 0
        last = 0
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{self.url}/ws", heartbeat=None) as socket:
            while not self.stop.is_set():
                try:
                    message = await socket.receive(timeout=0.5)
                except TimeoutError:
                    continue
                if message.type is not aiohttp.WSMsgType.TEXT:
                    break
                arrived = time.monotonic()
                envelope = json.loads(message.data)
                if envelope.get("type") != "view":
                    continue
                view = envelope["view"]
                discards = sum(len(player.get("pond", [])) for player in view.get("seats", []))
                if discards < last:  # a new hand cleared the ponds
                    earlier_hands += last
                last = discards
                while len(self.shown) < earlier_hands + discards:
                    self.shown.append(arrived)


def short_log(source: Path, hands: int, folder: Path) -> Path:
    """The first ``hands`` hands of ``source`` as an mjai file (the demo reads any log)."""
    events = read_log(source)[0].events
    ends = [i for i, event in enumerate(events) if isinstance(event, EndKyoku)]
    cut = (*events[: ends[min(hands, len(ends)) - 1] + 1], EndGame())
    path = folder / f"first-{hands}.mjson"
    path.write_text("".join(encode_event(e) + "\n" for e in cut), encoding="utf-8")
    return path


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log", type=Path, default=DEMO_LOG)
    parser.add_argument("--hands", type=int, default=2, help="play the first N hands (default 2)")
    parser.add_argument("--port", type=int, default=8093)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        log = short_log(args.log, args.hands, Path(folder))
        config = demo_config(log, Path(folder) / "bench.db", pace_s=0.0, camera="renderer")
        runtime = build_runtime(config, vision=rendered_world(), out=None)
        world = next(source for source in runtime.sources if isinstance(source, DemoWorld))
        scenes = SceneClock()
        world.world.on_scene(scenes)
        server = attach_web(runtime, "127.0.0.1", args.port, TOKEN)
        socket = SocketClock(f"http://127.0.0.1:{args.port}")
        socket.thread.start()
        started = time.monotonic()
        try:
            final = play_to_the_end(runtime, 1800.0)
            time.sleep(0.5)  # the last pushes
        finally:
            socket.stop.set()
            server.stop()
        elapsed = time.monotonic() - started
        check = check_against_log(final, read_log(log)[0])
    latencies = [(shown - filmed) * 1000 for filmed, shown in zip(scenes.filmed, socket.shown, strict=False)]
    stats = getattr(world.pipeline, "stats", None)
    print(f"game: {log.name}, {check.summary}; {elapsed:.1f} s wall")
    print(f"discards filmed {len(scenes.filmed)}, shown on the socket {len(socket.shown)}")
    if latencies:
        print(
            f"frame → WebSocket   median {statistics.median(latencies):.0f} ms   "
            f"p95 {percentile(latencies, 0.95):.0f} ms   max {max(latencies):.0f} ms"
        )
    if stats is not None:
        print(f"pipeline: {stats}")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
