"""The hall page, console and overlay in real headless Chromium, over a hall book fed the way
the subscriber feeds it (the bus itself: tests/hall/test_bus.py)."""

from __future__ import annotations

import json
import urllib.request

import pytest

from table_app.hall.book import HallBook
from table_app.hall.protocol import TableRow
from table_app.hall.web import create_hall_app
from table_app.web.background import BackgroundWebServer
from tests.hall.tables import TableJournal, journal_rows
from tests.web.browser import headless_chromium, screenshot_path, wait_until

TOKEN = "hall-director-token"


def feed(book: HallBook, name: str, table: TableJournal, started: float = 1.0) -> None:
    """Every row of ``table``'s journal not in the book yet, as the subscriber would hand it over."""
    held = set(book.held(name, 1))
    for row in journal_rows(table.db):
        if row.seq not in held:
            book.receive_row(TableRow(name, started, "tenhou", row))


@pytest.fixture
def tables(tmp_path):
    first = TableJournal(tmp_path / "t1.db")
    second = TableJournal(tmp_path / "t2.db", names=("Endo", "Fujita", "Goto", "Hara"))
    first.play(400)
    second.play(700)
    yield first, second
    first.close()
    second.close()


def overlay_names(driver) -> str:
    return str(driver.execute_script("return document.getElementById('seats').textContent"))


def card_text(driver, table: str) -> str:
    return driver.find_element("id", f"table-{table}").text


def test_the_hall_page_shows_every_table_live_and_the_console_switches_the_overlay(tables):
    first, second = tables
    book = HallBook()
    for name, table in (("t1", first), ("t2", second)):
        book.receive_status(name, True)
        feed(book, name, table)
    server = BackgroundWebServer(create_hall_app(book, "club", TOKEN))
    server.start()
    try:
        with headless_chromium() as driver:
            driver.get(server.url + "/")
            wait_until(driver, lambda d: "Aoki" in card_text(d, "t1") and "Endo" in card_text(d, "t2"), "no cards")
            t1 = first.core.session.game
            assert f"{t1.scores[0]:,}" in card_text(driver, "t1")
            assert driver.find_element("id", "online-count").text == "2"

            # The game goes on at table 1: its card follows, to the journal's last row.
            first.play(300)
            feed(book, "t1", first)
            last = journal_rows(first.db)[-1].seq
            wait_until(
                driver,
                lambda d: d.find_element("id", "table-t1").get_attribute("data-seq") == str(last),
                "the card did not follow the game",
            )
            drawn = driver.execute_script("return window.jantakuHallDrawn.length")
            assert drawn >= 3

            # Table 2 goes offline (its last will): its card says so.
            book.receive_status("t2", False)
            wait_until(
                driver, lambda d: d.find_element("id", "table-t2").get_attribute("data-online") == "offline", "online"
            )
            driver.save_screenshot(str(screenshot_path("hall.png")))

            # The overlay shows the feature table (the first to appear) until the console switches it.
            driver.get(server.url + "/overlay")
            wait_until(driver, lambda d: "Aoki" in overlay_names(d), "overlay without table 1")
            driver.get(server.url + "/console")
            wait_until(driver, lambda d: d.find_element("id", "login").is_displayed(), "no login form")
            # Without the session's CSRF token a request with the cookie is refused (checked below);
            # without any credentials, too:
            status = driver.execute_script(
                "return fetch('/api/console/feature', {method: 'POST', body: '{\"table\": \"t2\"}'})"
                ".then(r => r.status)"
            )
            assert status == 401
            driver.find_element("id", "token").send_keys(TOKEN)
            driver.find_element("id", "login-button").click()
            wait_until(driver, lambda d: d.find_element("id", "desk").is_displayed(), "not logged in")
            no_csrf = driver.execute_script(
                "return fetch('/api/console/feature', {method: 'POST', credentials: 'same-origin',"
                ' body: \'{"table": "t2"}\'}).then(r => r.status)'
            )
            assert no_csrf == 403
            assert book.featured == "t1"
            button = wait_until(
                driver, lambda d: d.find_elements("css selector", "button[data-table='t2']"), "no table buttons"
            )
            button[0].click()
            wait_until(driver, lambda d: d.find_element("id", "featured").text == "t2", "not switched")
            assert book.featured == "t2"
            driver.get(server.url + "/overlay")
            wait_until(driver, lambda d: "Endo" in overlay_names(d), "overlay not on table 2")
            driver.save_screenshot(str(screenshot_path("hall-overlay.png")))
    finally:
        server.stop()


def test_the_hall_api_gives_every_card_and_the_standings(tables):
    first, _second = tables
    first.play()  # the whole game: it counts in the standings
    book = HallBook()
    feed(book, "t1", first)
    server = BackgroundWebServer(create_hall_app(book, "club", TOKEN))
    server.start()
    try:
        with urllib.request.urlopen(server.url + "/api/hall", timeout=10) as response:
            body = json.load(response)
    finally:
        server.stop()
    assert body["hall"] == "club"
    [card] = body["tables"]
    assert card["finished"] is True
    assert card["round"]["en"] == "Game over"
    assert body["standings"]["games"] == 1
    players = body["standings"]["players"]
    assert [p["name"] for p in players] == [
        first.core.session.game.names[s.seat] for s in _ranked(first.core.session.game)
    ]


def _ranked(state):
    from table_app.hall.standings import game_points

    return game_points(state)
