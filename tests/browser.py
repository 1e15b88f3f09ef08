"""Headless Chromium for the page tests and the display benchmark: Debian's ``chromium`` and
``chromedriver`` (``scripts/browser_setup.sh`` installs them), driven by Selenium."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--disable-dev-shm-usage", "--window-size=1280,1400")


def chromium_missing() -> str | None:
    """Why no browser can run here, or None."""
    try:
        import selenium.webdriver  # noqa: F401
    except ImportError:
        return "selenium is not installed"
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        return "Debian chromium/chromium-driver not installed (run scripts/browser_setup.sh)"
    return None


@contextmanager
def headless_chromium(*, log_requests: bool = False, log_console: bool = False) -> Iterator[Any]:
    """A Selenium driver on a fresh profile, quit and cleaned up after; ``log_requests`` keeps
    the performance log (every request the page makes), ``log_console`` the browser's console
    (``driver.get_log("browser")``: script errors, refusals by the page's CSP)."""
    from selenium import webdriver

    profile = tempfile.mkdtemp(prefix="paigow-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    logs = {**({"performance": "ALL"} if log_requests else {}),
            **({"browser": "ALL"} if log_console else {})}
    if logs:
        options.set_capability("goog:loggingPrefs", logs)
    service = webdriver.ChromeService(executable_path=str(CHROMEDRIVER))
    driver = webdriver.Chrome(options=options, service=service)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
