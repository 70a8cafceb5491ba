"""End to end in real headless Chromium: the display follows the replay, the overlay is a transparent
1920x1080 page, the console refuses a missing or wrong token and acts with the right one.

Screenshots go to ``out/web/`` (ignored by git) for a person to look at.
"""

from __future__ import annotations

import base64
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import cv2
import numpy as np
import pytest

from table_app.rules.events import Chi, Dahai, Hora, Reach
from tests.web.browser import headless_chromium, screenshot_path, wait_until
from tests.web.conftest import TOKEN, step_to

WAIT_S = 30.0  # bounded: a loaded CI machine can take seconds to start Chromium work


@pytest.fixture(scope="module")
def browser():
    with headless_chromium() as driver:
        yield driver


def _wait(driver, condition, message):
    return wait_until(driver, condition, message, WAIT_S)


def _shows_sequence(driver, sequence: int) -> None:
    """Wait until the page has drawn the view with this sequence number (set by common.js)."""
    _wait(
        driver,
        lambda d: d.execute_script("return document.body.dataset.sequence") == str(sequence),
        f"the page never drew view {sequence}",
    )


def _text(driver, selector: str) -> str:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, selector).text


def _index_of(events, kind, start=0):
    return next(i for i, event in enumerate(events) if i >= start and isinstance(event, kind))


def test_the_display_follows_the_game_as_the_replay_advances(browser, served, game_log):
    from selenium.webdriver.common.by import By

    browser.get(f"{served.url}/")
    _shows_sequence(browser, served.feed.current().sequence)
    assert _text(browser, "#round-ja") == ""  # nothing started yet

    step_to(served.feed, 2)  # start_game, start_kyoku
    _shows_sequence(browser, served.feed.current().sequence)
    assert _text(browser, "#round-ja") == "東1局"
    assert _text(browser, "#round-en") == "East 1"
    view = served.feed.current()
    scores = [_text(browser, f'.seat[data-seat="{s}"] .score') for s in range(4)]
    assert scores == [f"{seat.score:,}" for seat in view.seats]
    assert len(browser.find_elements(By.CSS_SELECTOR, "#dora img.tile")) == 1

    reach = _index_of(game_log.events, Reach)
    declaration = _index_of(game_log.events, Dahai, reach)
    actor = game_log.events[reach].actor
    step_to(served.feed, declaration + 1)
    _shows_sequence(browser, served.feed.current().sequence)
    pond = browser.find_elements(By.CSS_SELECTOR, f'.seat[data-seat="{actor}"] .pond img.tile')
    assert len(pond) == len(served.feed.current().seats[actor].pond)
    assert "sideways" in pond[-1].get_attribute("class")
    assert "リーチ" in _text(browser, "#announce-ja")
    browser.save_screenshot(str(screenshot_path("display-riichi.png")))

    hora = _index_of(game_log.events, Hora)
    step_to(served.feed, hora + 1)
    _shows_sequence(browser, served.feed.current().sequence)
    assert any(word in _text(browser, "#announce-ja") for word in ("ロン", "ツモ"))
    assert "points" in _text(browser, "#announce-en")
    winner = game_log.events[hora].actor
    assert browser.find_elements(By.CSS_SELECTOR, f'.seat[data-seat="{winner}"] .open-hand img.tile')
    assert len(browser.find_elements(By.CSS_SELECTOR, ".open-hand img.tile")) == len(
        served.feed.current().seats[winner].open_hand
    )
    chi = game_log.events[_index_of(game_log.events, Chi)]
    meld = browser.find_elements(By.CSS_SELECTOR, f'.seat[data-seat="{chi.actor}"] .meld.chi img.tile')
    assert "sideways" in meld[0].get_attribute("class")  # called from the left: the left tile is turned
    assert meld[0].get_attribute("data-tile") == str(chi.pai)
    browser.save_screenshot(str(screenshot_path("display-win.png")))

    step_to(served.feed, served.feed.length)
    _shows_sequence(browser, served.feed.current().sequence)
    assert _text(browser, "#round-ja") == "対局終了"
    final = served.feed.current().final_points
    shown = [_text(browser, f'.seat[data-seat="{s}"] .final-points') for s in range(4)]
    assert shown == [f"{'+' if p > 0 else ''}{p:.1f} pt" for p in final]
    browser.save_screenshot(str(screenshot_path("display-game-over.png")))


