"""One contract for the GPIO panel (on gpiozero's MockFactory) and the recording fake."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.panel import (
    ILLEGAL_ACT_BEEP,
    BeepPattern,
    GpioPanel,
    LinkLight,
    Panel,
    PanelButton,
    PanelConfigError,
    PanelPins,
    PanelPress,
    RecordingPanel,
)
from table_app.domain.seat import Seat

PINS = PanelPins(bounce_s=0, slow_blink_s=0.01, fast_blink_s=0.005)
SHORT_BEEP = BeepPattern(on_s=0.005, off_s=0.005, count=2)


def eventually(predicate: Callable[[], bool], timeout: float = 2.0) -> bool:
    """Wait for a condition set by gpiozero's background thread, bounded by ``timeout``."""
    tick = threading.Event()
    waited = 0.0
    while not predicate():
        if waited >= timeout:
            return False
        tick.wait(0.002)
        waited += 0.002
    return True


@dataclass
class Rig:
    panel: Panel
    presses: queue.Queue[PanelPress]
    press: Callable[[PanelButton], None]
    buzzer_sounded: Callable[[], bool]


def gpio_rig() -> Iterator[Rig]:
    factory = MockFactory()
    presses: queue.Queue[PanelPress] = queue.Queue()
    panel = GpioPanel(PINS, presses.put, pin_factory=factory, clock=lambda: 42.0)
    pin_of = {PanelButton.CONFIRM: PINS.confirm, PanelButton.UNDO: PINS.undo, PanelButton.ATTENTION: PINS.attention}

    def press(button: PanelButton) -> None:
        pin = factory.pin(pin_of[button])
        pin.drive_low()  # buttons pull up: pressed is low
        pin.drive_high()

    def sounded() -> bool:
        return eventually(lambda: any(state.state for state in factory.pin(PINS.buzzer).states))

    yield Rig(panel, presses, press, sounded)
    panel.close()
    factory.reset()


def fake_rig() -> Iterator[Rig]:
    presses: queue.Queue[PanelPress] = queue.Queue()
    panel = RecordingPanel(presses.put, clock=lambda: 42.0)
    yield Rig(panel, presses, panel.press, lambda: bool(panel.beeps))


@pytest.fixture(params=["gpio", "fake"])
def rig(request: pytest.FixtureRequest) -> Iterator[Rig]:
    yield from (gpio_rig() if request.param == "gpio" else fake_rig())


@pytest.mark.parametrize("button", list(PanelButton))
def test_a_press_is_posted_once_with_the_clock(rig, button):
    rig.press(button)
    assert rig.presses.get(timeout=1) == PanelPress(button, 42.0)
    assert rig.presses.empty()


def test_riichi_leds_follow_each_seat(rig):
    rig.panel.set_riichi(Seat.S2, True)
    assert [rig.panel.riichi_lit(s) for s in Seat] == [False, False, True, False]
    rig.panel.set_riichi(Seat.S2, False)
    assert not any(rig.panel.riichi_lit(s) for s in Seat)


def test_link_light_starts_lost_and_follows(rig):
    assert rig.panel.link_light is LinkLight.LOST
    for light in (LinkLight.OK, LinkLight.DEGRADED, LinkLight.LOST):
        rig.panel.set_link(light)
        assert rig.panel.link_light is light


def test_beep_sounds_the_buzzer(rig):
    rig.panel.beep(SHORT_BEEP)
    assert rig.buzzer_sounded()


def test_riichi_led_seat_out_of_range_is_refused(rig):
    with pytest.raises(ValueError, match="4"):
        rig.panel.set_riichi(4, True)  # type: ignore[arg-type]


def test_gpio_link_led_is_steady_when_ok_and_blinks_when_lost():
    factory = MockFactory()
    panel = GpioPanel(PINS, lambda _: None, pin_factory=factory)
    led = factory.pin(PINS.link_led)
    assert eventually(lambda: sum(s.state for s in led.states) >= 2)  # lost: blinking
    panel.set_link(LinkLight.OK)
    assert led.state
    panel.close()
    factory.reset()


def test_attention_silences_the_buzzer_on_the_gpio_panel():
    factory = MockFactory()
    panel = GpioPanel(PINS, lambda _: None, pin_factory=factory)
    panel.beep(ILLEGAL_ACT_BEEP)
    factory.pin(PINS.attention).drive_low()
    assert eventually(lambda: not factory.pin(PINS.buzzer).state)
    panel.close()
    factory.reset()


def test_fake_counts_silences_and_closes():
    panel = RecordingPanel(lambda _: None)
    panel.press(PanelButton.ATTENTION)
    panel.close()
    assert panel.silenced == 1
    assert panel.closed


@pytest.mark.parametrize(
    ("pins", "message"),
    [
        ({"undo": 17}, "undo: GPIO17 is already used by confirm"),
        ({"buzzer": 40}, "buzzer: GPIO40 is not a usable BCM pin"),
        ({"riichi_leds": (6, 13, 19)}, "riichi_leds needs four pins"),
        ({"fast_blink_s": 0}, "positive"),
    ],
)
def test_bad_pin_config_names_the_field(pins, message):
    with pytest.raises(PanelConfigError, match=message):
        PanelPins(**pins)
