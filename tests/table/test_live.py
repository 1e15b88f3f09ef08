"""The live loop on the simulated devices: people play (panel presses on the mock pins, acts
keyed as the display keys them), the loop deals, and nothing is simulated but the devices."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.journal import Journal, Role, open_journal
from controller.live import Table
from controller.profiles.poker import load_profile
from controller.profiles.tiles import load_tile_profile
from controller.round import IllegalActError, Phase, PokerRound, TileRound, Who
from controller.table import TableDevices, open_table
from controller.table.live import MACHINE_ACTS, LiveLoop
from firmware_interfaces.gpio import DEFAULT_DEBOUNCE, PanelButton
from firmware_interfaces.gpio.mock import MockLines
from firmware_interfaces.gpio.tower_light import LOCKED, ROUND_OPEN

from .conftest import SIM_TABLE, TIMING

DEALER = Who.dealer("ann")


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    opened = open_journal(tmp_path / "live.sqlite")
    yield opened
    opened.close()


class Live:
    """A live table under test: the loop on its own thread, the dealer's hand on the pins."""

    def __init__(self, devices: TableDevices, journal: Journal, on_duty: dict[Role, Who]) -> None:
        self.devices = devices
        if devices.game == "tiles":
            engine: Any = TileRound(journal, load_tile_profile(), devices.dice, None)
        else:
            assert devices.shuffler is not None
            engine = PokerRound(journal, load_profile(), devices.shuffler, devices.dice, None)
        self.table = Table(engine)
        self.lines: list[str] = []
        self.loop = LiveLoop(self.table, devices, on_duty=on_duty.get, out=self.lines.append,
                             poll=0.02)
        self.thread = threading.Thread(target=self.loop.run, daemon=True)
        self._last = -1.0

    def press(self, button: PanelButton) -> None:
        """Press and release a button on the mock pins, as the dealer's hand would."""
        quiet = self._last + DEFAULT_DEBOUNCE * 1.2  # a press counts after a quiet line
        if time.monotonic() < quiet:
            time.sleep(quiet - time.monotonic())
        MockLines(self.devices.pin_factory, self.devices.hardware.pins).click(
            f"panel.{button.value}")
        self._last = time.monotonic()

    def until(self, what: Callable[[], bool], timeout: float = 20.0) -> None:
        end = time.monotonic() + timeout
        while not what():
            assert time.monotonic() < end, f"timed out; loop said {self.lines}"
            time.sleep(0.02)

    def phase(self) -> Phase | None:
        with self.table.lock:
            state = self.table.engine.round
            return None if state is None or state.closed else state.phase


@pytest.fixture
def live(journal: Journal) -> Iterator[Callable[..., Live]]:
    made: list[tuple[TableDevices, Live]] = []

    def start(game: str, on_duty: dict[Role, Who] | None = None) -> Live:
        devices = open_table(SIM_TABLE, game, seed=4, timing=TIMING, camera=lambda: None)
        table = Live(devices, journal, {Role.DEALER: DEALER} if on_duty is None else on_duty)
        made.append((devices, table))
        table.thread.start()
        return table

    yield start
    for devices, table in made:
        table.loop.stop()
        table.thread.join(timeout=10)
        devices.close()


def test_a_poker_round_played_by_the_dealer_from_the_panel(live: Callable[..., Live],
                                                          journal: Journal) -> None:
    table = live("poker")
    table.press(PanelButton.NEW_ROUND)
    table.until(lambda: table.phase() is Phase.BETTING)
    for position in (2, 5):  # keyed at the display
        table.table.act("take_bet", DEALER, position, 2500)
    table.press(PanelButton.CONFIRM)  # no more bets: the loop shuffles and deals
    table.until(lambda: table.phase() is Phase.DEALT)
    assert table.devices.panel.light.pattern == ROUND_OPEN
    table.press(PanelButton.SHAKE)
    table.until(lambda: table.phase() is Phase.SETTING)
    for position in (2, 5):  # set by the house way, as the dealer keys "house way"
        table.table.act("set_hand", DEALER, position)
    table.press(PanelButton.CONFIRM)  # the dealer's hand turned up
    table.until(lambda: table.phase() is Phase.EXPOSED)
    table.press(PanelButton.CONFIRM)  # pay and take
    table.until(lambda: table.loop.summary.settled == 1)
    kinds = [r.kind for r in journal.records()]
    for kind in ("round_opened", "bets_closed", "shuffled", "packet", "roll", "dealer_exposed",
                 "settle"):
        assert kind in kinds, kinds
    by = {r.kind: (r.actor, r.role) for r in journal.records()}
    assert by["round_opened"] == ("ann", Role.DEALER)  # the person signed in, by name
    assert by["shuffled"][1] is Role.DEVICE and by["settle"] == ("ann", Role.DEALER)


