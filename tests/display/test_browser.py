"""End to end: a round played through the API shows settled on the page in headless Chromium.

Debian's ``chromium`` and ``chromium-driver`` (``scripts/browser_setup.sh`` installs them),
driven by Selenium.  Skipped only when they are not installed.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import play_round

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--disable-dev-shm-usage")

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
    pytest.skip("Debian chromium/chromium-driver not installed (run scripts/browser_setup.sh)",
                allow_module_level=True)

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture
def browser() -> Iterator[Any]:
    profile = tempfile.mkdtemp(prefix="paigow-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    service = webdriver.ChromeService(executable_path=str(CHROMEDRIVER))
    driver = webdriver.Chrome(options=options, service=service)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def test_page_shows_the_settled_round(live: str, browser: Any) -> None:
    driver = browser
    driver.get(live + "/")
    wait = WebDriverWait(driver, 15)
    wait.until(lambda d: d.find_element(By.ID, "link").text == "live")
    with httpx.Client(base_url=live, timeout=10) as client:
        play_round(client)
        expected = next(s for s in client.get("/api/table").json()["seats"]
                        if s["position"] == 4)["result"]["text"]
        round_id = client.get("/api/rounds").json()["rounds"][0]["round_id"]
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#seat-4 .result"))
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#seat-4 .result").text == expected)
    driver.save_screenshot(str(Path(tempfile.gettempdir()) / "paigow-display.png"))
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f'#recall li[data-round="{round_id}"]'))
    assert "settled" in driver.find_element(By.ID, "round").text
    assert driver.find_elements(By.CSS_SELECTOR, "#seat-4 .card")
    assert driver.find_element(By.CSS_SELECTOR, "#dealer .houseway")
