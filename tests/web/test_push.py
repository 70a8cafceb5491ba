"""WebSocket push against the running server: the current view on connect, then every new view."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import aiohttp

from tests.web.conftest import step_to

TIMEOUT_S = 5.0


async def _next_view(socket: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    message = await asyncio.wait_for(socket.receive(), TIMEOUT_S)
    assert message.type is aiohttp.WSMsgType.TEXT, message
    data = json.loads(message.data)
    assert data["type"] == "view"
    return data["view"]


def _step_on_another_thread(feed, count: int) -> threading.Thread:
    """The runtime publishes from its core thread, not the server's loop: do the same."""
    thread = threading.Thread(target=lambda: [feed.step() for _ in range(count)])
    thread.start()
    return thread


def test_a_client_gets_the_current_view_then_every_new_one_in_order(served):
    step_to(served.feed, 5)

    async def scenario() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{served.url}/ws") as socket:
            first = await _next_view(socket)
            assert first == served.feed.current().to_json()
            stepper = _step_on_another_thread(served.feed, 20)
            received = [await _next_view(socket) for _ in range(20)]
            stepper.join(TIMEOUT_S)
            assert [view["sequence"] for view in received] == list(range(first["sequence"] + 1, first["sequence"] + 21))
            assert received[-1] == served.feed.current().to_json()

    asyncio.run(scenario())


def test_every_client_gets_the_same_views(served):
    async def scenario() -> None:
        async with aiohttp.ClientSession() as session:
            sockets = [await session.ws_connect(f"{served.url}/ws") for _ in range(3)]
            for socket in sockets:
                await _next_view(socket)
            stepper = _step_on_another_thread(served.feed, 3)
            stepper.join(TIMEOUT_S)
            for socket in sockets:
                views = [await _next_view(socket) for _ in range(3)]
                assert views[-1] == served.feed.current().to_json()
                await socket.close()

    asyncio.run(scenario())


def test_a_console_undo_is_pushed_too(served):
    step_to(served.feed, 3)

    async def scenario() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{served.url}/ws") as socket:
            await _next_view(socket)
            async with session.post(
                f"{served.url}/api/console/undo", headers={"X-Jantaku-Token": "test-referee-token"}
            ) as reply:
                assert reply.status == 200
            pushed = await _next_view(socket)
            assert pushed == served.feed.current().to_json()
            assert served.feed.position == 2

    asyncio.run(scenario())
