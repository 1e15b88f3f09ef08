"""Security headers on every answer of the display, and a CSP the pages live with: headless
Chromium loads the dealer screen, the audit page and the API docs with no refusal logged."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.display.guard import CSP
from tests.browser import chromium_missing, headless_chromium
from tests.display.conftest import DEALER, make_app, serve

SECURITY = {"content-security-policy": CSP, "x-frame-options": "DENY",
            "x-content-type-options": "nosniff", "referrer-policy": "no-referrer"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path / "t.db")) as made:
        yield made


@pytest.mark.parametrize(("method", "path", "headers", "status"), [
    ("GET", "/", {}, 200),
    ("GET", "/audit", {}, 200),
    ("GET", "/docs", {}, 200),
    ("GET", "/static/display.js", {}, 200),
    ("GET", "/openapi.json", {}, 200),
    ("GET", "/api/table", {}, 200),
    ("GET", "/api/rounds", {}, 200),
    ("GET", "/nowhere", {}, 404),
    ("POST", "/api/round/open", {}, 401),          # refused by the guard, before the app
    ("POST", "/api/round/close-bets", DEALER, 409),  # refused by the engine
    ("POST", "/api/round/bets", DEALER, 422),       # refused by validation
])
def test_every_answer_carries_the_security_headers(client: TestClient, method: str, path: str,
                                                   headers: dict[str, str], status: int) -> None:
    reply = client.request(method, path, headers=headers)
    assert reply.status_code == status, reply.text
    for name, value in SECURITY.items():
        assert reply.headers.get(name) == value, name
    api = path.startswith("/api/")
    assert (reply.headers.get("cache-control") == "no-store") is api


def test_the_event_stream_is_not_stored_either(client: TestClient) -> None:
    """The stream's own ``no-cache`` becomes ``no-store``, as on all of ``/api``."""
    with client.stream("GET", "/api/events") as stream:
        assert stream.status_code == 200
        assert stream.headers.get_list("cache-control") == ["no-store"]
        assert stream.headers["x-frame-options"] == "DENY"


def test_the_policy_forbids_framing_and_anything_from_elsewhere() -> None:
    rules = dict(rule.strip().split(" ", 1) for rule in CSP.split(";"))
    assert rules["frame-ancestors"] == "'none'"
    assert rules["default-src"] == rules["script-src"] == rules["style-src"] == "'self'"
    assert "unsafe" not in CSP


@pytest.mark.skipif(chromium_missing() is not None, reason=str(chromium_missing()))
def test_the_pages_load_under_the_policy_with_nothing_refused(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    ready = {"/": lambda d: d.find_element(By.ID, "link").text == "live",
             "/audit": lambda d: d.find_element(By.ID, "audit-staff").is_displayed(),
             "/docs": lambda d: d.find_element(By.TAG_NAME, "body").get_attribute(
                 "data-endpoints")}
    with serve(make_app(tmp_path / "t.db")) as url, \
            headless_chromium(log_console=True) as driver:
        for path, loaded in ready.items():
            driver.get(url + path)
            WebDriverWait(driver, 20).until(loaded)
            styled = driver.execute_script(
                "return document.styleSheets.length")  # the linked sheets were applied
            assert styled >= 1, path
            refused = [entry["message"] for entry in driver.get_log("browser")
                       if "Content Security Policy" in entry["message"]
                       or "Refused to" in entry["message"]]
            assert not refused, (path, refused)
        assert not _framed(driver, url)


def _framed(driver: Any, url: str) -> bool:
    """Whether the dealer screen shows inside a frame of another page (even one of its own
    origin: ``frame-ancestors 'none'`` refuses every framing, and the browser logs it)."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url + "/static/display.css")
    driver.get_log("browser")  # only what the frame brings
    driver.execute_script(
        "const f = document.createElement('iframe'); f.src = arguments[0]; "
        "document.body.appendChild(f);", url + "/")
    seen: list[str] = []

    def refused(d: Any) -> bool:
        seen.extend(entry["message"] for entry in d.get_log("browser"))
        return any("frame-ancestors" in m for m in seen)

    try:
        WebDriverWait(driver, 10, poll_frequency=0.1).until(refused)
    except TimeoutException:
        return True
    return False
