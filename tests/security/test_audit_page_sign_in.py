"""The audit page signs in as the dealer screen does, and shows a journal that fails verify.

The ``/audit`` page took a pasted token (so a supervisor had to copy one out of somewhere) while
the dealer screen signs staff in with id and PIN.  Now the audit page signs in with staff id and
PIN (``POST /api/session``) or takes up the session the dealer screen holds in the same tab,
shows who is signed in, and signs out (the token then stops working).  A journal that does not
verify is refused on the page naming the first bad record; asked to report anyway, the report
opens with a red UNVERIFIED banner.  In headless Chromium against a real uvicorn."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.browser import chromium_missing, headless_chromium
from tests.display.conftest import SUPERVISOR_PIN, make_app, play_round, serve
from tests.security.forge import first_of, rechain, rows

if chromium_missing():
    pytest.skip(chromium_missing() or "", allow_module_level=True)

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


@pytest.fixture
def browser() -> Iterator[Any]:
    with headless_chromium() as driver:
        yield driver


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A display over a journal of one whole round; its URL and the journal's path."""
    path = tmp_path / "table.db"
    with serve(make_app(path)) as url:
        with httpx2.Client(base_url=url, timeout=10) as client:
            play_round(client)
        yield url, path


def text(driver: Any, element_id: str) -> str:
    found: str = driver.find_element(By.ID, element_id).text
    return found


def sign_in(driver: Any, staff: str, pin: str) -> None:
    WebDriverWait(driver, 20).until(lambda d: d.find_element(By.ID, "audit-staff").is_displayed())
    driver.find_element(By.ID, "audit-staff").send_keys(staff)
    driver.find_element(By.ID, "audit-pin").send_keys(pin)
    driver.find_element(By.ID, "audit-sign-in-button").click()
    WebDriverWait(driver, 20).until(lambda d: text(d, "audit-who").startswith("signed in"))


def test_a_supervisor_signs_in_with_a_pin_audits_and_signs_out(
        live: tuple[str, Path], browser: Any) -> None:
    url, _ = live
    browser.get(f"{url}/audit")
    assert not browser.find_elements(By.ID, "audit-token")  # no token to paste any more
    assert text(browser, "audit-who").startswith("signed out")
    sign_in(browser, "sue", SUPERVISOR_PIN)
    assert text(browser, "audit-who") == "signed in: Sue (sue, supervisor)"
    assert not browser.find_element(By.ID, "audit-pin").is_displayed()
    assert browser.find_element(By.ID, "audit-pin").get_attribute("value") == ""
    browser.find_element(By.ID, "run-dealers").click()
    WebDriverWait(browser, 60).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#audit-result table.audit"))
    assert not browser.find_elements(By.CSS_SELECTOR, "#audit-result .unverified")
    token = browser.execute_script("return sessionStorage.getItem('paigow-token')")
    browser.find_element(By.ID, "audit-sign-out").click()
    WebDriverWait(browser, 20).until(lambda d: text(d, "audit-who").startswith("signed out"))
    assert browser.find_element(By.ID, "audit-staff").is_displayed()
    assert browser.execute_script("return sessionStorage.getItem('paigow-token')") is None
    with httpx2.Client(base_url=url, timeout=10) as client:
        ended = client.get("/api/operator", headers={"Authorization": f"Bearer {token}"})
        assert ended.status_code == 401


def test_the_dealer_screens_session_is_taken_up(live: tuple[str, Path], browser: Any) -> None:
    url, _ = live
    browser.get(f"{url}/")
    wait = WebDriverWait(browser, 20)
    wait.until(lambda d: d.find_element(By.ID, "staff-id").is_displayed())
    browser.find_element(By.ID, "staff-id").send_keys("sue")
    browser.find_element(By.ID, "pin").send_keys(SUPERVISOR_PIN)
    browser.find_element(By.ID, "sign-in").click()
    wait.until(lambda d: text(d, "who").startswith("signed in"))
    browser.get(f"{url}/audit")  # the same tab: the same sessionStorage
    wait.until(lambda d: text(d, "audit-who") == "signed in: Sue (sue, supervisor)")
    assert not browser.find_element(By.ID, "audit-staff").is_displayed()


def test_a_tampered_journal_is_refused_then_reported_under_a_banner(
        live: tuple[str, Path], browser: Any) -> None:
    url, path = live
    found = rows(path)
    i = first_of(found, "bet")
    bet = found[i]._replace(event=found[i].event.replace('"wager":2500', '"wager":250000'))
    rechain(path, lambda old: [*old[:i], bet, *old[i + 1:]])
    browser.get(f"{url}/audit")
    sign_in(browser, "sue", SUPERVISOR_PIN)
    wait = WebDriverWait(browser, 60)
    browser.find_element(By.ID, "run-dealers").click()
    wait.until(lambda d: text(d, "audit-message").startswith("refused"))
    assert text(browser, "audit-message").startswith(
        f"refused (409): {path}: record {found[i].seq}: contents do not match its hash")
    assert not browser.find_elements(By.CSS_SELECTOR, "#audit-result table")
    browser.find_element(By.ID, "audit-unverified").click()
    for button in ("run-dealers", "run-randomness"):
        browser.find_element(By.ID, button).click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#audit-result .unverified"))
        first = browser.execute_script(
            "return document.getElementById('audit-result').firstElementChild")
        assert "unverified" in first.get_attribute("class").split()
        assert first.text.startswith("UNVERIFIED: the chain of")
        assert first.value_of_css_property("background-color") == "rgba(176, 0, 32, 1)"
        browser.execute_script("document.getElementById('audit-result').replaceChildren()")
