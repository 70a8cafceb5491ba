"""Serving the table display, overlay and console from a running referee (``[web]`` in the config).

Kept apart from the rest of the runtime so that only a table that serves pages loads the web
framework. The feed is a core listener; the console's commands go to the core thread.
"""

from __future__ import annotations

from table_app.runtime.app import Runtime
from table_app.runtime.ports import CoreUpdate
from table_app.runtime.web_bridge import RuntimeConsoleSink, RuntimeViewFeed
from table_app.web.background import BackgroundWebServer
from table_app.web.server import create_app


def attach_web(runtime: Runtime, host: str, port: int, token: str) -> BackgroundWebServer:
    """A web server over ``runtime`` (started; stop it before ``runtime.stop()``)."""
    config = runtime.config
    feed = RuntimeViewFeed(
        runtime.core.session.setup.profile,
        # A feed with a camera is the demo's rendered world, which brings its own simulated board.
        has_link=config.link is not None
        or (config.feed is not None and (config.feed.simulate_board or config.camera is not None)),
        has_camera=config.camera is not None,
    )
    core = runtime.core
    session = core.session
    # The pages start from where the game stands (a resumed game), not from an empty table.
    feed.on_update(
        CoreUpdate(
            core.game_id, session.game, (), (), session.question, core.journal_seq, session.link, session.camera_ok
        )
    )
    core.add_listener(feed)
    server = BackgroundWebServer(create_app(feed, RuntimeConsoleSink(runtime.core), token), host, port)
    server.start()
    return server