def test_the_overlay_is_1920x1080_with_a_transparent_background(browser, served, game_log):
    from selenium.webdriver.common.by import By

    step_to(served.feed, _index_of(game_log.events, Hora))  # riichi stick down, calls made, just before the win
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False}
    )
    # OBS composites the page over the scene; Chromium's default white page would hide it.
    browser.execute_cdp_cmd("Emulation.setDefaultBackgroundColorOverride", {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
    try:
        browser.get(f"{served.url}/overlay")
        _shows_sequence(browser, served.feed.current().sequence)
        size = browser.execute_script(
            "const e = document.documentElement; return [e.scrollWidth, e.scrollHeight, innerWidth, innerHeight];"
        )
        assert size == [1920, 1080, 1920, 1080]
        background = browser.execute_script(
            "return [getComputedStyle(document.documentElement).backgroundColor,"
            " getComputedStyle(document.body).backgroundColor];"
        )
        assert background == ["rgba(0, 0, 0, 0)", "rgba(0, 0, 0, 0)"]
        assert _text(browser, "#round-ja") == "東1局"
        riichi_seats = [s.seat for s in served.feed.current().seats if s.riichi.value == "accepted"]
        assert riichi_seats
        for seat in riichi_seats:
            assert browser.find_element(By.CSS_SELECTOR, f'.seat[data-seat="{seat}"] .stick').is_displayed()
        shot = browser.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})
        png = base64.b64decode(shot["data"])
        screenshot_path("overlay.png").write_bytes(png)
        image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
        assert image.shape == (1080, 1920, 4)
        alpha = image[..., 3]
        assert alpha[400:600, 600:1300].max() == 0  # the middle of the picture is left to the camera
        assert alpha[900:1060, 40:400].max() == 255  # a seat's score box is drawn
        assert (alpha == 0).mean() > 0.5
    finally:
        browser.execute_cdp_cmd("Emulation.setDefaultBackgroundColorOverride", {})
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_console_refuses_a_missing_or_wrong_token_and_accepts_the_right_one(browser, served):
    from selenium.webdriver.common.by import By

    browser.delete_all_cookies()
    browser.get(f"{served.url}/console")
    _wait(browser, lambda d: d.find_element(By.ID, "login").is_displayed(), "no login form without a session")
    assert not browser.find_element(By.ID, "desk").is_displayed()
    status = browser.execute_async_script(
        "const done = arguments[0];"
        "fetch('/api/console/confirm', {method: 'POST', body: '{}'}).then(r => done(r.status));"
    )
    assert status == 401
    assert served.feed.position == 0

    browser.find_element(By.ID, "token").send_keys("not-the-token")
    browser.find_element(By.ID, "login-button").click()
    _wait(browser, lambda d: "wrong console token" in d.find_element(By.TAG_NAME, "body").text, "no refusal shown")
    browser.save_screenshot(str(screenshot_path("console-refused.png")))
    assert served.console.commands == ()

    browser.get(f"{served.url}/console")
    _wait(browser, lambda d: d.find_element(By.ID, "login").is_displayed(), "no login form")
    browser.find_element(By.ID, "token").send_keys(TOKEN)
    browser.find_element(By.ID, "login-button").click()
    _wait(browser, lambda d: d.find_element(By.ID, "desk").is_displayed(), "the console did not open with the token")
    browser.find_element(By.ID, "confirm").click()
    _wait(browser, lambda d: "confirm: accepted" in d.find_element(By.ID, "reply").text, "confirm not accepted")
    assert served.feed.position == 1
    _shows_sequence(browser, served.feed.current().sequence)
    browser.find_element(By.ID, "undo").click()
    _wait(browser, lambda d: "undo: accepted" in d.find_element(By.ID, "reply").text, "undo not accepted")
    assert served.feed.position == 0
    browser.find_element(By.ID, "undo").click()
    _wait(browser, lambda d: "409" in d.find_element(By.ID, "reply").text, "a refused undo shows its reason")
    step_to(served.feed, 40)
    _shows_sequence(browser, served.feed.current().sequence)
    browser.find_element(By.CSS_SELECTOR, '#seats .seat[data-seat="2"] img.tile[data-index="3"]').click()
    browser.find_element(By.ID, "correct-tile").send_keys("0s")
    browser.find_element(By.CSS_SELECTOR, "#correct button").click()
    _wait(browser, lambda d: "correct-tile: accepted" in d.find_element(By.ID, "reply").text, "correction refused")
    assert served.console.corrections[-1].seat == 2
    assert served.console.corrections[-1].index == 3
    assert str(served.console.corrections[-1].tile) == "0s"
    browser.save_screenshot(str(screenshot_path("console.png")))

    # Another site on this host (same-site: the Strict cookie goes along) tries the console.
    position, commands = served.feed.position, len(served.console.commands)
    with _foreign_page(served.url) as foreign:
        browser.get(foreign)
        _wait(browser, lambda d: d.find_element(By.ID, "done").text == "sent", "the foreign page did not send")
    browser.get(f"{served.url}/console")
    _wait(browser, lambda d: d.find_element(By.ID, "desk").is_displayed(), "the session did not hold")
    forged = browser.execute_async_script(
        "const done = arguments[0];"
        "fetch('/api/console/confirm', {method: 'POST', body: '{}'}).then(r => done(r.status));"
    )
    assert forged == 403  # the page's own origin, but without the session's CSRF token
    assert served.feed.position == position
    assert len(served.console.commands) == commands  # nothing reached the referee

    browser.find_element(By.ID, "logout").click()
    _wait(browser, lambda d: d.find_element(By.ID, "login").is_displayed(), "no login form after logging out")
    assert not browser.find_element(By.ID, "desk").is_displayed()
    assert served.feed.position == position


