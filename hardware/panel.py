"""The referee's GPIO panel: three buttons, a link LED, four riichi LEDs and a buzzer.

``GpioPanel`` is built on gpiozero devices over a swappable pin factory (the real Pi's, or
``gpiozero.pins.mock.MockFactory`` in tests). ``RecordingPanel`` is the fake used where
there is no GPIO (the demo, app tests); both honour the :class:`Panel` port and are tested
against the same contract (``tests/hardware/test_panel_contract.py``).

Button presses are observations: the panel only *posts* a :class:`PanelPress` through
the callback it was given (gpiozero calls it from its own thread); the core thread decides
what a press means. Blinking and beeping run in gpiozero's background threads, so a busy
core thread never leaves the buzzer stuck on.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from gpiozero import LED, Button, Buzzer

from table_app.domain.seat import Seat

logger = logging.getLogger(__name__)


class PanelButton(StrEnum):
    CONFIRM = "confirm"  # accept what the referee core proposes
    UNDO = "undo"  # take back the last accepted event
    ATTENTION = "attention"  # call the referee's attention; also silences the buzzer


@dataclass(frozen=True, slots=True)
class PanelPress:
    """One of the panel's buttons pressed: the device's own event (the runtime posts it to the
    referee as the observation ``table_app.observations.ButtonPress``)."""

    button: PanelButton
    at: float  # monotonic seconds


class LinkLight(StrEnum):
    """What the link LED shows about the serial link to the table's sensor board."""

    OK = "ok"  # steady on
    DEGRADED = "degraded"  # slow blink: readings flagged, or reconnecting
    LOST = "lost"  # fast blink: no board


@dataclass(frozen=True, slots=True)
class BeepPattern:
    on_s: float
    off_s: float
    count: int


ILLEGAL_ACT_BEEP = BeepPattern(on_s=0.15, off_s=0.1, count=3)
NOTICE_BEEP = BeepPattern(on_s=0.05, off_s=0.05, count=1)


class PanelConfigError(ValueError):
    """A panel pin configuration that cannot work; names the field at fault."""


_BCM_GPIO = range(2, 28)


@dataclass(frozen=True, slots=True)
class PanelPins:
    """BCM pin numbers (see docs/gpio-panel.md for the default wiring)."""

    confirm: int = 17
    undo: int = 27
    attention: int = 22
    link_led: int = 5
    riichi_leds: tuple[int, int, int, int] = (6, 13, 19, 26)
    buzzer: int = 12
    bounce_s: float = 0.05
    slow_blink_s: float = 0.5
    fast_blink_s: float = 0.1

    def __post_init__(self) -> None:
        named = {
            "confirm": self.confirm,
            "undo": self.undo,
            "attention": self.attention,
            "link_led": self.link_led,
            "buzzer": self.buzzer,
            **{f"riichi_leds[{i}]": pin for i, pin in enumerate(self.riichi_leds)},
        }
        if len(self.riichi_leds) != 4:
            raise PanelConfigError(f"riichi_leds needs four pins, one per seat, got {len(self.riichi_leds)}")
        seen: dict[int, str] = {}
        for name, pin in named.items():
            if pin not in _BCM_GPIO:
                raise PanelConfigError(f"{name}: GPIO{pin} is not a usable BCM pin (2-27)")
            if pin in seen:
                raise PanelConfigError(f"{name}: GPIO{pin} is already used by {seen[pin]}")
            seen[pin] = name
        if self.bounce_s < 0 or self.slow_blink_s <= 0 or self.fast_blink_s <= 0:
            raise PanelConfigError("bounce and blink times must be positive")


class Panel(Protocol):
    """The port the core uses; presses arrive through the ``post`` callback."""

    @property
    def link_light(self) -> LinkLight: ...

    def set_link(self, light: LinkLight) -> None: ...

    def set_riichi(self, seat: Seat, on: bool) -> None: ...

    def riichi_lit(self, seat: Seat) -> bool: ...

    def beep(self, pattern: BeepPattern) -> None: ...

    def silence(self) -> None: ...

    def close(self) -> None: ...


PostPress = Callable[[PanelPress], None]


class GpioPanel:
    def __init__(
        self,
        pins: PanelPins,
        post: PostPress,
        *,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._pins = pins
        self._post = post
        self._clock = clock
        bounce = pins.bounce_s or None
        self._buttons = {
            PanelButton.CONFIRM: Button(pins.confirm, bounce_time=bounce, pin_factory=pin_factory),
            PanelButton.UNDO: Button(pins.undo, bounce_time=bounce, pin_factory=pin_factory),
            PanelButton.ATTENTION: Button(pins.attention, bounce_time=bounce, pin_factory=pin_factory),
        }
        for button, device in self._buttons.items():
            device.when_pressed = self._press_handler(button)
        self._link_led = LED(pins.link_led, pin_factory=pin_factory)
        self._riichi_leds = tuple(LED(pin, pin_factory=pin_factory) for pin in pins.riichi_leds)
        self._buzzer = Buzzer(pins.buzzer, pin_factory=pin_factory)
        self._link_light = LinkLight.LOST
        self.set_link(LinkLight.LOST)

    def _press_handler(self, button: PanelButton) -> Callable[[], None]:
        def handler() -> None:
            if button is PanelButton.ATTENTION:
                self.silence()
            self._post(PanelPress(button, self._clock()))

        return handler

    @property
    def link_light(self) -> LinkLight:
        return self._link_light

    def set_link(self, light: LinkLight) -> None:
        self._link_light = light
        match light:
            case LinkLight.OK:
                self._link_led.on()
            case LinkLight.DEGRADED:
                self._link_led.blink(on_time=self._pins.slow_blink_s, off_time=self._pins.slow_blink_s)
            case LinkLight.LOST:
                self._link_led.blink(on_time=self._pins.fast_blink_s, off_time=self._pins.fast_blink_s)

    def set_riichi(self, seat: Seat, on: bool) -> None:
        led = self._riichi_leds[Seat(seat)]
        if on:
            led.on()
        else:
            led.off()

    def riichi_lit(self, seat: Seat) -> bool:
        return bool(self._riichi_leds[Seat(seat)].is_lit)

    def beep(self, pattern: BeepPattern) -> None:
        self._buzzer.beep(on_time=pattern.on_s, off_time=pattern.off_s, n=pattern.count, background=True)

    def silence(self) -> None:
        self._buzzer.off()

    def close(self) -> None:
        for device in (*self._buttons.values(), self._link_led, *self._riichi_leds, self._buzzer):
            device.close()


@dataclass
class RecordingPanel:
    """The fake panel: remembers what it was told, and presses buttons on request."""

    post: PostPress
    clock: Callable[[], float] = time.monotonic
    beeps: list[BeepPattern] = field(default_factory=list)
    silenced: int = 0
    closed: bool = False
    _link: LinkLight = LinkLight.LOST
    _riichi: list[bool] = field(default_factory=lambda: [False] * 4)

    def press(self, button: PanelButton) -> None:
        if button is PanelButton.ATTENTION:
            self.silence()
        self.post(PanelPress(button, self.clock()))

    @property
    def link_light(self) -> LinkLight:
        return self._link

    def set_link(self, light: LinkLight) -> None:
        self._link = light

    def set_riichi(self, seat: Seat, on: bool) -> None:
        self._riichi[Seat(seat)] = on

    def riichi_lit(self, seat: Seat) -> bool:
        return self._riichi[Seat(seat)]

    def beep(self, pattern: BeepPattern) -> None:
        self.beeps.append(pattern)

    def silence(self) -> None:
        self.silenced += 1

    def close(self) -> None:
        self.closed = True
