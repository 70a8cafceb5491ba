"""WebSocket push: every new view from the feed goes to every connected page.

The feed may publish on any thread; the hub hops onto the event loop with
``call_soon_threadsafe`` and serialises each view once for all clients.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from aiohttp import WSCloseCode, WSMsgType, web

from table_app.view.model import TableView
from table_app.view.ports import Unsubscribe, ViewFeed

logger = logging.getLogger(__name__)

#: Views a slow client may fall behind by before the oldest are dropped (only the latest matters).
CLIENT_BACKLOG = 32


def view_message(view: TableView) -> str:
    return json.dumps({"type": "view", "view": view.to_json()}, ensure_ascii=False)


class PushHub:
    def __init__(self, feed: ViewFeed) -> None:
        self._feed = feed
        self._clients: set[asyncio.Queue[str]] = set()
        self._sockets: set[web.WebSocketResponse] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._unsubscribe: Unsubscribe | None = None

    @property
    def client_count(self) -> int:
        return len(self._clients)

    async def start(self, _app: web.Application) -> None:
        self._loop = asyncio.get_running_loop()
        self._unsubscribe = self._feed.subscribe(self._on_view)

    async def stop(self, _app: web.Application) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    async def close_all(self, _app: web.Application) -> None:
        """On shutdown: open sockets would otherwise hold the server up until they time out."""
        for socket in tuple(self._sockets):
            await socket.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown")

    def _on_view(self, view: TableView) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed between the check and the call
                loop.call_soon_threadsafe(self._broadcast, view_message(view))

    def _broadcast(self, message: str) -> None:
        for queue in self._clients:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(message)

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(heartbeat=20.0)
        await socket.prepare(request)
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=CLIENT_BACKLOG)
        # The current view goes first; a newer one may overtake it, so pages drop views whose
        # sequence is not newer than the last one they drew.
        queue.put_nowait(view_message(self._feed.current()))
        self._clients.add(queue)
        self._sockets.add(socket)
        sender = asyncio.create_task(self._send_loop(socket, queue))
        logger.info("websocket client connected (%d now)", len(self._clients))
        try:
            async for message in socket:
                # Pages only listen; console actions go through the authenticated HTTP API.
                if message.type is WSMsgType.ERROR:
                    break
        finally:
            self._clients.discard(queue)
            self._sockets.discard(socket)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender
            logger.info("websocket client gone (%d left)", len(self._clients))
        return socket

    @staticmethod
    async def _send_loop(socket: web.WebSocketResponse, queue: asyncio.Queue[str]) -> None:
        while not socket.closed:
            message = await queue.get()
            try:
                await socket.send_str(message)
            except ConnectionError:
                return
