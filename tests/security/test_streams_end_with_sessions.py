"""An operator's event stream ends with the session it was opened with.

A stream opened with a ticket or a token kept sending the operator's view (packets to a
supervisor, every keyed-in hand to a dealer) after its ticket lapsed and after the person signed
out, was relieved or let the session expire: a screen left open went on showing what only a
signed-in person may see.  Now the session's end ends its streams and revokes its tickets, and
the page reconnects as the public.  Expiry is found within seconds by the app's own sweep, with
no request needed.  Against a real uvicorn, with streams read as a browser would."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI

from controller.display.sign_in import SIGNED_OUT
from controller.journal import open_journal
from tests.display.conftest import (
    DEALER_PIN,
    STAFF,
    SUPERVISOR,
    SUPERVISOR_PIN,
    serve,
    staffed_app,
)
from tests.display.conftest import ManualClock as Clock

READ_SECONDS = 10.0
"""How long a read waits: a stream that should end and sends nothing for this long has not."""


def _app(path: Path, clock: Clock | None = None) -> FastAPI:
    return staffed_app(path, STAFF, clock)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def live(tmp_path: Path, clock: Clock) -> Iterator[str]:
    with serve(_app(tmp_path / "table.db", clock)) as url:
        yield url


class Stream:
    """One open ``/api/events`` stream, read line by line."""

    def __init__(self, stack: ExitStack, client: httpx2.Client, **kwargs: Any) -> None:
        self.response = stack.enter_context(client.stream("GET", "/api/events", **kwargs))
        assert self.response.status_code == 200
        self.lines = self.response.iter_lines()

    def kinds_until(self, kind: str) -> list[str]:
        """The kinds of the records received up to one of ``kind``."""
        seen: list[str] = []
        for line in self.lines:
            if line.startswith("data: "):
                seen.append(json.loads(line.removeprefix("data: "))["kind"])
                if seen[-1] == kind:
                    return seen
        raise AssertionError(f"the stream ended before a {kind!r} record; got {seen}")

    def rest(self) -> list[str]:
        """The kinds of the records left before the server ends the stream (a read timeout:
        it did not end)."""
        return [json.loads(line.removeprefix("data: "))["kind"] for line in self.lines
                if line.startswith("data: ")]


def sign_in(client: httpx2.Client, staff: str, pin: str) -> dict[str, str]:
    answer = client.post("/api/session", json={"staff": staff, "pin": pin})
    assert answer.status_code == 200, answer.text
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def ticket(client: httpx2.Client, headers: dict[str, str]) -> str:
    answer = client.post("/api/events/ticket", headers=headers)
    assert answer.status_code == 200, answer.text
    found: str = answer.json()["ticket"]
    return found


def test_signing_out_ends_the_sessions_streams_and_tickets(live: str) -> None:
    with httpx2.Client(base_url=live, timeout=READ_SECONDS) as client, ExitStack() as stack:
        sue = sign_in(client, "sue", SUPERVISOR_PIN)
        issued = ticket(client, sue)
        by_ticket = Stream(stack, client, params={"ticket": issued})
        by_token = Stream(stack, client, headers=sue)
        public = Stream(stack, client)
        other = Stream(stack, client, headers=SUPERVISOR)  # another supervisor's session
        assert client.post("/api/round/open", headers=sue).status_code == 200
        for stream in (by_ticket, by_token, public, other):
            assert stream.kinds_until("round_opened")[-1] == "round_opened"

        assert client.delete("/api/session", headers=sue).status_code == 200
        assert by_ticket.rest() == [] and by_token.rest() == []  # ended, nothing more sent
        refused = client.get("/api/events", params={"ticket": issued})
        assert refused.status_code == 401  # the ticket, not a minute old, died with it
        assert client.get("/api/events", headers=sue).status_code == 401
        assert client.post("/api/events/ticket", headers=sue).status_code == 401

        # the public's stream and another session's run on
        assert client.post("/api/round/bets", headers=SUPERVISOR,
                           json={"position": 2, "wager": 2500}).status_code == 200
        for stream in (public, other):
            assert stream.kinds_until("bet")[-2:] == [SIGNED_OUT, "bet"]


def test_a_relieved_dealers_stream_ends(live: str) -> None:
    with httpx2.Client(base_url=live, timeout=READ_SECONDS) as client, ExitStack() as stack:
        first = sign_in(client, "ann", DEALER_PIN)
        old = Stream(stack, client, params={"ticket": ticket(client, first)})
        again = sign_in(client, "ann", DEALER_PIN)  # a new sign-in relieves the dealer on duty
        assert old.rest() == []
        new = Stream(stack, client, params={"ticket": ticket(client, again)})
        assert client.post("/api/round/open", headers=again).status_code == 200
        assert new.kinds_until("round_opened")[-1] == "round_opened"


def test_an_expired_session_ends_its_stream_with_no_request(live: str, clock: Clock,
                                                            tmp_path: Path) -> None:
    with httpx2.Client(base_url=live, timeout=READ_SECONDS) as client, ExitStack() as stack:
        ann = sign_in(client, "ann", DEALER_PIN)
        issued = ticket(client, ann)
        stream = Stream(stack, client, params={"ticket": issued})
        assert client.post("/api/round/open", headers=ann).status_code == 200
        assert stream.kinds_until("round_opened")[-1] == "round_opened"
        clock.now += STAFF.sessions.idle  # idle too long; nobody asks anything now
        assert stream.rest() == []  # the app's sweep ended it within its few seconds
        assert client.get("/api/events", params={"ticket": issued}).status_code == 401
    with open_journal(tmp_path / "table.db", create=False) as journal:
        last = journal.records()[-1]
    assert (last.kind, last.actor, last.payload()["reason"]) == (SIGNED_OUT, "table",
                                                                 "expired (idle)")


def test_the_page_of_a_session_ended_elsewhere_goes_on_as_the_public(tmp_path: Path) -> None:
    from tests.browser import chromium_missing, headless_chromium

    if chromium_missing():
        pytest.skip(chromium_missing() or "")
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    app = _app(tmp_path / "table.db")
    with serve(app) as url, headless_chromium() as driver, \
            httpx2.Client(base_url=url, timeout=READ_SECONDS) as client:
        driver.get(url + "/")
        wait = WebDriverWait(driver, 20)
        wait.until(lambda d: d.find_element(By.ID, "link").text == "live")
        driver.find_element(By.ID, "staff-id").send_keys("sue")
        driver.find_element(By.ID, "pin").send_keys(SUPERVISOR_PIN)
        driver.find_element(By.ID, "sign-in").click()
        wait.until(lambda d: d.find_element(By.ID, "who").text.startswith("signed in"))
        table = app.state.table
        wait.until(lambda d: any(s.session for s in table._subscribers))  # the page's stream
        token = driver.execute_script("return sessionStorage.getItem('paigow-token')")
        # signed out from another screen: the page's stream ends, and so does its session
        assert client.delete("/api/session",
                             headers={"Authorization": f"Bearer {token}"}).status_code == 200
        wait.until(lambda d: d.find_element(By.ID, "who").text.startswith("read only"))
        assert driver.find_element(By.ID, "message").text.startswith(
            "signed out: the session ended")
        wait.until(lambda d: table._subscribers and all(s.session is None
                                                         for s in table._subscribers))
        wait.until(lambda d: d.find_element(By.ID, "link").text == "live")
        assert client.post("/api/round/open", headers=SUPERVISOR).status_code == 200
        wait.until(lambda d: "betting" in d.find_element(By.ID, "round").text)
        assert driver.execute_script("return sessionStorage.getItem('paigow-token')") is None