FOREIGN_PAGE = """<!doctype html><html><body><p id="done"></p>
<form id="f" method="post" action="{url}/api/console/confirm" enctype="text/plain" target="sink">
<input name='{{"a":"' value='"}}'></form><iframe name="sink"></iframe>
<script>
fetch("{url}/api/console/undo", {{method: "POST", mode: "no-cors", credentials: "include",
  headers: {{"Content-Type": "text/plain"}}, body: "{{}}"}})
  .finally(() => {{ document.getElementById("f").submit(); document.getElementById("done").textContent = "sent"; }});
</script></body></html>"""


@contextmanager
def _foreign_page(target: str):
    """A page served from another port of this host: same site, another origin."""
    page = FOREIGN_PAGE.format(url=target).encode()

    class Page(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


class _RuntimeLikeFeed:
    """A feed that publishes what only the runtime knows (a question, trays, a lost link)."""

    def __init__(self, view):
        self._view = view
        self._listeners = []

    def current(self):
        return self._view

    def subscribe(self, listener):
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def publish(self, view):
        self._view = view
        for listener in list(self._listeners):
            listener(view)


def test_the_display_shows_the_referees_question_tray_differences_and_a_lost_link(browser, game_log):
    from selenium.webdriver.common.by import By

    from table_app.rules.fold import replay
    from table_app.view.build import RuntimeExtras, build_view
    from table_app.view.model import AnnouncementText, DeviceStatus
    from table_app.web.background import BackgroundWebServer
    from table_app.web.replay_feed import ReplayConsole, ReplayFeed
    from table_app.web.server import create_app

    state = replay(game_log.events[:40])
    feed = _RuntimeLikeFeed(build_view(state, RuntimeExtras(sequence=1)))
    server = BackgroundWebServer(create_app(feed, ReplayConsole(ReplayFeed(())), TOKEN))
    server.start()
    try:
        browser.get(f"{server.url}/")
        _shows_sequence(browser, 1)
        assert browser.find_elements(By.CSS_SELECTOR, ".tray") == []
        scores = state.hand.scores
        extras = RuntimeExtras(
            sequence=2,
            announcement=AnnouncementText("tray_mismatch", 1, "南家の点棒が1000点少ない", "South's tray is 1000 short"),
            question=AnnouncementText("confirm_call", 2, "西家のポンを確認", "confirm West's pon"),
            link=DeviceStatus.LOST,
            camera=DeviceStatus.OK,
            trays=(scores[0], scores[1] - 1000, scores[2], scores[3]),
        )
        feed.publish(build_view(state, extras))
        _shows_sequence(browser, 2)
        assert "confirm West's pon" in _text(browser, "#question")
        assert _text(browser, "#link") == "link lost"
        assert _text(browser, '.seat[data-seat="1"] .tray') == f"tray {scores[1] - 1000:,} (-1000)"
        assert _text(browser, '.seat[data-seat="0"] .tray') == "tray ok"
        browser.save_screenshot(str(screenshot_path("display-runtime-extras.png")))
    finally:
        server.stop()


def _login(driver, url):
    from selenium.webdriver.common.by import By

    driver.delete_all_cookies()
    driver.get(f"{url}/console")
    _wait(driver, lambda d: d.find_element(By.ID, "login").is_displayed(), "no login form")
    driver.find_element(By.ID, "token").send_keys(TOKEN)
    driver.find_element(By.ID, "login-button").click()
    _wait(driver, lambda d: d.find_element(By.ID, "desk").is_displayed(), "the console did not open with the token")


def _into_a_hand_dealt_by_seat_1(served, game_log) -> int:
    """Steps into the first hand seat 1 deals, until seat 1 has discarded twice; returns its start."""
    from table_app.rules.events import StartKyoku

    dealt = next(i for i, e in enumerate(game_log.events) if isinstance(e, StartKyoku) and e.oya == 1)
    step_to(served.feed, dealt + 1)
    while len(served.feed.current().seats[1].pond) < 2:
        assert served.feed.step()
    return dealt


def test_every_page_names_a_seat_by_this_hands_wind_and_the_players_name(browser, served, game_log):

    _into_a_hand_dealt_by_seat_1(served, game_log)
    view = served.feed.current()
    names = [seat.name for seat in view.seats]
    for page in ("/", "/overlay"):
        browser.get(f"{served.url}{page}")
        _shows_sequence(browser, view.sequence)
        shown = [
            (_text(browser, f'.seat[data-seat="{s}"] .wind'), _text(browser, f'.seat[data-seat="{s}"] .name'))
            for s in range(4)
        ]
        assert shown == [("北", names[0]), ("東", names[1]), ("南", names[2]), ("西", names[3])], page
    _login(browser, served.url)
    _shows_sequence(browser, view.sequence)
    labels = [_text(browser, f'#seats .seat[data-seat="{s}"] .label') for s in range(4)]
    assert labels[0].startswith(f"North ({names[0]}) ")
    assert labels[1].startswith(f"East ({names[1]}) ")
    assert "0" not in [label.split()[0] for label in labels]  # no seat index anywhere a person reads


def test_a_console_correction_acts_on_the_player_the_referee_picked_by_name(browser, served, game_log):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    _into_a_hand_dealt_by_seat_1(served, game_log)
    view = served.feed.current()
    _login(browser, served.url)
    _shows_sequence(browser, view.sequence)
    choice = Select(browser.find_element(By.ID, "correct-seat"))
    options = [option.text for option in choice.options]
    assert options == [seat.label.en for seat in view.seats]
    assert options[1] == f"East ({view.seats[1].name})"
    choice.select_by_visible_text(options[1])  # the dealer, as the referee sees them
    number = browser.find_element(By.ID, "correct-number")
    number.clear()
    number.send_keys("2")  # their second discard, counted from 1
    browser.find_element(By.ID, "correct-tile").send_keys("7z")
    browser.find_element(By.ID, "correct-button").click()
    _wait(browser, lambda d: "correct-tile: accepted" in d.find_element(By.ID, "reply").text, "correction refused")
    correction = served.console.corrections[-1]
    assert (correction.seat, correction.index, str(correction.tile)) == (1, 1, "7z")
    assert f"East ({view.seats[1].name})'s discard 2 is 7z" in _text(browser, "#reply")

    # A tap on a pond tile picks that player and that discard in the form.
    browser.find_element(By.CSS_SELECTOR, '#seats .seat[data-seat="2"] img.tile[data-index="0"]').click()
    assert Select(browser.find_element(By.ID, "correct-seat")).first_selected_option.text == options[2]
    assert browser.find_element(By.ID, "correct-number").get_attribute("value") == "1"