def test_a_press_with_no_dealer_signed_in_is_refused_and_journals_nothing(
        live: Callable[..., Live], journal: Journal) -> None:
    table = live("tiles", on_duty={})
    head = journal.head()[0]
    table.press(PanelButton.NEW_ROUND)
    table.until(lambda: bool(table.loop.summary.refused))
    assert "no dealer is signed in" in table.loop.summary.refused[0]
    assert journal.head()[0] == head


def test_a_button_with_nothing_to_do_is_refused_naming_the_phase(
        live: Callable[..., Live]) -> None:
    table = live("tiles")
    table.press(PanelButton.SHAKE)
    table.until(lambda: bool(table.loop.summary.refused))
    assert "shake: nothing to do while the round is not open" in table.loop.summary.refused[0]
    table.press(PanelButton.NEW_ROUND)
    table.until(lambda: table.phase() is Phase.BETTING)
    table.press(PanelButton.SHAKE)
    table.until(lambda: len(table.loop.summary.refused) == 2)
    assert "while the round is betting" in table.loop.summary.refused[1]


def test_a_stop_leaves_the_open_round_for_the_next_start(live: Callable[..., Live],
                                                         journal: Journal) -> None:
    table = live("tiles")
    table.press(PanelButton.NEW_ROUND)
    table.until(lambda: table.phase() is Phase.BETTING)
    table.loop.stop()
    table.thread.join(timeout=10)
    assert table.loop.summary.stopped and table.loop.summary.rounds == 0
    assert any("left open at betting" in line for line in table.lines)
    assert "round_voided" not in [r.kind for r in journal.records()]


def test_calling_the_supervisor_from_the_panel_blinks_amber(live: Callable[..., Live]) -> None:
    table = live("tiles")
    table.press(PanelButton.CALL_SUPERVISOR)
    table.until(lambda: any("supervisor called" in line for line in table.lines))
    assert str(table.devices.panel.light.pattern) == "amber=blink"


def test_what_a_device_sends_on_its_own_is_said_and_logged(live: Callable[..., Live]) -> None:
    table = live("poker")
    assert table.devices.shuffler is not None
    table.devices.shuffler.control(door=True)
    table.until(lambda: any("door" in e.lower() for e in table.loop.summary.events))
    assert any("device: shuffler" in line for line in table.lines)


def test_the_acts_the_loop_does_are_nobody_elses(live: Callable[..., Live]) -> None:
    table = live("poker")
    for act in ("shuffle", "deal_packet"):
        with pytest.raises(IllegalActError, match="the table's loop does this act itself"):
            table.table.act(act, DEALER)
    assert table.table.machine_acts == MACHINE_ACTS


def test_a_device_lost_mid_round_is_a_fault_for_the_supervisor(live: Callable[..., Live],
                                                               journal: Journal) -> None:
    table = live("poker")
    table.press(PanelButton.NEW_ROUND)
    table.until(lambda: table.phase() is Phase.BETTING)
    table.table.act("take_bet", DEALER, 2, 2500)
    assert table.devices.shuffler is not None
    table.devices.shuffler.inject("lost")  # silent through every retry of the next call
    table.press(PanelButton.CONFIRM)  # bets closed: the loop's shuffle finds no shuffler
    table.until(lambda: any(r.kind == "fault_raised" for r in journal.records()))
    fault = next(r.payload() for r in journal.records() if r.kind == "fault_raised")
    assert fault["code"] == "device_lost" and fault["critical"]
    table.until(lambda: table.devices.panel.light.pattern == LOCKED)
    assert any("device lost during shuffle" in line for line in table.lines)
