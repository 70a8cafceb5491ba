"""Pages connected over WebSocket: each has its own queue of messages, drained by its own task,
so a slow page never holds the others up. Shared by the table's push hub and the hall's."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator

from aiohttp import WSCloseCode, WSMsgType, web

logger = logging.getLogger(__name__)


class SocketClients:
    def __init__(self, backlog: int) -> None:
        self._backlog = backlog  # messages a page may fall behind by; what the owner does then is its own
        self._queues: set[asyncio.Queue[str]] = set()
        self._sockets: set[web.WebSocketResponse] = set()

    def __len__(self) -> int:
        return len(self._queues)

    def queues(self) -> Iterator[asyncio.Queue[str]]:
        """Each connected page's queue (call on the event loop)."""
        return iter(self._queues)

    async def serve(self, request: web.Request, first: Callable[[], str]) -> web.WebSocketResponse:
        """Keep one page connected until it goes; ``first()`` is the message it gets on connecting."""
        socket = web.WebSocketResponse(heartbeat=20.0)
        await socket.prepare(request)
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=self._backlog)
        queue.put_nowait(first())
        self._queues.add(queue)
        self._sockets.add(socket)
        sender = asyncio.create_task(_send_loop(socket, queue))
        logger.info("websocket client connected (%d now)", len(self._queues))
        try:
            async for message in socket:
                # Pages only listen; console actions go through the authenticated HTTP API.
                if message.type is WSMsgType.ERROR:
                    break
        finally:
            self._queues.discard(queue)
            self._sockets.discard(socket)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender
            logger.info("websocket client gone (%d left)", len(self._queues))
        return socket

    async def close_all(self) -> None:
        """On shutdown: open sockets would otherwise hold the server up until they time out."""
        for socket in tuple(self._sockets):
            await socket.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown")


async def _send_loop(socket: web.WebSocketResponse, queue: asyncio.Queue[str]) -> None:
    while not socket.closed:
        message = await queue.get()
        try:
            await socket.send_str(message)
        except ConnectionError:
            return
