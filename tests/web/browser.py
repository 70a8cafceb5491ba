"""Headless Debian Chromium driven by Selenium through /usr/bin/chromedriver (never a downloaded browser)."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",  # small /dev/shm in containers
    "--window-size=1920,1080",
    "--hide-scrollbars",
)
OUT = Path(__file__).resolve().parents[2] / "out" / "web"


def chromium_missing() -> str | None:
    """Why the browser tests cannot run here (``scripts/setup dev`` installs both), or ``None``."""
    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.exists()]
    if missing:
        return f"{' and '.join(missing)} not installed (scripts/setup dev installs chromium and chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    return None


@contextmanager
def headless_chromium() -> Iterator[object]:
    reason = chromium_missing()
    if reason is not None:
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="jantaku-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def screenshot_path(name: str) -> Path:
    OUT.mkdir(parents=True, exist_ok=True)
    return OUT / name


def wait_until(driver: Any, condition: Callable[[Any], Any], message: str, timeout_s: float = 30.0) -> Any:
    """``condition``'s first truthy value, polled every 50 ms; a page that redraws replaces an
    element a condition just found (stale), so that counts as "not yet", not a failure. So does
    an element found in a page that is being replaced by the next one (after a form's submit,
    Chromium answers for it "Node with given id does not belong to the document")."""
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    def settled(d: Any) -> Any:
        try:
            return condition(d)
        except WebDriverException as error:
            if "does not belong to the document" in str(error):
                return False
            raise

    wait = WebDriverWait(driver, timeout_s, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,))
    return wait.until(settled, message)
