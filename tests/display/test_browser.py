"""End to end in headless Chromium: a round played through the API shows settled on the page; a
dealer plays a whole round from the page's controls; a read-only viewer's act is refused; a
supervisor clears a fault and voids; a tile round from the page: tiles as pictures, the REPLAY
marker and a deviation.

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

from controller.display import Table, create_app
from controller.journal import StepClock, open_journal
from controller.round import FakeDice, TileRound
from controller.tile_profile import load_tile_profile

from .conftest import (
    DEALER_TOKEN,
    SETTINGS,
    SUPERVISOR_TOKEN,
    make_app,
    play_round,
    serve,
)

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--disable-dev-shm-usage", "--window-size=1280,1400")

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
    pytest.skip("Debian chromium/chromium-driver not installed (run scripts/browser_setup.sh)",
                allow_module_level=True)

from selenium.common.exceptions import (  # noqa: E402
    NoSuchElementException,
    StaleElementReferenceException,
)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

REDRAWN = (StaleElementReferenceException, NoSuchElementException)
"""What a wait may meet while the page re-renders (an element replaced under it)."""


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
    wait = WebDriverWait(driver, 15, ignored_exceptions=REDRAWN)
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


# --- acts from the page --------------------------------------------------------------------

def _click(driver: Any, wait: Any, selector: str) -> str:
    """Click a button once the view enables it; the message the page shows for the answer."""
    driver.execute_script("document.getElementById('message').textContent = ''")

    def enabled(d: Any) -> Any:
        button = d.find_element(By.CSS_SELECTOR, selector)
        return button if button.is_enabled() else False

    for _ in range(3):  # an alert's button may be redrawn between finding and clicking it
        try:
            wait.until(enabled).click()
            break
        except StaleElementReferenceException:
            continue
    wait.until(lambda d: _text(d, "#message"))
    return _text(driver, "#message")


def _type(driver: Any, selector: str, text: str) -> None:
    box = driver.find_element(By.CSS_SELECTOR, selector)
    box.clear()
    box.send_keys(text)


def _text(driver: Any, selector: str) -> str:
    """An element's text read in one step in the page (no stale reference mid re-render)."""
    text = driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.innerText : '';", selector)
    return str(text)


def _phase(driver: Any) -> str:
    return _text(driver, "#round .phase")


def _sign_in(driver: Any, wait: Any, token: str) -> None:
    _type(driver, "#token", token)
    driver.find_element(By.ID, "sign-in").click()
    wait.until(lambda d: d.find_element(By.ID, "who").text.startswith("signed in")
               or d.find_element(By.ID, "message").text.startswith("refused"))


