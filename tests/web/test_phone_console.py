"""The referee console on a phone (390 px wide, real headless Chromium in mobile emulation):
nothing overflows sideways, every pond tile of a late hand is on screen, and every button,
list and field can be scrolled to and tapped (a target of at least 44 x 44 px that nothing
covers)."""

from __future__ import annotations

import pytest

from table_app.rules.fold import apply, new_game
from tests.web.browser import headless_chromium, screenshot_path, wait_until
from tests.web.conftest import TOKEN, step_to

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True}
TARGET_PX = 44  # the smallest comfortable touch target (Apple HIG; WCAG 2.5.5 asks for 44 CSS px)

#: Every visible element whose box pokes out of the viewport sideways (after any scrolling).
OVERFLOWING = """
const width = document.documentElement.clientWidth;
const out = [];
for (const element of document.body.querySelectorAll("*")) {
  const box = element.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) continue;
  if (box.left < -0.5 || box.right > width + 0.5) {
    out.push(`${element.tagName.toLowerCase()}#${element.id}.${element.className} ${box.left}..${box.right}`);
  }
}
return [document.documentElement.scrollWidth, width, out];
"""

#: Scrolls a control into view; its box, the viewport, and whether a tap at its centre reaches it.
TAPPABLE = """
const element = arguments[0];
element.scrollIntoView({block: "center", inline: "center"});
const box = element.getBoundingClientRect();
const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
return {left: box.left, right: box.right, top: box.top, bottom: box.bottom, width: box.width, height: box.height,
        viewWidth: document.documentElement.clientWidth, viewHeight: innerHeight,
        reached: hit !== null && (hit === element || element.contains(hit))};
"""


def _moments(game_log) -> tuple[int, int]:
    """Event counts to play for the two hardest ponds to fit: the longest pond with a riichi
    tile lying sideways in it, and the longest pond of the game (four rows)."""
    state, riichi, longest = new_game(), (0, 0), (0, 0)
    for count, event in enumerate(game_log.events, start=1):
        state = apply(state, event)
        hand = state.hand
        if hand is None or hand.wins:
            continue
        for player in hand.players:
            size = len(player.pond)
            if size > riichi[0] and any(tile.riichi for tile in player.pond):
                riichi = (size, count)
            if size > longest[0]:
                longest = (size, count)
    assert riichi[0] >= 7, "no riichi in the test game"  # a second row, the sideways tile in it
    assert longest[0] >= 19, "no long pond in the test game"
    return riichi[1], longest[1]


@pytest.fixture(scope="module")
def phone():
    with headless_chromium() as driver:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True})
        yield driver


def _no_sideways_overflow(driver, where: str) -> None:
    scroll_width, width, out = driver.execute_script(OVERFLOWING)
    assert width == PHONE["width"]
    assert out == [], f"{where}: elements wider than the phone"
    assert scroll_width <= width, f"{where}: the page scrolls sideways ({scroll_width} > {width})"


def _every_control_is_tappable(driver, where: str) -> int:
    from selenium.webdriver.common.by import By

    controls = [c for c in driver.find_elements(By.CSS_SELECTOR, "button, select, input") if c.is_displayed()]
    for control in controls:
        name = control.get_attribute("id") or control.text
        box = driver.execute_script(TAPPABLE, control)
        assert min(box["width"], box["height"]) >= TARGET_PX, f"{where}: {name} is {box}"
        assert box["left"] >= 0, f"{where}: {name} off screen on the left: {box}"
        assert box["right"] <= box["viewWidth"], f"{where}: {name} off screen on the right: {box}"
        assert box["top"] >= 0, f"{where}: {name} above the screen: {box}"
        assert box["bottom"] <= box["viewHeight"], f"{where}: {name} below the screen: {box}"
        assert box["reached"], f"{where}: a tap on {name} lands on something else"
    return len(controls)


def test_the_console_fits_a_phone_with_every_pond_tile_visible_and_every_control_tappable(phone, served, game_log):
    from selenium.webdriver.common.by import By

    phone.delete_all_cookies()
    phone.get(f"{served.url}/console")
    wait_until(phone, lambda d: d.find_element(By.ID, "login").is_displayed(), "no login form")
    _no_sideways_overflow(phone, "login")
    assert _every_control_is_tappable(phone, "login") == 2  # the token field and the button
    phone.find_element(By.ID, "token").send_keys(TOKEN)
    phone.find_element(By.ID, "login-button").click()
    wait_until(phone, lambda d: d.find_element(By.ID, "desk").is_displayed(), "the console did not open")

    for moment, position in zip(("riichi", "long pond"), _moments(game_log), strict=True):
        step_to(served.feed, position)
        view = served.feed.current()
        drawn = str(view.sequence)
        wait_until(
            phone,
            lambda d, drawn=drawn: d.execute_script("return document.body.dataset.sequence") == drawn,
            f"the console never drew the {moment}",
        )
        _no_sideways_overflow(phone, moment)
        tiles = phone.find_elements(By.CSS_SELECTOR, "#seats .pond img.tile")
        assert len(tiles) == sum(len(seat.pond) for seat in view.seats)
        for tile in tiles:
            box = phone.execute_script(TAPPABLE, tile)
            assert box["width"] > 0
            assert box["left"] >= 0, f"{moment}: pond tile off screen on the left: {box}"
            assert box["right"] <= box["viewWidth"], f"{moment}: pond tile off screen on the right: {box}"
            assert box["reached"], f"{moment}: pond tile {tile.get_attribute('data-tile')} is covered"
        if moment == "riichi":
            assert phone.find_elements(By.CSS_SELECTOR, "#seats .pond img.tile.sideways")
        assert _every_control_is_tappable(phone, moment) >= 7  # confirm, undo, player, number, tile, correct, rules
        phone.execute_script("window.scrollTo(0, 0)")
        phone.save_screenshot(str(screenshot_path(f"console-phone-{moment.replace(' ', '-')}.png")))

    # Tapping works as it does with a mouse: a pond tile picks the player and the discard.
    last = phone.find_elements(By.CSS_SELECTOR, '#seats .seat[data-seat="3"] .pond img.tile')[-1]
    phone.execute_script("arguments[0].scrollIntoView({block: 'center'})", last)
    last.click()
    assert phone.find_element(By.ID, "correct-seat").get_attribute("value") == "3"
    assert phone.find_element(By.ID, "correct-number").get_attribute("value") == str(len(view.seats[3].pond))
