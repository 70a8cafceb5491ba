"""WebSocket push: every new view from the feed goes to every connected page.

The feed may publish on any thread; the hub hops onto the event loop with
``call_soon_threadsafe`` and serialises each view once for all clients.
"""

from __future__ import annotations

import asyncio
import contextlib
import json

from aiohttp import web

from table_app.view.model import TableView
from table_app.view.ports import Unsubscribe, ViewFeed
from table_app.web.socket_clients import SocketClients

#: Views a slow client may fall behind by before the oldest are dropped (only the latest matters).
CLIENT_BACKLOG = 32


def view_message(view: TableView) -> str:
    return json.dumps({"type": "view", "view": view.to_json()}, ensure_ascii=False)


class PushHub:
    def __init__(self, feed: ViewFeed) -> None:
        self._feed = feed
        self._clients = SocketClients(CLIENT_BACKLOG)
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
        await self._clients.close_all()

    def _on_view(self, view: TableView) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed between the check and the call
                loop.call_soon_threadsafe(self._broadcast, view_message(view))

    def _broadcast(self, message: str) -> None:
        for queue in self._clients.queues():
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(message)

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        # The current view goes first; a newer one may overtake it, so pages drop views whose
        # sequence is not newer than the last one they drew.
        return await self._clients.serve(request, lambda: view_message(self._feed.current()))
