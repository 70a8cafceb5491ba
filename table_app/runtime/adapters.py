"""Adapters: the table link, the GPIO panel and a log feed, each posting observations.

Each converts its own types into :mod:`table_app.observations` at the edge, on its own thread;
none touches the game state. A vision pipeline plugs in the same way (``ObservationSource``).
"""

from __future__ import annotations

import logging
import threading
import warnings
from collections.abc import Callable, Iterable
from typing import Any

from gpiozero.exc import BadPinFactory, GPIOZeroError, PinFactoryFallback

from firmware_bridge.observations import CommandAnswer, LinkState, LinkStatus, TrayReading
from firmware_bridge.serial_link import SerialTableLink
from firmware_bridge.sim_script import TableScript
from firmware_bridge.sim_transport import PtyTableServer
from firmware_bridge.simulator import TableSimulator
from hardware.panel import GpioPanel, PanelPins, PanelPress
from table_app.observations import (
    ButtonPress,
    HandStarted,
    LinkChanged,
    LinkHealth,
    Observation,
    RefereeButton,
    TraysRead,
)
from table_app.runtime.config import ConfigError
from table_app.runtime.ports import Post

logger = logging.getLogger(__name__)

_HEALTH = {
    LinkState.CONNECTED: LinkHealth.CONNECTED,
    LinkState.CONNECTING: LinkHealth.CONNECTING,
    LinkState.LOST: LinkHealth.LOST,
    LinkState.INCOMPATIBLE: LinkHealth.INCOMPATIBLE,
}


class LinkTranslator:
    """The link's outputs → observations. A new value of the board's hand counter is a new deal."""

    def __init__(self, post: Post) -> None:
        self._post = post
        self._hand: int | None = None

    def __call__(self, output: object) -> None:
        if isinstance(output, TrayReading):
            if self._hand is not None and output.hand != self._hand:
                self._post(HandStarted(output.at))
            self._hand = output.hand
            self._post(TraysRead(output.at, output.points, output.deposit, output.wall, output.kans, output.plausible))
        elif isinstance(output, LinkStatus) and output.state is not LinkState.CLOSED:
            # CLOSED is our own shutdown, not a fault to announce.
            self._post(LinkChanged(output.at, _HEALTH[output.state], output.detail))
        elif isinstance(output, CommandAnswer):
            logger.debug("board answered command %d: %s", output.echoed_seq, output.accepted)


class LinkSource:
    """The serial link to the sensor board (a device, a pty path or a pyserial URL)."""

    def __init__(self, port: str, **link_options: Any) -> None:
        self._port = port
        self._options = link_options
        self._link: SerialTableLink | None = None

    def start(self, post: Post) -> None:
        self._link = SerialTableLink(self._port, LinkTranslator(post), **self._options).start()

    def stop(self) -> None:
        if self._link is not None:
            self._link.stop()


class PanelSource:
    """The GPIO panel's buttons as observations (``panel`` is also a listener's target)."""

    def __init__(self, pins: PanelPins, pin_factory: Any = None) -> None:
        self._post: Post | None = None
        # The pins are claimed now, while the table is being wired: a machine without GPIO
        # stops there with one line (what to change), before anything else has started.
        with warnings.catch_warnings(record=True) as fallbacks:
            # gpiozero warns once per pin library it tries; they are the reasons, not news.
            warnings.simplefilter("always", PinFactoryFallback)
            try:
                self.panel: GpioPanel | None = GpioPanel(pins, self._pressed, pin_factory=pin_factory)
            except BadPinFactory:
                for fallback in fallbacks:
                    logger.debug("GPIO: %s", fallback.message)
                raise ConfigError(
                    "panel",
                    "no GPIO on this machine: set enabled = false under [panel] to run without the buttons, "
                    "LEDs and buzzer",
                ) from None
            except (GPIOZeroError, OSError) as error:
                raise ConfigError(
                    "panel",
                    f"cannot use the GPIO pins ({type(error).__name__}: {error}): check the pin numbers and that "
                    "the user is in the gpio group (jantaku doctor), or set enabled = false under [panel]",
                ) from None

    def start(self, post: Post) -> None:
        self._post = post  # presses before this are dropped: nothing listens yet

    def _pressed(self, press: PanelPress) -> None:
        if self._post is not None:
            self._post(ButtonPress(press.at, RefereeButton(press.button.value)))

    def stop(self) -> None:
        if self.panel is not None:
            self.panel.close()


class FeedSource:
    """Posts a prepared sequence of observations on its own thread, ``pace_s`` apart (0: at once).

    The stepping stone for the demo (:mod:`table_app.interpret.event_observations`) and for reliability
    tests; ``skip`` observations are left out (a feed resuming where the journal stands)."""

    def __init__(
        self, observations: Iterable[Observation], pace_s: float = 0.0, skip: int = 0, delay_s: float = 0.0
    ) -> None:
        self._observations = observations
        self._pace_s = pace_s
        self._skip = skip
        self._delay_s = delay_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.finished = threading.Event()

    def start(self, post: Post) -> None:
        self._thread = threading.Thread(target=self._run, args=(post,), name="feed", daemon=True)
        self._thread.start()

    def _run(self, post: Post) -> None:
        if self._delay_s and self._stop.wait(self._delay_s):
            self.finished.set()
            return
        observations = list(self._observations)
        # Resuming: the board is there as before a restart, as a real link would find it on
        # reconnecting (its state, then its latest reading).
        for kind in (LinkChanged, TraysRead):
            latest = next((o for o in reversed(observations[: self._skip]) if isinstance(o, kind)), None)
            if latest is not None:
                post(latest)
        for index, observation in enumerate(observations):
            if index < self._skip:
                continue
            if self._stop.is_set():
                break
            post(observation)
            if self._pace_s and self._stop.wait(self._pace_s):
                break
        self.finished.set()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5.0)


class SimulatedBoardSource:
    """The sensor board played by the table simulator over a pty, read by the real link: the
    board's side of ``jantaku demo``. The script's clock starts when this source starts, unless
    ``script_clock`` gives it (the demo's rendered world: the board follows the world's steps)."""

    def __init__(
        self, script: TableScript, snapshot_s: float = 0.02, script_clock: Callable[[], float] | None = None
    ) -> None:
        self._simulator = TableSimulator(script, snapshot_interval_s=snapshot_s, script_clock=script_clock)
        self.server: PtyTableServer | None = None
        self._link: LinkSource | None = None

    def start(self, post: Post) -> None:
        self.server = PtyTableServer(self._simulator).start()
        self._link = LinkSource(str(self.server.path))
        self._link.start(post)

    def stop(self) -> None:
        if self._link is not None:
            self._link.stop()
        if self.server is not None:
            self.server.stop()
