"""End to end in headless Chromium: a round played through the API shows settled on the page; a
dealer plays a whole round from the page's controls; a read-only viewer's act is refused; a
supervisor clears a fault and voids; a tile round from the page: tiles as pictures, the REPLAY
marker and a deviation; a tile round with a cut called from the page; a rotation round (offer,
decline, a player's bank); home play's pot and antes; heads-up's "Deal" and "Play the house
way"; and ``/docs`` rendered with no request leaving the table.

Debian's ``chromium`` and ``chromium-driver`` (``scripts/browser_setup.sh`` installs them),
driven by Selenium.  Skipped only when they are not installed.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest

from controller.display import Table, create_app
from controller.journal import StepClock, open_journal
from controller.profiles.tiles import load_tile_profile
from controller.round import FakeDice, TileRound
from tests.browser import chromium_missing, headless_chromium

from .conftest import (
    DEALER,
    DEALER_PIN,
    SETTINGS,
    SUPERVISOR_PIN,
    make_app,
    play_round,
    serve,
)

if chromium_missing():
    pytest.skip(chromium_missing() or "", allow_module_level=True)

from selenium.common.exceptions import (
    NoSuchElementException,
    StaleElementReferenceException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from .page import click, text_of, type_into
from .test_play import play_home_deal, profile_app

REDRAWN = (StaleElementReferenceException, NoSuchElementException)
"""What a wait may meet while the page re-renders (an element replaced under it)."""


@pytest.fixture
def browser() -> Iterator[Any]:
    with headless_chromium(log_requests=True) as driver:
        yield driver


def test_page_shows_the_settled_round(live: str, browser: Any) -> None:
    driver = browser
    driver.get(live + "/")
    wait = WebDriverWait(driver, 15, ignored_exceptions=REDRAWN)
    wait.until(lambda d: d.find_element(By.ID, "link").text == "live")
    with httpx2.Client(base_url=live, timeout=10) as client:
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
    assert driver.find_elements(By.CSS_SELECTOR, "#dealer .card")  # exposed: the public sees it
    assert not driver.find_elements(By.CSS_SELECTOR, "#dealer .houseway")  # the house's only


# --- acts from the page --------------------------------------------------------------------

def _phase(driver: Any) -> str:
    return text_of(driver, "#round .phase")


def _sign_in(driver: Any, wait: Any, staff: str, pin: str) -> None:
    wait.until(lambda d: d.find_element(By.ID, "staff-id").is_displayed())  # signed out
    type_into(driver, "#staff-id", staff)
    type_into(driver, "#pin", pin)
    driver.execute_script("document.getElementById('message').textContent = ''")  # a new answer
    driver.find_element(By.ID, "sign-in").click()
    wait.until(lambda d: d.find_element(By.ID, "who").text.startswith("signed in")
               or d.find_element(By.ID, "message").text.startswith("refused"))


def test_a_dealer_plays_a_whole_round_from_the_page(live: str, browser: Any,
                                                    journal_path: Path) -> None:
    driver = browser
    driver.get(live + "/")
    wait = WebDriverWait(driver, 20, ignored_exceptions=REDRAWN)
    wait.until(lambda d: d.find_element(By.ID, "link").text == "live")
    _sign_in(driver, wait, "ann", DEALER_PIN)
    assert driver.find_element(By.ID, "who").text == "signed in: Ann (ann, dealer)"
    assert click(driver, wait, "[data-act=open_round]").startswith("done: open_round by ann")
    wait.until(lambda d: _phase(d) == "betting")
    with httpx2.Client(base_url=live, timeout=10) as client:
        limits = client.get("/api/table").json()["limits"]
    over = limits["max_bet"] + 100
    assert driver.find_element(By.ID, "limits").text.startswith(
        f"limits: bet {limits['min_bet'] // 100}.00 to {limits['max_bet'] // 100}.00")
    # a player's bank is the supervisor's act: the dealer's page does not offer it
    assert not driver.find_element(By.CSS_SELECTOR, "[data-act=bank]").is_enabled()

    type_into(driver, "#entry-2 input[name=wager]", "25")
    assert click(driver, wait, "#entry-2 [data-act=take_bet]").startswith("done: take_bet")
    type_into(driver, "#entry-4 input[name=wager]", "50.00")
    type_into(driver, "#entry-4 input[name=fortune]", "5")
    assert click(driver, wait, "#entry-4 [data-act=take_bet]").startswith("done: take_bet")
    # bad input is named and not sent; a bet beyond the table limit is refused by the table
    type_into(driver, "#entry-6 input[name=wager]", "12.345")
    assert click(driver, wait, "#entry-6 [data-act=take_bet]") == (
        'not sent: position 6\'s wager "12.345" is not an amount such as 25 or 25.00')
    type_into(driver, "#entry-6 input[name=wager]", f"{over // 100}.{over % 100:02d}")
    refused = click(driver, wait, "#entry-6 [data-act=take_bet]")
    assert refused.startswith("refused (409): cannot take_bet:") and str(over) in refused
    # the bet at 2 is corrected to 30.00 before the deal
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#seat-2 .bet").text == "Bet 25.00")
    type_into(driver, "#entry-2 input[name=wager]", "30")
    assert click(driver, wait, "#entry-2 [data-act=correct_bet]").startswith("done: correct")
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#seat-2 .bet").text == "Bet 30.00")

    for act in ("close_bets", "shuffle", "deal_all", "roll"):
        assert click(driver, wait, f"#controls [data-act={act}]").startswith("done:"), act
    wait.until(lambda d: _phase(d) == "setting")
    for position in (2, 4):  # empty setting: the house way sets the dealt hand
        assert click(driver, wait, f"#entry-{position} [data-act=set_hand]").startswith(
            "done: set_hand")
    with httpx2.Client(base_url=live, timeout=10) as client:
        seats = client.get("/api/table", headers=DEALER).json()["seats"]
        two = next(s for s in seats if s["position"] == 2)
    low, high = two["setting"]["low"], two["setting"]["high"]
    type_into(driver, "#entry-2 input[name=setting]", "Ks")  # not a setting: not sent
    assert click(driver, wait, "#entry-2 [data-act=correct_setting]") == (
        'not sent: setting "Ks" must be LOW / HIGH')
    type_into(driver, "#entry-2 input[name=setting]", f"{low[1]} {low[0]} / {' '.join(high)}")
    assert click(driver, wait, "#entry-2 [data-act=correct_setting]").startswith(
        "done: correct by ann")
    assert click(driver, wait, "#controls [data-act=expose_dealer]").startswith("done:")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#dealer .houseway svg.card"))
    assert click(driver, wait, "#controls [data-act=settle]").startswith("done: settle")
    wait.until(lambda d: _phase(d) == "settled")

    with httpx2.Client(base_url=live, timeout=10) as client:
        seats = {s["position"]: s for s in client.get("/api/table").json()["seats"]}
        round_id = client.get("/api/rounds").json()["rounds"][0]["round_id"]
    assert seats[2]["wager"] == 3000 and (seats[4]["wager"], seats[4]["fortune"]) == (5000, 500)
    for position in (2, 4):
        assert text_of(driver, f"#seat-{position} .result") == seats[position]["result"]["text"]
    assert driver.execute_script(
        "return document.querySelectorAll('#seat-4 svg.card').length") == 7
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f'#recall li[data-round="{round_id}"]'))
    driver.save_screenshot(str(Path(tempfile.gettempdir()) / "paigow-display-acts.png"))
    with open_journal(journal_path) as journal:
        mine = [r for r in journal.round(round_id) if r.role.value == "dealer"]
    assert {r.actor for r in mine} == {"ann"}
    assert {r.kind for r in mine} >= {"round_opened", "bet", "correction", "bets_closed", "set",
                                      "dealer_exposed", "settle"}


def test_a_read_only_viewer_is_refused(live: str, browser: Any, journal_path: Path) -> None:
    driver = browser
    driver.get(live + "/")
    wait = WebDriverWait(driver, 20, ignored_exceptions=REDRAWN)
    wait.until(lambda d: d.find_element(By.ID, "link").text == "live")
    assert driver.find_element(By.ID, "who").text.startswith("read only")
    refused = click(driver, wait, "[data-act=open_round]")
    assert refused == ("refused (401): acts need a dealer's or supervisor's token: send "
                       "'Authorization: Bearer TOKEN'")
    _sign_in(driver, wait, "ann", "not-her-pin")
    assert driver.find_element(By.ID, "message").text == (
        "refused (401): unknown staff id or wrong PIN")
    assert driver.find_element(By.ID, "who").text.startswith("read only")
    with open_journal(journal_path) as journal:
        assert journal.head()[0] == 0
    with httpx2.Client(base_url=live, timeout=10) as client:
        assert client.get("/api/table").json()["phase"] is None


def _open_page(driver: Any, url: str) -> Any:
    driver.get(url + "/")
    wait = WebDriverWait(driver, 20, ignored_exceptions=REDRAWN)
    wait.until(lambda d: d.find_element(By.ID, "link").text == "live")
    return wait


def test_a_supervisor_clears_a_fault_and_voids_from_the_page(browser: Any,
                                                             journal_path: Path) -> None:
    driver, app = browser, make_app(journal_path)
    with serve(app) as url:
        wait = _open_page(driver, url)
        _sign_in(driver, wait, "sue", SUPERVISOR_PIN)
        assert driver.find_element(By.ID, "who").text == "signed in: Sue (sue, supervisor)"
        click(driver, wait, "[data-act=open_round]")
        type_into(driver, "#entry-3 input[name=wager]", "25")
        click(driver, wait, "#entry-3 [data-act=take_bet]")
        click(driver, wait, "#controls [data-act=close_bets]")
        app.state.table.engine.shuffler.inject("short_count")
        assert click(driver, wait, "#controls [data-act=shuffle]").startswith("done: shuffle")
        alert = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, ".alert.fault.critical"))
        assert "counted 52 cards" in alert.text
        deal = driver.find_element(By.CSS_SELECTOR, "#controls [data-act=deal_packet]")
        assert not deal.is_enabled()  # a critical fault stops play
        cleared = click(driver, wait, ".alert.fault [data-act=clear_fault]")
        assert cleared.startswith("done: fault") and cleared.endswith("cleared by sue")
        wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, ".alert.fault"))
        refused = click(driver, wait, "#controls [data-act=void]")  # no reason given
        assert refused.startswith("refused (422): reason:")
        type_into(driver, "#void-reason", "dealer change")
        assert click(driver, wait, "#controls [data-act=void]").startswith("done: void by sue")
        wait.until(lambda d: _phase(d) == "voided")
        void = driver.find_element(By.CSS_SELECTOR, ".alert.void")
        assert "voided: dealer change" in void.text
    with open_journal(journal_path) as journal:
        [record] = [r for r in journal.records() if r.kind == "round_voided"]
        assert (record.actor, record.role.value) == ("sue", "supervisor")


def test_a_tile_round_from_the_page_with_pictures_the_replay_marker_and_a_deviation(
        browser: Any, journal_path: Path) -> None:
    driver = browser
    journal = open_journal(journal_path, clock=StepClock())
    engine = TileRound(journal, load_tile_profile(), FakeDice(5), replay=True)
    with serve(create_app(Table(engine), SETTINGS)) as url:
        wait = _open_page(driver, url)
        _sign_in(driver, wait, "ann", DEALER_PIN)
        assert driver.find_element(By.ID, "replay-banner").is_displayed()
        assert not driver.find_elements(By.CSS_SELECTOR, "[data-act=shuffle]:not([hidden])")
        assert driver.find_elements(By.CSS_SELECTOR, "#entry-8")  # eight positions
        assert not driver.find_elements(By.CSS_SELECTOR, "#entry-4 input[name=fortune]")
        click(driver, wait, "[data-act=open_round]")
        type_into(driver, "#entry-4 input[name=wager]", "25")
        assert click(driver, wait, "#entry-4 [data-act=take_bet]").startswith("done: take_bet")
        for act in ("close_bets", "build_woodpile", "roll"):
            assert click(driver, wait, f"#controls [data-act={act}]").startswith("done:"), act
        wait.until(lambda d: _phase(d) == "setting")
        # four tiles are a hand the house way sets; LOW / HIGH is the dealer's own setting
        type_into(driver, "#entry-4 input[name=setting]", "2-2 5-6 1-3 4-4")
        assert click(driver, wait, "#entry-4 [data-act=set_hand]").startswith("done: set_hand")
        type_into(driver, "#entry-1 input[name=setting]", "4-5 1-2 / 6-6 3-3")
        assert click(driver, wait, "#entry-1 [data-act=set_hand]").startswith(
            "done: expose_dealer")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".alert.deviation"))
        assert click(driver, wait, "#controls [data-act=settle]").startswith("done: settle")
        wait.until(lambda d: _phase(d) == "settled")
        assert "REPLAY" in text_of(driver, "#round")
        codes = driver.execute_script(
            "return [...document.querySelectorAll('#seat-4 svg.tile')].map(t => t.dataset.code)")
        assert sorted(codes) == ["1-3", "2-2", "4-4", "5-6"]
        assert driver.execute_script(
            "return document.querySelectorAll('#dealer svg.tile').length") == 8  # set and way
        with httpx2.Client(base_url=url, timeout=10) as client:
            four = next(s for s in client.get("/api/table", headers=DEALER).json()["seats"]
                        if s["position"] == 4)
            assert client.get("/api/rounds").json()["rounds"][0]["replay"] is True
        assert text_of(driver, "#seat-4 .result") == four["result"]["text"]
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#recall li .replay"))
        driver.save_screenshot(str(Path(tempfile.gettempdir()) / "paigow-display-tiles.png"))


# --- the tables that play differently --------------------------------------------------------

@contextmanager
def _profile_page(driver: Any, journal_path: Path, profile: str) -> Iterator[tuple[str, Any]]:
    """A table of ``profile`` served, its page open in ``driver``: (base URL, a wait)."""
    with serve(profile_app(journal_path, profile)) as url:
        yield url, _open_page(driver, url)


def test_a_tile_round_with_a_cut_from_the_page(browser: Any, journal_path: Path) -> None:
    driver = browser
    with _profile_page(driver, journal_path, "tiles-classic") as (url, wait):
        _sign_in(driver, wait, "ann", DEALER_PIN)
        wait.until(lambda d: d.find_element(By.ID, "cut-controls").is_displayed())
        click(driver, wait, "[data-act=open_round]")
        type_into(driver, "#entry-3 input[name=wager]", "25")
        assert click(driver, wait, "#entry-3 [data-act=take_bet]").startswith("done: take_bet")
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#cut-name option")) > 20)
        Select(driver.find_element(By.ID, "cut-name")).select_by_value("cup-say")
        side = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#cut-options [name=side]"))
        Select(side).select_by_value("left")
        refused = click(driver, wait, "#controls [data-act=cut]")  # the level not chosen
        assert refused == "not sent: cut cup-say: choose its level"
        Select(driver.find_element(By.CSS_SELECTOR, "#cut-options [name=level]")
               ).select_by_value("bottom")
        assert click(driver, wait, "#controls [data-act=cut]").startswith("done: cut by ann")
        wait.until(lambda d: text_of(d, "#cut-status").startswith(
            "Cut: Cup Say (Tiger): side left, level bottom"))
        assert "cut Cup Say" in text_of(driver, "#round")
        assert not driver.find_element(By.CSS_SELECTOR, "#controls [data-act=cut]").is_enabled()
        for act in ("close_bets", "build_woodpile", "roll"):
            assert click(driver, wait, f"#controls [data-act={act}]").startswith("done:"), act
        wait.until(lambda d: _phase(d) == "setting")
        with httpx2.Client(base_url=url, timeout=10) as client:
            shown = client.get("/api/table", headers=DEALER).json()
            assert shown["cut"]["options"] == {"side": "left", "level": "bottom"}
        driver.save_screenshot(str(Path(tempfile.gettempdir()) / "paigow-display-cut.png"))
    with open_journal(journal_path) as journal:
        [pile] = [r for r in journal.records() if r.kind == "woodpile_built"]
        assert pile.payload()["cut"]["cut"] == "cup-say"


def test_a_rotation_round_from_the_page(browser: Any, journal_path: Path) -> None:
    driver = browser
    with _profile_page(driver, journal_path, "rotation") as (_, wait):
        _sign_in(driver, wait, "ann", DEALER_PIN)
        wait.until(lambda d: d.find_element(By.ID, "rotation-controls").is_displayed())
        assert not driver.find_element(By.ID, "cut-controls").is_displayed()
        wait.until(lambda d: "offered to position 2 (in turn)" in text_of(d, "#bank-status"))
        click(driver, wait, "[data-act=open_round]")
        assert click(driver, wait, "#controls [data-act=offer_bank]").startswith(
            "done: offer_bank by ann")
        wait.until(lambda d: text_of(d, "#bank-status") == "Bank: the bank is offered to "
                                                         "position 2")
        assert "offered the bank" in text_of(driver, "#seat-2 h3")
        assert click(driver, wait, "#controls [data-act=decline_bank]").startswith(
            "done: decline_bank")
        wait.until(lambda d: "declined the bank: the house banks" in text_of(d, "#bank-status"))
        assert text_of(driver, "#seat-1 h3") == "Position 1 · bank"
        type_into(driver, "#entry-4 input[name=wager]", "10")
        assert click(driver, wait, "#entry-4 [data-act=take_bet]").startswith("done: take_bet")
        driver.find_element(By.ID, "sign-out").click()
        _sign_in(driver, wait, "sue", SUPERVISOR_PIN)
        type_into(driver, "#void-reason", "next round")
        assert click(driver, wait, "#controls [data-act=void]").startswith("done: void")
        # the next round: the bank in turn is position 3, who takes it (supervisor)
        wait.until(lambda d: "position 3 (in turn)" in text_of(d, "#bank-status"))
        click(driver, wait, "[data-act=open_round]")
        click(driver, wait, "#controls [data-act=offer_bank]")
        wait.until(lambda d: driver.find_element(By.ID, "bank-position").get_attribute("value")
                   == "3")  # the position offered is filled in
        type_into(driver, "#bank-amount", "500")
        assert click(driver, wait, "#controls [data-act=bank]").startswith("done: bank by sue")
        wait.until(lambda d: text_of(d, "#bank-status") == "Bank: position 3 banks (500.00)")
        assert text_of(driver, "#seat-3 h3") == "Position 3 · bank"
        assert text_of(driver, "#seat-1 h3") == "Position 1"
        driver.save_screenshot(str(Path(tempfile.gettempdir()) / "paigow-display-rotation.png"))
    with open_journal(journal_path) as journal:
        kinds = [r.kind for r in journal.records()]
        assert kinds.count("bank_offered") == 2 and "bank_declined" in kinds and "bank" in kinds


def test_home_play_shows_the_pot_antes_and_the_winner(browser: Any, journal_path: Path) -> None:
    driver = browser
    with _profile_page(driver, journal_path, "home") as (url, wait):
        wait.until(lambda d: text_of(d, "#pot-status") == "Pot: pot 0.00, ante 5.00")
        assert "bank" not in text_of(driver, "#seat-1 h3")
        assert text_of(driver, "#seat-1 h3") == "Position 1 · dealer, no hand"
        assert "plays no hand" in text_of(driver, "#dealer")
        assert not driver.find_element(By.CSS_SELECTOR, "[data-act=bank]").is_displayed()
        assert text_of(driver, "#seat-3 .ante") == "ante due 5.00"
        for _ in range(2):  # seed 7: the first deal is won, the second carries the pot
            with httpx2.Client(base_url=url, timeout=10) as client:
                pot = play_home_deal(client, [2, 3, 4, 5])
            if pot["winner"] is not None:
                text = f"position {pot['winner']} takes the pot of {pot['total'] // 100}.00"
                wait.until(lambda d, text=text: text_of(d, "#pot-status") == f"Pot: {text}")
                with httpx2.Client(base_url=url, timeout=10) as client:
                    seats = client.get("/api/table", headers=DEALER).json()["seats"]
                    shown = seats[pot["winner"] - 1]
                assert shown["result"]["text"].startswith("POT +")
                assert text_of(driver, f"#seat-{pot['winner']} .result") == shown["result"]["text"]
            else:
                wait.until(lambda d: "is carried" in text_of(d, "#pot-status"))
                exempt = pot["exempt_next"]
                assert text_of(driver, "#pot-status").endswith(
                    "not anteing next: " + ", ".join(str(p) for p in exempt))
                assert text_of(driver, f"#seat-{exempt[0]} .result") == "ANTE -5.00"
        driver.save_screenshot(str(Path(tempfile.gettempdir()) / "paigow-display-home.png"))


def test_heads_up_deal_repeats_and_play_the_house_way(browser: Any, journal_path: Path) -> None:
    driver = browser
    with _profile_page(driver, journal_path, "heads-up") as (_, wait):
        _sign_in(driver, wait, "ann", DEALER_PIN)
        wait.until(lambda d: d.find_element(By.ID, "repeat-controls").is_displayed())
        assert driver.find_elements(By.CSS_SELECTOR, "#entry-2")
        assert not driver.find_elements(By.CSS_SELECTOR, "#entry-3")
        click(driver, wait, "[data-act=open_round]")
        assert not driver.find_element(By.CSS_SELECTOR, "[data-act=deal_repeat]").is_enabled()
        type_into(driver, "#entry-2 input[name=wager]", "35")
        click(driver, wait, "#entry-2 [data-act=take_bet]")
        for act in ("close_bets", "shuffle", "deal_all", "roll"):
            assert click(driver, wait, f"#controls [data-act={act}]").startswith("done:"), act
        assert click(driver, wait, "#entry-2 [data-act=play_house_way]").startswith(
            "done: play_house_way by ann")
        wait.until(lambda d: text_of(d, "#seat-2").count("set by house way") == 1)
        click(driver, wait, "#controls [data-act=expose_dealer]")
        click(driver, wait, "#controls [data-act=settle]")
        wait.until(lambda d: _phase(d) == "settled")
        click(driver, wait, "[data-act=open_round]")
        wait.until(lambda d: text_of(d, "#seat-2 .last-wager") == "last wager 35.00")
        assert click(driver, wait, "#controls [data-act=deal_repeat]").startswith("done:")
        wait.until(lambda d: text_of(d, "#message").startswith("done: close_bets"))  # bet, close
        wait.until(lambda d: _phase(d) == "closed")
        assert text_of(driver, "#seat-2 .bet") == "Bet 35.00"
    with open_journal(journal_path) as journal:
        sets = [r.payload() for r in journal.records() if r.kind == "set"]
        assert [s.get("request") for s in sets] == ["player"]
        assert [r.payload()["wager"] for r in journal.records() if r.kind == "bet"] == [3500,
                                                                                      3500]


def test_the_api_docs_render_with_nothing_from_outside(live: str, browser: Any) -> None:
    driver = browser
    driver.get_log("performance")  # drop what earlier pages asked for
    driver.get(live + "/docs")
    wait = WebDriverWait(driver, 20, ignored_exceptions=REDRAWN)
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-endpoints"))
    with httpx2.Client(base_url=live, timeout=10) as client:
        paths = client.get("/openapi.json").json()["paths"]
    count = sum(len(methods) for methods in paths.values())
    assert driver.find_element(By.ID, "status").text == f"{count} endpoints"
    cut = driver.find_element(By.CSS_SELECTOR, '.endpoint[data-path="/api/round/cut"]')
    assert "POST" in cut.text and "CutBody" in cut.text
    assert driver.find_element(By.ID, "schema-CutBody").is_displayed()
    asked = [json.loads(entry["message"])["message"] for entry in driver.get_log("performance")]
    urls = {m["params"]["request"]["url"] for m in asked
            if m["method"] == "Network.requestWillBeSent"}
    assert live + "/docs" in urls and live + "/openapi.json" in urls
    outside = sorted(u for u in urls if u.split(":", 1)[0] in ("http", "https", "ws", "wss")
                     and not u.startswith(live + "/"))  # chrome:// is the browser's own
    assert not outside, outside
