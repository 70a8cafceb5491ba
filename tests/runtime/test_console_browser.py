"""The referee console in real headless Chromium over a running referee core: an older pond
tile picked and corrected, a profile change refused mid-hand with its reason shown.

Screenshots go to ``out/web/`` (ignored by git) for a person to look at."""

from __future__ import annotations

from table_app.domain.notation import parse_mjai
from table_app.domain.seat import Seat
from table_app.interpret import TableSetup
from table_app.journal import GameStore
from table_app.runtime.core import RefereeCore
from table_app.runtime.web_bridge import RuntimeConsoleSink, RuntimeViewFeed
from table_app.web.background import BackgroundWebServer
from table_app.web.server import create_app
from tests.runtime.helpers import hand_in_play
from tests.web.browser import headless_chromium, screenshot_path, wait_until

TOKEN = "browser-console-token"
WAIT_S = 30.0


def _wait(driver, condition, message):
    return wait_until(driver, condition, message, WAIT_S)


def _pond(driver, seat: int) -> list[str]:
    images = driver.find_elements("css selector", f'#seats .seat[data-seat="{seat}"] img.tile')
    return [image.get_attribute("src").rsplit("/", 1)[-1] for image in images]


def test_the_console_corrects_an_older_pond_tile_and_shows_a_refusal(tmp_path):
    from selenium.webdriver.common.by import By

    feed = RuntimeViewFeed(TableSetup().profile, has_link=False, has_camera=True)
    core = RefereeCore(GameStore(tmp_path / "table.db"), TableSetup(), [feed]).start()
    server = BackgroundWebServer(create_app(feed, RuntimeConsoleSink(core), TOKEN))
    server.start()
    try:
        for observation in hand_in_play("1m", "9p", "E", "C", "4s"):
            core.post(observation)
        core.drain()
        with headless_chromium() as browser:
            browser.get(f"{server.url}/console")
            _wait(browser, lambda d: d.find_element(By.ID, "login").is_displayed(), "no login form")
            browser.find_element(By.ID, "token").send_keys(TOKEN)
            browser.find_element(By.ID, "login-button").click()
            _wait(browser, lambda d: _pond(d, 0) == ["1m.png", "4s.png"], "the console never drew the ponds")
            # Seat 0's first discard, not the last one on the table: picked in the pond, retyped.
            browser.find_element(By.CSS_SELECTOR, '#seats .seat[data-seat="0"] img.tile[data-index="0"]').click()
            assert browser.find_element(By.ID, "correct-seat").get_attribute("value") == "0"
            assert browser.find_element(By.ID, "correct-number").get_attribute("value") == "1"  # counted from 1
            browser.find_element(By.ID, "correct-tile").send_keys("2m")
            browser.find_element(By.CSS_SELECTOR, "#correct button").click()
            _wait(browser, lambda d: "correct-tile: accepted" in d.find_element(By.ID, "reply").text, "refused")
            _wait(browser, lambda d: _pond(d, 0) == ["2m.png", "4s.png"], "the corrected tile is not shown")
            _wait(browser, lambda d: "corrected" in d.find_element(By.ID, "announce-en").text, "not announced")
            assert browser.find_element(By.ID, "announce-en").text == "East's discard 1 corrected: 2m (read as 1m)"
            assert core.session.game.hand.player(Seat.S0).pond[0].tile == parse_mjai("2m")
            browser.save_screenshot(str(screenshot_path("console-correction.png")))
            # A hand is in play: the profile cannot change, and the console says why.
            from selenium.webdriver.support.ui import Select

            Select(browser.find_element(By.ID, "profile-choice")).select_by_visible_text("jpml")
            browser.find_element(By.CSS_SELECTOR, "#profile-form button").click()
            _wait(browser, lambda d: "between hands only" in d.find_element(By.ID, "reply").text, "no reason shown")
            assert "409" in browser.find_element(By.ID, "reply").text
            _wait(
                browser,
                lambda d: d.find_element(By.ID, "profile-choice").get_attribute("value") == "tenhou",
                "the profile list does not show the profile in use again",
            )
            browser.save_screenshot(str(screenshot_path("console-profile-refused.png")))
    finally:
        server.stop()
        core.stop()
