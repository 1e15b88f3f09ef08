"""Issue 30 item 1, as a player would test it: an anonymous page in headless Chromium through a
whole round, every response and server-sent event it received captured from Chrome's own
network log (``Network.getResponseBody``, ``Network.eventSourceMessageReceived``).

Before the showdown no card of any hand may reach the page; after it the exposed hands must,
and the cards of the hands nobody played (collected unseen) never do.  Before the fix the page
was sent every hand as soon as it was dealt, and every packet as an event.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.browser import chromium_missing, headless_chromium
from tests.display.conftest import DEALER, SUPERVISOR, make_app, serve

if chromium_missing():
    pytest.skip(chromium_missing() or "", allow_module_level=True)

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def received(driver: Any) -> list[str]:
    """Every API response body and event the page received since the last call (the page's
    own script names the joker, ``"Jk"``, to draw it)."""
    texts = []
    urls: dict[str, str] = {}
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        method, params = message.get("method"), message.get("params", {})
        if method == "Network.responseReceived":
            urls[params["requestId"]] = params["response"]["url"]
        elif method == "Network.eventSourceMessageReceived":
            texts.append(params["data"])
        elif method == "Network.loadingFinished" and "/static/" not in urls.get(
                params["requestId"], "/static/"):
            try:
                body = driver.execute_cdp_cmd("Network.getResponseBody",
                                              {"requestId": params["requestId"]})
            except Exception:  # a stream, or a body already dropped
                continue
            texts.append(body.get("body", ""))
    return texts


def quoted(texts: list[str], cards: set[str]) -> set[str]:
    joined = "\n".join(texts)
    return {card for card in cards if f'"{card}"' in joined}


@pytest.fixture
def page(tmp_path: Path) -> Iterator[tuple[Any, str]]:
    with serve(make_app(tmp_path / "table.db")) as url, \
            headless_chromium(log_requests=True) as driver:
        driver.get(url + "/")
        yield driver, url


def _shown_seq(driver: Any, seq: int) -> None:
    WebDriverWait(driver, 20).until(
        lambda d: d.execute_script("return document.body.dataset.seq") == str(seq))


def test_an_anonymous_page_sees_no_card_before_its_time(page: tuple[Any, str]) -> None:
    driver, url = page
    wait = WebDriverWait(driver, 20)
    wait.until(lambda d: d.find_element(By.ID, "link").text == "live")
    with httpx2.Client(base_url=url, timeout=10) as client:
        do = client.post
        ok = [do("/api/round/open", headers=DEALER)]
        for position, wager in ((2, 2500), (4, 5000), (6, 10000)):
            ok.append(do("/api/round/bets", headers=DEALER,
                         json={"position": position, "wager": wager}))
        for act in ("close-bets", "shuffle", *["packet"] * 7, "roll"):
            ok.append(do(f"/api/round/{act}", headers=DEALER))
        for position in (2, 4, 6):
            ok.append(do("/api/round/hands", headers=DEALER, json={"position": position}))
        assert all(r.status_code == 200 for r in ok), [r.text for r in ok if r.is_error]
        full = client.get("/api/table", headers=SUPERVISOR).json()
        hands = {s["position"]: set(s["hand"]) for s in full["seats"] if s["hand"]}
        assert sorted(hands) == [1, 2, 4, 6] and all(len(h) == 7 for h in hands.values())
        _shown_seq(driver, full["last_seq"])
        before = received(driver)
        assert before, "the page received nothing"
        every_card = set().union(*hands.values())
        assert quoted(before, every_card) == set()  # nothing played is shown before the showdown
        assert "hand face down" in driver.find_element(By.ID, "seat-4").text
        assert driver.find_element(By.ID, "seeded-banner").is_displayed()  # make_app is seeded

        ok = [do("/api/round/dealer", headers=DEALER), do("/api/round/settle", headers=DEALER)]
        assert all(r.status_code == 200 for r in ok)
        records = client.get("/api/rounds?last=1&records=true", headers=SUPERVISOR).json()
        packets = {c for r in records["rounds"][0]["records"] if r["kind"] == "packet"
                   for c in r["event"]["cards"]}
        last = client.get("/api/table", headers=SUPERVISOR).json()["last_seq"]
    assert len(packets) == 49
    _shown_seq(driver, last)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#seat-4 .result"))
    after = received(driver)
    assert quoted(after, every_card) == every_card  # the exposed hands, once exposed
    unplayed = packets - every_card
    assert len(unplayed) == 21 and quoted(before + after, unplayed) == set()
    assert driver.find_elements(By.CSS_SELECTOR, "#seat-4 .card")
    assert "seeded:" not in "\n".join(before + after)
