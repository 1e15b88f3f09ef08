"""The supervisor's audit page: the JSON API (supervisor only) and the page in headless
Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from controller.display import Table, create_app
from controller.journal import open_journal
from controller.profiles.poker import load_profile
from controller.round import FakeDice, FakeShuffler, PokerRound
from tests.audit.conftest import Planted
from tests.browser import chromium_missing, headless_chromium
from tests.display.conftest import (
    DEALER,
    DEALER_PIN,
    SETTINGS,
    SUPERVISOR,
    SUPERVISOR_PIN,
    serve,
)


def _app(path: Path) -> FastAPI:
    journal = open_journal(path, create=False)
    engine = PokerRound(journal, load_profile("classic"), FakeShuffler(1), FakeDice(1))
    return create_app(Table(engine), SETTINGS)


@pytest.fixture
def client(planted: Planted) -> Iterator[TestClient]:
    with TestClient(_app(planted.path)) as made:
        yield made


def test_only_a_supervisor_reads_the_audit(client: TestClient) -> None:
    assert client.get("/api/audit").status_code == 401
    refused = client.get("/api/audit", headers=DEALER)
    assert refused.status_code == 403 and "supervisor" in refused.json()["detail"]
    assert client.get("/api/audit/randomness", headers=DEALER).status_code == 403


def test_the_dealer_audit_as_json_with_plots(client: TestClient, planted: Planted) -> None:
    reply = client.get("/api/audit", headers=SUPERVISOR, params={"samples": 200})
    assert reply.status_code == 200
    data = reply.json()
    assert {g["dealer"]: g["deviations"] for g in data["groups"]} == {"ann": 2, "bob": 0}
    kinds = sorted(f["kind"] for f in data["findings"])
    assert kinds == ["correction", "deviation", "deviation", "foul", "override", "void"]
    assert len(data["plots"]) >= 3 and all("<svg" in p for p in data["plots"])
    only_bob = client.get("/api/audit", headers=SUPERVISOR,
                          params={"dealer": "bob", "samples": 200}).json()
    assert [g["dealer"] for g in only_bob["groups"]] == ["bob"]


def test_bad_filters_are_named(client: TestClient) -> None:
    reply = client.get("/api/audit", headers=SUPERVISOR, params={"from": "soon"})
    assert reply.status_code == 422 and "'soon'" in reply.json()["detail"]


def test_the_randomness_audit_as_json(client: TestClient) -> None:
    data = client.get("/api/audit/randomness", headers=SUPERVISOR).json()
    assert data["verdict"] == "incomplete"  # five rounds: too few for most tests
    assert {c["name"] for c in data["checks"]} >= {"dice_totals", "card_packets", "repeats"}


@pytest.fixture
def browser() -> Iterator[Any]:
    missing = chromium_missing()
    if missing:
        pytest.skip(missing)
    with headless_chromium() as driver:
        yield driver


def sign_in(browser: Any, staff: str, pin: str) -> None:
    """Sign in on the audit page with staff id and PIN, and wait for the page to say so."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 20).until(
        lambda d: d.find_element(By.ID, "audit-staff").is_displayed())
    browser.find_element(By.ID, "audit-staff").send_keys(staff)
    browser.find_element(By.ID, "audit-pin").send_keys(pin)
    browser.find_element(By.ID, "audit-sign-in-button").click()
    WebDriverWait(browser, 20).until(
        lambda d: d.find_element(By.ID, "audit-who").text.startswith("signed in"))


def test_the_page_shows_the_audit_in_a_browser(planted: Planted, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    with serve(_app(planted.path)) as url:
        browser.get(f"{url}/audit")
        wait = WebDriverWait(browser, 60)
        sign_in(browser, "sue", SUPERVISOR_PIN)
        assert browser.find_element(By.ID, "audit-who").text == (
            "signed in: Sue (sue, supervisor)")
        browser.find_element(By.ID, "run-dealers").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#audit-result table.audit"))
        result = browser.find_element(By.ID, "audit-result")
        assert "ann" in result.text and "bob" in result.text
        assert "cards exposed during the deal" in result.text
        assert len(result.find_elements(By.CSS_SELECTOR, "svg")) >= 3
        deviations = result.find_element(By.CSS_SELECTOR, ".findings-deviation")
        assert planted.rounds["entered"] in deviations.text
        browser.find_element(By.ID, "run-randomness").click()
        wait.until(lambda d: "Verdict" in d.find_element(By.ID, "audit-result").text)
        assert "INCOMPLETE" in browser.find_element(By.ID, "audit-result").text


def test_a_dealer_is_refused_on_the_page(planted: Planted, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    with serve(_app(planted.path)) as url:
        browser.get(f"{url}/audit")
        sign_in(browser, "ann", DEALER_PIN)
        assert browser.find_element(By.ID, "audit-who").text == (
            "signed in: Ann (ann, dealer): the audit is a supervisor's")
        browser.find_element(By.ID, "run-dealers").click()
        WebDriverWait(browser, 30).until(
            lambda d: "refused" in d.find_element(By.ID, "audit-message").text)
        assert not browser.find_elements(By.CSS_SELECTOR, "#audit-result table")
