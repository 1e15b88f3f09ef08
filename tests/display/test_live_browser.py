"""Issue 32: a live round played from the dealer's display in headless Chromium.

The table is ``paigow run``'s: the simulated table's devices (shuffler and shaker simulators in
their own processes over ptys, the panel on mock pins, no camera), the display's ``Table``
served by uvicorn on a thread, and ``LiveLoop`` on another thread with the display's desk
telling it who is on duty.  The dealer signs in with id and PIN, opens the round, keys two
bets, closes the bets, rolls, sets both seats by the house way, exposes the dealer's hand and
settles, all through the page; the loop alone shuffles and deals.

Debian's ``chromium`` and ``chromium-driver`` (``scripts/browser_setup.sh``), driven by
Selenium; skipped only when they are not installed.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest

from controller.commands.table import SIM_TABLE
from controller.config.locations import config_file
from controller.display import DisplaySettings, Table, create_app
from controller.journal import Journal, Role, open_journal
from controller.profiles.poker import load_profile
from controller.round import PokerRound
from controller.staff import Member, PinHash, Staff
from controller.table import TableDevices, open_table
from controller.table.live import LiveLoop
from tests.browser import chromium_missing, headless_chromium

from .conftest import serve

if chromium_missing():
    pytest.skip(chromium_missing() or "", allow_module_level=True)

from selenium.common.exceptions import (
    NoSuchElementException,
    StaleElementReferenceException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from .page import click, text_of, type_into

PIN = "402913"
STAFF = Staff({"dana": Member("dana", "Dana", Role.DEALER, PinHash.make(PIN))})
"""The one dealer who may sign in."""
BETS = {3: ("25", 2500), 6: ("40.50", 4050)}
"""Position -> the wager keyed at the page and the cents it must journal as."""
REDRAWN = (StaleElementReferenceException, NoSuchElementException)


@dataclass
class LiveTable:
    """The served live table: its URL, journal, devices, loop and what the loop said."""

    url: str
    journal: Journal
    devices: TableDevices
    loop: LiveLoop
    lines: list[str]


@pytest.fixture
def live_table(tmp_path: Path) -> Iterator[LiveTable]:
    journal = open_journal(tmp_path / "live.sqlite")
    devices = open_table(config_file(*SIM_TABLE), "poker", seed=5, camera=lambda: None)
    try:
        assert devices.shuffler is not None
        engine = PokerRound(journal, load_profile(), devices.shuffler, devices.dice, None)
        table = Table(engine)
        app = create_app(table, DisplaySettings(staff=STAFF), recover=False)
        lines: list[str] = []
        loop = LiveLoop(table, devices, on_duty=app.state.desk.on_duty, out=lines.append,
                        poll=0.02)
        thread = threading.Thread(target=loop.run, name="live-loop", daemon=True)
        with serve(app) as url:
            thread.start()
            try:
                yield LiveTable(url, journal, devices, loop, lines)
            finally:
                loop.stop()
                thread.join(timeout=10)
    finally:
        devices.close()
        journal.close()


def _phase(driver: Any) -> str:
    return text_of(driver, "#round .phase")


def test_a_live_round_played_from_the_dealers_display(live_table: LiveTable) -> None:
    url, journal = live_table.url, live_table.journal
    with headless_chromium() as driver:
        driver.get(url + "/")
        wait = WebDriverWait(driver, 20, ignored_exceptions=REDRAWN)
        wait.until(lambda d: d.find_element(By.ID, "link").text == "live")
        wait.until(lambda d: d.find_element(By.ID, "staff-id").is_displayed())
        type_into(driver, "#staff-id", "dana")
        type_into(driver, "#pin", PIN)
        driver.find_element(By.ID, "sign-in").click()
        wait.until(lambda d: text_of(d, "#who") == "signed in: Dana (dana, dealer)")

        assert click(driver, wait, "[data-act=open_round]").startswith("done: open_round by dana")
        wait.until(lambda d: _phase(d) == "betting")
        for position, (keyed, _) in BETS.items():
            type_into(driver, f"#entry-{position} input[name=wager]", keyed)
            assert click(driver, wait, f"#entry-{position} [data-act=take_bet]").startswith(
                "done: take_bet by dana"), position
        assert click(driver, wait, "#controls [data-act=close_bets]") == (
            "done: close_bets by dana (dealer): bets_closed")
        # The loop shuffles and deals on the simulators; the page then offers the roll.
        wait.until(lambda d: _phase(d) == "dealt")
        wait.until(lambda d: not any(d.find_element(By.CSS_SELECTOR, f"#controls [data-act={a}]")
                                     .is_enabled() for a in ("shuffle", "deal_packet")))
        assert not live_table.loop.summary.refused, live_table.lines
        assert click(driver, wait, "#controls [data-act=roll]") == (
            "done: roll by dana (dealer): roll")
        wait.until(lambda d: _phase(d) == "setting")
        for position in BETS:  # an empty setting: the house way sets the dealt hand
            assert click(driver, wait, f"#entry-{position} [data-act=set_hand]").startswith(
                "done: set_hand by dana"), position
        assert click(driver, wait, "#controls [data-act=expose_dealer]").startswith(
            "done: expose_dealer by dana")
        wait.until(lambda d: _phase(d) == "exposed")
        assert click(driver, wait, "#controls [data-act=settle]").startswith(
            "done: settle by dana")
        wait.until(lambda d: _phase(d) == "settled")

        with httpx2.Client(base_url=url, timeout=10) as client:
            seats = {s["position"]: s for s in client.get("/api/table").json()["seats"]}
            round_id = client.get("/api/rounds").json()["rounds"][0]["round_id"]
        wait.until(lambda d: all(text_of(d, f"#seat-{p} .result") == seats[p]["result"]["text"]
                                 for p in BETS))
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR,
                                             f'#recall li[data-round="{round_id}"]'))
        assert "settled" in text_of(driver, "#round")
        assert driver.find_elements(By.CSS_SELECTOR, "#dealer .card")

    end = time.monotonic() + 10  # the loop counts the closed round on its next turn
    while live_table.loop.summary.settled != 1:
        assert time.monotonic() < end, live_table.lines
        time.sleep(0.02)
    records = list(journal.round(round_id))
    kinds = [r.kind for r in records]
    assert kinds.count("settle") == 1 and "round_voided" not in kinds, kinds
    bets = {r.payload()["position"]: r for r in records if r.kind == "bet"}
    assert {p: r.payload()["wager"] for p, r in bets.items()} == {
        p: cents for p, (_, cents) in BETS.items()}
    assert {(r.actor, r.role) for r in bets.values()} == {("dana", Role.DEALER)}
    people = {"round_opened", "bets_closed", "set", "dealer_exposed", "settle"}
    assert {(r.actor, r.role) for r in records if r.kind in people} == {("dana", Role.DEALER)}
    # Between the dealer's close and the dealer's roll the page sent nothing: the shuffle and
    # the seven packets are the loop's, journaled as the shuffler's.
    closed, rolled = kinds.index("bets_closed"), kinds.index("roll")
    dealt = [(r.kind, r.actor, r.role) for r in records[closed + 1:rolled]]
    assert dealt == [("shuffled", "shuffler-1", Role.DEVICE)] + [
        ("packet", "shuffler-1", Role.DEVICE)] * 7
    assert (records[rolled].actor, records[rolled].role) == ("shaker-1", Role.DEVICE)
    assert live_table.loop.summary.refused == [], live_table.lines