def test_a_dealer_plays_a_whole_round_from_the_page(live: str, browser: Any,
                                                    journal_path: Path) -> None:
    driver = browser
    driver.get(live + "/")
    wait = WebDriverWait(driver, 20, ignored_exceptions=REDRAWN)
    wait.until(lambda d: d.find_element(By.ID, "link").text == "live")
    _sign_in(driver, wait, DEALER_TOKEN)
    assert driver.find_element(By.ID, "who").text == "signed in: ann (dealer)"
    assert _click(driver, wait, "[data-act=open_round]").startswith("done: open_round by ann")
    wait.until(lambda d: _phase(d) == "betting")
    with httpx.Client(base_url=live, timeout=10) as client:
        limits = client.get("/api/table").json()["limits"]
    over = limits["max_bet"] + 100
    assert driver.find_element(By.ID, "limits").text.startswith(
        f"limits: bet {limits['min_bet'] // 100}.00 to {limits['max_bet'] // 100}.00")
    # a player's bank is the supervisor's act: the dealer's page does not offer it
    assert not driver.find_element(By.CSS_SELECTOR, "[data-act=bank]").is_enabled()

    _type(driver, "#entry-2 input[name=wager]", "25")
    assert _click(driver, wait, "#entry-2 [data-act=take_bet]").startswith("done: take_bet")
    _type(driver, "#entry-4 input[name=wager]", "50.00")
    _type(driver, "#entry-4 input[name=fortune]", "5")
    assert _click(driver, wait, "#entry-4 [data-act=take_bet]").startswith("done: take_bet")
    # bad input is named and not sent; a bet beyond the table limit is refused by the table
    _type(driver, "#entry-6 input[name=wager]", "12.345")
    assert _click(driver, wait, "#entry-6 [data-act=take_bet]") == (
        'not sent: position 6\'s wager "12.345" is not an amount such as 25 or 25.00')
    _type(driver, "#entry-6 input[name=wager]", f"{over // 100}.{over % 100:02d}")
    refused = _click(driver, wait, "#entry-6 [data-act=take_bet]")
    assert refused.startswith("refused (409): cannot take_bet:") and str(over) in refused
    # the bet at 2 is corrected to 30.00 before the deal
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#seat-2 .bet").text == "Bet 25.00")
    _type(driver, "#entry-2 input[name=wager]", "30")
    assert _click(driver, wait, "#entry-2 [data-act=correct_bet]").startswith("done: correct")
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#seat-2 .bet").text == "Bet 30.00")

    for act in ("close_bets", "shuffle", "deal_all", "roll"):
        assert _click(driver, wait, f"#controls [data-act={act}]").startswith("done:"), act
    wait.until(lambda d: _phase(d) == "setting")
    for position in (2, 4):  # empty setting: the house way sets the dealt hand
        assert _click(driver, wait, f"#entry-{position} [data-act=set_hand]").startswith(
            "done: set_hand")
    with httpx.Client(base_url=live, timeout=10) as client:
        two = next(s for s in client.get("/api/table").json()["seats"] if s["position"] == 2)
    low, high = two["setting"]["low"], two["setting"]["high"]
    _type(driver, "#entry-2 input[name=setting]", "Ks")  # not a setting: not sent
    assert _click(driver, wait, "#entry-2 [data-act=correct_setting]") == (
        'not sent: setting "Ks" must be LOW / HIGH')
    _type(driver, "#entry-2 input[name=setting]", f"{low[1]} {low[0]} / {' '.join(high)}")
    assert _click(driver, wait, "#entry-2 [data-act=correct_setting]").startswith(
        "done: correct by ann")
    assert _click(driver, wait, "#controls [data-act=expose_dealer]").startswith("done:")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#dealer .houseway svg.card"))
    assert _click(driver, wait, "#controls [data-act=settle]").startswith("done: settle")
    wait.until(lambda d: _phase(d) == "settled")

    with httpx.Client(base_url=live, timeout=10) as client:
        seats = {s["position"]: s for s in client.get("/api/table").json()["seats"]}
        round_id = client.get("/api/rounds").json()["rounds"][0]["round_id"]
    assert seats[2]["wager"] == 3000 and (seats[4]["wager"], seats[4]["fortune"]) == (5000, 500)
    for position in (2, 4):
        assert _text(driver, f"#seat-{position} .result") == seats[position]["result"]["text"]
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
    refused = _click(driver, wait, "[data-act=open_round]")
    assert refused == ("refused (401): acts need a dealer's or supervisor's token: send "
                       "'Authorization: Bearer TOKEN'")
    _sign_in(driver, wait, "not-a-real-token")
    assert driver.find_element(By.ID, "message").text == (
        "refused (401): unknown token: no dealer or supervisor has it")
    assert driver.find_element(By.ID, "who").text.startswith("read only")
    with open_journal(journal_path) as journal:
        assert journal.head()[0] == 0
    with httpx.Client(base_url=live, timeout=10) as client:
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
        _sign_in(driver, wait, SUPERVISOR_TOKEN)
        assert driver.find_element(By.ID, "who").text == "signed in: sue (supervisor)"
        _click(driver, wait, "[data-act=open_round]")
        _type(driver, "#entry-3 input[name=wager]", "25")
        _click(driver, wait, "#entry-3 [data-act=take_bet]")
        _click(driver, wait, "#controls [data-act=close_bets]")
        app.state.table.engine.shuffler.inject("short_count")
        assert _click(driver, wait, "#controls [data-act=shuffle]").startswith("done: shuffle")
        alert = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, ".alert.fault.critical"))
        assert "counted 52 cards" in alert.text
        deal = driver.find_element(By.CSS_SELECTOR, "#controls [data-act=deal_packet]")
        assert not deal.is_enabled()  # a critical fault stops play
        cleared = _click(driver, wait, ".alert.fault [data-act=clear_fault]")
        assert cleared.startswith("done: fault") and cleared.endswith("cleared by sue")
        wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, ".alert.fault"))
        refused = _click(driver, wait, "#controls [data-act=void]")  # no reason given
        assert refused.startswith("refused (422): reason:")
        _type(driver, "#void-reason", "dealer change")
        assert _click(driver, wait, "#controls [data-act=void]").startswith("done: void by sue")
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
        _sign_in(driver, wait, DEALER_TOKEN)
        assert driver.find_element(By.ID, "replay-banner").is_displayed()
        assert not driver.find_elements(By.CSS_SELECTOR, "[data-act=shuffle]:not([hidden])")
        assert driver.find_elements(By.CSS_SELECTOR, "#entry-8")  # eight positions
        assert not driver.find_elements(By.CSS_SELECTOR, "#entry-4 input[name=fortune]")
        _click(driver, wait, "[data-act=open_round]")
        _type(driver, "#entry-4 input[name=wager]", "25")
        assert _click(driver, wait, "#entry-4 [data-act=take_bet]").startswith("done: take_bet")
        for act in ("close_bets", "build_woodpile", "roll"):
            assert _click(driver, wait, f"#controls [data-act={act}]").startswith("done:"), act
        wait.until(lambda d: _phase(d) == "setting")
        # four tiles are a hand the house way sets; LOW / HIGH is the dealer's own setting
        _type(driver, "#entry-4 input[name=setting]", "2-2 5-6 1-3 4-4")
        assert _click(driver, wait, "#entry-4 [data-act=set_hand]").startswith("done: set_hand")
        _type(driver, "#entry-1 input[name=setting]", "4-5 1-2 / 6-6 3-3")
        assert _click(driver, wait, "#entry-1 [data-act=set_hand]").startswith(
            "done: expose_dealer")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".alert.deviation"))
        assert _click(driver, wait, "#controls [data-act=settle]").startswith("done: settle")
        wait.until(lambda d: _phase(d) == "settled")
        assert "REPLAY" in _text(driver, "#round")
        codes = driver.execute_script(
            "return [...document.querySelectorAll('#seat-4 svg.tile')].map(t => t.dataset.code)")
        assert sorted(codes) == ["1-3", "2-2", "4-4", "5-6"]
        assert driver.execute_script(
            "return document.querySelectorAll('#dealer svg.tile').length") == 8  # set and way
        with httpx.Client(base_url=url, timeout=10) as client:
            four = next(s for s in client.get("/api/table").json()["seats"]
                        if s["position"] == 4)
            assert client.get("/api/rounds").json()["rounds"][0]["replay"] is True
        assert _text(driver, "#seat-4 .result") == four["result"]["text"]
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#recall li .replay"))
        driver.save_screenshot(str(Path(tempfile.gettempdir()) / "paigow-display-tiles.png"))
